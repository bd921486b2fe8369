// Replays of signed deliveries: where a service signs the time it sent a delivery (Linear's
// `webhookTimestamp`, inside the signed body), a signed delivery outside the service's documented
// tolerance (60 s for Linear) is refused 401 STALE_SIGNATURE, whatever its delivery id. The fixture
// is signed as Linear would sign it, with a current timestamp; as stored it is a year old.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook, setBotSecret } from "../support/webhooks";

const SECRET = "lin-signing-secret";
const fixture = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../integrations/linear/fixtures/comment_create.json"), "utf8"),
) as Record<string, unknown>;
const sign = (text: string) => crypto.createHmac("sha256", SECRET).update(text).digest("hex");

let server: TestServer;
let deliveries = 0;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["linear"] });
  await setBotSecret(server, SECRET);
});
afterAll(() => server.close());

/** Posts `payload` signed with the bot's secret, under a new delivery id each time (as a replayer would). */
function deliver(payload: Record<string, unknown>) {
  const body = JSON.stringify(payload);
  return postWebhook(server, "linear", {
    body,
    query: { stream: "general" },
    headers: { "Linear-Signature": sign(body), "Linear-Delivery": `delivery-${++deliveries}` },
  });
}

it("accepts a signed delivery sent just now", async () => {
  const before = await latestMessageId(server);
  const res = await deliver({ ...fixture, webhookTimestamp: Date.now() });
  expect(res.body).toEqual({ result: "success", msg: "" });
  expect(await messagesSince(server, before)).toHaveLength(1);
});

it("refuses the same delivery signed a year ago, under a new delivery id", async () => {
  const before = await latestMessageId(server);
  const res = await deliver(fixture); // webhookTimestamp 2025-03-14
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ result: "error", code: "STALE_SIGNATURE", field: "webhookTimestamp", limit: 60 });
  expect(res.body.msg).toMatch(
    /^The signed Linear delivery is \d+ seconds old \('webhookTimestamp'\): signed deliveries are accepted within 60 seconds of being sent \(Linear's documented tolerance\), to refuse replays$/,
  );
  expect(await messagesSince(server, before)).toEqual([]);
});

it("refuses one signed past the tolerance, or dated ahead of it, and one without its timestamp", async () => {
  const before = await latestMessageId(server);
  const old = await deliver({ ...fixture, webhookTimestamp: Date.now() - 5 * 60_000 });
  expect([old.status, old.body.code]).toEqual([401, "STALE_SIGNATURE"]);
  const ahead = await deliver({ ...fixture, webhookTimestamp: Date.now() + 60 * 60_000 });
  expect([ahead.status, ahead.body.code]).toEqual([401, "STALE_SIGNATURE"]);
  expect(ahead.body.msg).toMatch(/^The signed Linear delivery is dated \d+ seconds ahead/);
  const { webhookTimestamp: _dropped, ...undated } = fixture;
  const missing = await deliver(undated);
  expect(missing.status).toBe(401);
  expect(missing.body).toMatchObject({
    code: "STALE_SIGNATURE",
    msg: "The signed Linear delivery has no timestamp 'webhookTimestamp'",
  });
  const text = await deliver({ ...fixture, webhookTimestamp: String(Date.now()) });
  expect([text.status, text.body.code]).toEqual([401, "STALE_SIGNATURE"]);
  expect(await messagesSince(server, before)).toEqual([]);
});

it("checks no timestamp on an unsigned delivery (a bot without a secret): nothing in it is proven anyway", async () => {
  await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "" });
  try {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "linear", { body: JSON.stringify(fixture), query: { stream: "general" } });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await messagesSince(server, before)).toHaveLength(1);
  } finally {
    await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: SECRET });
  }
});
