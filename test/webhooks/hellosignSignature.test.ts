// Dropbox Sign (HelloSign) signs inside the payload: event.event_hash is the hex HMAC-SHA256 of
// event.event_time followed by event.event_type, keyed with the account's API key. Through the
// real app and database, a bot with that key as its webhook secret stores an event whose hash
// holds (form-encoded or multipart, as Dropbox Sign posts it) and refuses one hashed with another
// key, a changed time or type, or no hash; a bot without a secret takes it unhashed.
import crypto from "node:crypto";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook, setBotSecret } from "../support/webhooks";

const API_KEY = "5e1d0c9b8a7f6e5d4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a2918070605";
const hash = (time: string, type: string, key = API_KEY) =>
  crypto
    .createHmac("sha256", key)
    .update(time + type)
    .digest("hex");
let clock = Math.floor(Date.now() / 1000);
/** A signature_request_signed event with a time of its own (its hash is its delivery id). */
function event(title: string, eventHash?: (time: string, type: string) => string | undefined) {
  const time = String((clock += 1));
  const type = "signature_request_signed";
  return {
    event: { event_type: type, event_time: time, event_hash: (eventHash ?? hash)(time, type) },
    signature_request: {
      signature_request_id: crypto.randomUUID(),
      title,
      signatures: [{ signer_name: "Ilse Brandt", signer_email_address: "ilse@example.net", status_code: "signed" }],
    },
  };
}

let server: TestServer;
const setSecret = (secret: string) => setBotSecret(server, secret);
beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["hellosign"] });
  await setSecret(API_KEY);
});
afterAll(() => server.close());

const send = (payload: unknown) =>
  postWebhook(server, "hellosign", {
    body: new URLSearchParams({ json: JSON.stringify(payload) }).toString(),
    contentType: "application/x-www-form-urlencoded",
    query: { stream: "general" },
  });
const sendMultipart = (payload: unknown) => {
  const boundary = "----hellosign-7d1f";
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="json"\r\n\r\n${JSON.stringify(payload)}\r\n--${boundary}--\r\n`;
  return postWebhook(server, "hellosign", {
    body,
    contentType: `multipart/form-data; boundary=${boundary}`,
    query: { stream: "general" },
  });
};

it("stores events whose event_hash is the HMAC of their time and type with the API key", async () => {
  const before = await latestMessageId(server);
  const form = await send(event("Signed lease"));
  const multipart = await sendMultipart(event("Signed multipart lease"));
  for (const res of [form, multipart]) expect(res.body).toEqual({ result: "success", msg: "Hello API Event Received" });
  expect((await messagesSince(server, before)).map((m) => m.topic)).toEqual(["Signed lease", "Signed multipart lease"]);
});

it("refuses another key, a changed time or type, and no hash, storing nothing", async () => {
  const before = await latestMessageId(server);
  const mismatch =
    "The 'event.event_hash' digest does not match the payload fields it signs ({event.event_time}{event.event_type})";
  const wrongKey = event("Forged lease", (time, type) => hash(time, type, "another-api-key"));
  const retimed = event("Forged lease");
  retimed.event.event_time = String(Number(retimed.event.event_time) + 60);
  const retyped = event("Forged lease");
  retyped.event.event_type = "signature_request_declined";
  for (const payload of [wrongKey, retimed, retyped]) {
    const res = await send(payload);
    expect([res.status, res.body.code, res.body.msg, res.body.field]).toEqual([
      401,
      "INVALID_SIGNATURE",
      mismatch,
      "event.event_hash",
    ]);
    expect(JSON.stringify(res.body)).not.toContain(API_KEY);
  }
  const unhashed = await send(event("Forged lease", () => undefined));
  expect([unhashed.status, unhashed.body.code, unhashed.body.msg]).toEqual([
    401,
    "INVALID_SIGNATURE",
    "Missing the signature field 'event.event_hash'",
  ]);
  expect(await messagesSince(server, before)).toEqual([]);
});

it("does not prove the rest of the body: a hashed event with another title is stored as sent", async () => {
  // What the hash covers (the time and the type) is all it protects; the doc says so.
  const before = await latestMessageId(server);
  const res = await send(event("Title nobody signed"));
  expect(res.status).toBe(200);
  expect((await messagesSince(server, before)).map((m) => m.topic)).toEqual(["Title nobody signed"]);
});

// Last: it clears the bot's secret.
it("takes unhashed events for a bot without a secret", async () => {
  await setSecret("");
  const before = await latestMessageId(server);
  const res = await send(event("Unsigned lease", () => "not-a-hash"));
  expect(res.body).toEqual({ result: "success", msg: "Hello API Event Received" });
  expect((await messagesSince(server, before)).map((m) => m.topic)).toEqual(["Unsigned lease"]);
});
