// Mandrill signs the URL it posts to followed by the form fields sorted by name (base64
// HMAC-SHA1 in X-Mandrill-Signature, keyed with the webhook's key): through the real app and
// database, a bot with that key as its webhook secret stores a delivery signed for the URL the
// server sees (its EXTERNAL_URL, the path and the query as sent) and refuses one signed for
// another URL, another key or another body, or not signed; a bot without a secret takes it unsigned.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { realmUrl } from "../../src/services/realms/realms";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, setBotSecret } from "../support/webhooks";

const KEY = "mNdr1LL-tidepool-webhook-key_42";
const events = (subject: string) =>
  JSON.parse(
    fs.readFileSync(path.join(__dirname, "..", "..", "integrations", "mandrill", "fixtures", "send.json"), "utf8"),
  ).map((e: { msg: Record<string, unknown> }) => ({ ...e, msg: { ...e.msg, subject } }));
const form = (subject: string) => new URLSearchParams({ mandrill_events: JSON.stringify(events(subject)) }).toString();
const sign = (url: string, subject: string, key = KEY) =>
  crypto
    .createHmac("sha1", key)
    .update(url + "mandrill_events" + JSON.stringify(events(subject)))
    .digest("base64");

let server: TestServer;
// The query string exactly as Mandrill sends it back: as typed into Mandrill.
let query: string;
/** The URL as registered in Mandrill: the server's public URL, not the address the test reaches it at. */
let publicUrl: string;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["mandrill"] });
  query = `api_key=${server.users.bot.apiKey}&stream=general`;
  publicUrl = `${realmUrl(server.realm, server.config.externalUrl)}/api/v1/external/mandrill?${query}`;
  await setBotSecret(server, KEY);
});
afterAll(() => server.close());

async function deliver(body: string, signature: string | undefined) {
  const res = await fetch(`${server.url}/api/v1/external/mandrill?${query}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(signature === undefined ? {} : { "X-Mandrill-Signature": signature }),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

it("stores a delivery signed for the server's public URL", async () => {
  const before = await latestMessageId(server);
  const res = await deliver(form("Signed invoice"), sign(publicUrl, "Signed invoice"));
  expect([res.status, res.body.result]).toEqual([200, "success"]);
  const stored = await messagesSince(server, before);
  expect(stored.map((m) => m.topic)).toEqual(["marta.kowalski@example.com"]);
  expect(stored[0].content).toContain("Signed invoice");
});

it("refuses another URL, another key, a changed body or no signature, storing nothing", async () => {
  const before = await latestMessageId(server);
  // What Mandrill would sign had the URL been registered as the address the server listens at.
  const direct = `${server.url}/api/v1/external/mandrill?${query}`;
  const reordered = `${realmUrl(server.realm, server.config.externalUrl)}/api/v1/external/mandrill?stream=general&api_key=${server.users.bot.apiKey}`;
  const answers = [
    await deliver(form("Forged"), sign(direct, "Forged")),
    await deliver(form("Forged"), sign(reordered, "Forged")),
    await deliver(form("Forged"), sign(publicUrl, "Forged", "another-key")),
    await deliver(form("Forged"), sign(publicUrl, "Original")),
  ];
  for (const res of answers) {
    expect([res.status, res.body.code, res.body.header]).toEqual([401, "INVALID_SIGNATURE", "X-Mandrill-Signature"]);
    expect(res.body.msg).toMatch(/^The 'X-Mandrill-Signature' signature does not match the URL posted to/);
    // Neither the key nor the URL (it holds the bot's API key) is quoted.
    expect(JSON.stringify(res.body)).not.toContain(KEY);
    expect(JSON.stringify(res.body)).not.toContain(server.users.bot.apiKey);
  }
  const unsigned = await deliver(form("Forged"), undefined);
  expect([unsigned.status, unsigned.body.code, unsigned.body.msg]).toEqual([
    401,
    "INVALID_SIGNATURE",
    "Missing the signature header 'X-Mandrill-Signature'",
  ]);
  expect(await messagesSince(server, before)).toEqual([]);
});

it("answers Mandrill's HEAD check of the URL 200, secret or not", async () => {
  const res = await fetch(`${server.url}/api/v1/external/mandrill?${query}`, { method: "HEAD" });
  expect(res.status).toBe(200);
});

// Last: it clears the bot's secret.
it("takes unsigned deliveries for a bot without a secret", async () => {
  const cleared = await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, {
    secret: "",
  });
  expect(cleared.status).toBe(200);
  const before = await latestMessageId(server);
  const res = await deliver(form("Unsigned invoice"), undefined);
  expect([res.status, res.body.result]).toEqual([200, "success"]);
  expect((await messagesSince(server, before))[0].content).toContain("Unsigned invoice");
});
