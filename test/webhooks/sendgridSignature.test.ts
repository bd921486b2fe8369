// SendGrid's Signed Event Webhook: an ECDSA P-256 / SHA-256 signature (base64 DER) of the
// timestamp header's text followed by the raw body, checked with the verification key SendGrid
// shows (base64 SPKI), stored as the bot's webhook secret. Through the real app and database, with
// a key pair of our own: a signed batch is stored; another key, a changed body, a missing
// signature or time, a day-old signature and a secret that is no public key are refused; a bot
// without a secret takes the batch unsigned.
import crypto from "node:crypto";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook, setBotSecret } from "../support/webhooks";

const pair = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const stranger = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const VERIFICATION_KEY = pair.publicKey.export({ format: "der", type: "spki" }).toString("base64");
const now = () => Math.floor(Date.now() / 1000);

/** A batch of one event with its own id (the de-duplication must not take it for a repeat). */
const batch = (email: string) =>
  `${JSON.stringify([
    { email, timestamp: now(), event: "delivered", response: "250 OK", sg_event_id: crypto.randomUUID() },
  ])}\r\n`;
const signed = (body: string, ts = now(), key = pair.privateKey) => ({
  "X-Twilio-Email-Event-Webhook-Timestamp": String(ts),
  "X-Twilio-Email-Event-Webhook-Signature": crypto
    .sign("sha256", Buffer.concat([Buffer.from(String(ts)), Buffer.from(body)]), key)
    .toString("base64"),
});

let server: TestServer;
const setSecret = (secret: string) => setBotSecret(server, secret);
beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["sendgrid"] });
  await setSecret(VERIFICATION_KEY);
});
afterAll(() => server.close());

const deliver = (body: string, headers: Record<string, string>) =>
  postWebhook(server, "sendgrid", { body, headers, query: { stream: "general" } });

it("stores a batch signed with the key pair whose public key is the bot's secret", async () => {
  const before = await latestMessageId(server);
  const body = batch("ada@example.org");
  const res = await deliver(body, signed(body));
  expect(res.body).toEqual({ result: "success", msg: "" });
  expect((await messagesSince(server, before)).map((m) => m.topic)).toEqual(["ada@example.org"]);
});

it("refuses another key pair, a changed body, a missing signature or time, storing nothing", async () => {
  const before = await latestMessageId(server);
  const body = batch("mallory@example.org");
  const mismatch = "The 'X-Twilio-Email-Event-Webhook-Signature' signature does not match the request body";
  const wrongKey = await deliver(body, signed(body, now(), stranger.privateKey));
  expect([wrongKey.status, wrongKey.body.code, wrongKey.body.msg]).toEqual([401, "INVALID_SIGNATURE", mismatch]);
  const tampered = await deliver(body.replace("delivered", "bounce"), signed(body));
  expect([tampered.status, tampered.body.code, tampered.body.msg]).toEqual([401, "INVALID_SIGNATURE", mismatch]);
  const { "X-Twilio-Email-Event-Webhook-Signature": signature } = signed(body);
  const undated = await deliver(body, { "X-Twilio-Email-Event-Webhook-Signature": signature });
  expect([undated.status, undated.body.code, undated.body.header]).toEqual([
    401,
    "INVALID_SIGNATURE",
    "X-Twilio-Email-Event-Webhook-Timestamp",
  ]);
  const unsigned = await deliver(body, {});
  expect([unsigned.status, unsigned.body.msg]).toEqual([
    401,
    "Missing the signature header 'X-Twilio-Email-Event-Webhook-Signature'",
  ]);
  expect(await messagesSince(server, before)).toEqual([]);
});

it("refuses a correct signature made more than 24 hours before arrival as a replay", async () => {
  const before = await latestMessageId(server);
  const body = batch("replay@example.org");
  const old = await deliver(body, signed(body, now() - 86400 - 120));
  expect([old.status, old.body.code, old.body.limit]).toEqual([401, "STALE_SIGNATURE", 86400]);
  expect(await messagesSince(server, before)).toEqual([]);
});

it("refuses every delivery while the secret is no P-256 public key, without quoting it", async () => {
  const hmacSecret = "an-hmac-secret-by-mistake";
  await setSecret(hmacSecret);
  try {
    const body = batch("ada@example.org");
    const res = await deliver(body, signed(body));
    expect([res.status, res.body.code, res.body.reason]).toEqual([
      401,
      "INVALID_SIGNATURE",
      "secret is not a P-256 public key",
    ]);
    expect(res.body.msg).toMatch(/^The bot's webhook secret is not an ECDSA P-256 public key/);
    expect(JSON.stringify(res.body)).not.toContain(hmacSecret);
  } finally {
    await setSecret(VERIFICATION_KEY);
  }
});

// Last: it clears the bot's secret.
it("takes unsigned batches for a bot without a secret", async () => {
  await setSecret("");
  const before = await latestMessageId(server);
  const res = await deliver(batch("grace@example.org"), {});
  expect(res.body).toEqual({ result: "success", msg: "" });
  expect((await messagesSince(server, before)).map((m) => m.topic)).toEqual(["grace@example.org"]);
});
