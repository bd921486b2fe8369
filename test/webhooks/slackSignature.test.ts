// Slack signs every Events API request (X-Slack-Signature: v0=<HMAC of "v0:<time>:<body>">, the
// time in X-Slack-Request-Timestamp): through the real app and database, a Slack bot with a webhook
// secret stores a delivery signed just now, answers a signed url_verification, and refuses a wrong,
// unsigned, undated or replayed one, storing nothing and asking Slack's API nothing.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nock from "nock";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook, setBotSecret } from "../support/webhooks";

const PLUGIN = path.join(__dirname, "..", "..", "integrations", "slack");
const read = (...parts: string[]) => fs.readFileSync(path.join(PLUGIN, ...parts), "utf8");
const SECRET = "8f3c1d9a0e7b4c2f6a5d8e1b3c7f9a2d";
const TOKEN = "xoxb-4471205-ORCHARDTOKEN";
const now = () => Math.floor(Date.now() / 1000);
const sign = (body: string, ts: number, secret = SECRET) =>
  `v0=${crypto.createHmac("sha256", secret).update(`v0:${ts}:${body}`).digest("hex")}`;

/** Our message.json with its own text and event id (each delivery is new to the de-duplication). */
function message(text: string): string {
  const body = JSON.parse(read("fixtures", "message.json"));
  return JSON.stringify({ ...body, event_id: `Ev${crypto.randomUUID()}`, event: { ...body.event, text } });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["slack"] });
  await setBotSecret(server, SECRET);
});
afterAll(() => server.close());
afterEach(() => nock.cleanAll());

const deliver = (
  body: string,
  headers: Record<string, string>,
  query: Record<string, string> = {},
  contentType = "application/json",
) => postWebhook(server, "slack", { body, contentType, headers, query: { stream: "general", ...query } });
const signed = (body: string, ts = now(), secret = SECRET) => ({
  "X-Slack-Request-Timestamp": String(ts),
  "X-Slack-Signature": sign(body, ts, secret),
});

it("stores a message signed just now, naming the sender from Slack's API", async () => {
  const users = nock("https://slack.com")
    .get("/api/users.info")
    .query({ user: "U0MIREILLE" })
    .reply(200, JSON.parse(read("api_responses", "users.info.json")));
  const channels = nock("https://slack.com")
    .get("/api/conversations.info")
    .query({ channel: "C0HARVEST1" })
    .reply(200, JSON.parse(read("api_responses", "conversations.info.json")));
  const before = await latestMessageId(server);
  const body = message("signed rows");
  const res = await deliver(body, signed(body), { slack_app_token: TOKEN });
  expect(res.body).toEqual({ result: "success", msg: "" });
  expect(users.isDone() && channels.isDone()).toBe(true);
  const stored = await messagesSince(server, before);
  expect(stored.map((m) => m.topic)).toEqual(["Message from Slack"]);
  expect(stored[0].content).toContain("signed rows");
});

it("answers a signed url_verification with its challenge", async () => {
  const body = read("fixtures", "ignore__url_verification.json");
  const res = await deliver(body, signed(body));
  expect([res.status, res.body.challenge]).toEqual([200, "kP3xR8vN2qL7wZ5tY9mB4cH6jD1fG0sA"]);
});

it("refuses a wrong secret, a changed body, a missing time or signature, storing nothing and asking Slack nothing", async () => {
  // An interceptor that must stay unused: a refused delivery makes no lookup with the owner's token.
  let lookups = 0;
  nock("https://slack.com")
    .get(/.*/)
    .query(true)
    .times(20)
    .reply(() => {
      lookups += 1;
      return [200, { ok: true }];
    });
  const before = await latestMessageId(server);
  const body = message("forged rows");
  const wrong = await deliver(body, signed(body, now(), "not-the-secret"), { slack_app_token: TOKEN });
  expect([wrong.status, wrong.body.code, wrong.body.msg]).toEqual([
    401,
    "INVALID_SIGNATURE",
    "The 'X-Slack-Signature' signature does not match the request body",
  ]);
  const changed = await deliver(message("other rows"), signed(body), { slack_app_token: TOKEN });
  expect([changed.status, changed.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
  const undated = await deliver(body, { "X-Slack-Signature": sign(body, now()) }, { slack_app_token: TOKEN });
  expect([undated.status, undated.body.code, undated.body.header]).toEqual([
    401,
    "INVALID_SIGNATURE",
    "X-Slack-Request-Timestamp",
  ]);
  const unsigned = await deliver(body, {}, { slack_app_token: TOKEN });
  expect([unsigned.status, unsigned.body.code, unsigned.body.msg]).toEqual([
    401,
    "INVALID_SIGNATURE",
    "Missing the signature header 'X-Slack-Signature'",
  ]);
  for (const res of [wrong, changed, undated, unsigned]) expect(JSON.stringify(res.body)).not.toContain(SECRET);
  expect(lookups).toBe(0);
  expect(await messagesSince(server, before)).toEqual([]);
});

it("refuses a correctly signed delivery older or newer than 5 minutes as a replay", async () => {
  const before = await latestMessageId(server);
  const body = message("replayed rows");
  const old = await deliver(body, signed(body, now() - 6 * 60));
  expect([old.status, old.body.code, old.body.header, old.body.limit]).toEqual([
    401,
    "STALE_SIGNATURE",
    "X-Slack-Request-Timestamp",
    300,
  ]);
  expect(old.body.msg).toMatch(/^The signed delivery is 3\d\d seconds old \('X-Slack-Request-Timestamp'\)/);
  const ahead = await deliver(body, signed(body, now() + 10 * 60));
  expect([ahead.status, ahead.body.code]).toEqual([401, "STALE_SIGNATURE"]);
  expect(ahead.body.msg).toMatch(/dated (599|600|601) seconds ahead/);
  expect(await messagesSince(server, before)).toEqual([]);
});

it("refuses a legacy outgoing webhook (unsigned: Slack sends only a token field) to a bot with a secret", async () => {
  const before = await latestMessageId(server);
  const form = new URLSearchParams(JSON.parse(read("fixtures", "outgoing_webhook.json"))).toString();
  const res = await deliver(form, {}, {}, "application/x-www-form-urlencoded");
  expect([res.status, res.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
  expect(await messagesSince(server, before)).toEqual([]);
});
