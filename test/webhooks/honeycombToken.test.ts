// Honeycomb sends the webhook's shared secret itself in X-Honeycomb-Webhook-Token ("algorithm":
// "token"): a bot with a secret accepts exactly that token and refuses another, a case change and
// a delivery without the header, without ever echoing the secret (the pipeline, then the real app).
import fs from "node:fs";
import path from "node:path";
import { loadIntegrationFolder } from "../../src/webhooks/loader";
import { runPipeline } from "../../src/webhooks/pipeline";
import { refusalOf } from "../support/apiErrors";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const PLUGIN_DIR = path.join(__dirname, "..", "..", "integrations", "honeycomb");
const plugin = loadIntegrationFolder(PLUGIN_DIR);
const body = fs.readFileSync(path.join(PLUGIN_DIR, "fixtures", "triggered.json"));
const SECRET = "Hive-Token-7f3a";

const deliver = (token?: string) =>
  runPipeline(plugin, {
    headers: {
      "content-type": "application/json",
      ...(token !== undefined ? { "x-honeycomb-webhook-token": token } : {}),
    },
    query: {},
    body,
    secret: SECRET,
  });

describe("X-Honeycomb-Webhook-Token", () => {
  it("accepts the bot's secret sent as the token", () => {
    expect(deliver(SECRET).kind).toBe("messages");
  });

  it("refuses another token, a case change and a missing header, naming the header but not the secret", () => {
    for (const token of ["Hive-Token-7f3b", SECRET.toLowerCase(), `${SECRET}x`]) {
      const refusal = refusalOf(() => deliver(token));
      expect(refusal).toMatchObject({
        code: "INVALID_SIGNATURE",
        message: "The 'X-Honeycomb-Webhook-Token' token does not match the bot's webhook secret",
      });
      expect(JSON.stringify(refusal)).not.toContain(SECRET);
    }
    expect(refusalOf(() => deliver())).toMatchObject({
      code: "INVALID_SIGNATURE",
      message: "Missing the signature header 'X-Honeycomb-Webhook-Token'",
    });
  });

  it("needs no token when the bot has no secret", () => {
    const outcome = runPipeline(plugin, { headers: { "content-type": "application/json" }, query: {}, body });
    expect(outcome.kind).toBe("messages");
  });
});

describe("honeycomb over HTTP with a webhook secret", () => {
  let server: TestServer;
  const send = (headers: Record<string, string> = {}) =>
    postWebhook(server, "honeycomb", { body, query: { stream: "general" }, headers });

  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["honeycomb"] });
    const res = await server
      .as(server.users.owner)
      .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: SECRET });
    expect(res.body.has_webhook_secret).toBe(true);
  });
  afterAll(() => server.close());

  it("stores a delivery carrying the secret as its token", async () => {
    const before = await latestMessageId(server);
    const res = await send({ "X-Honeycomb-Webhook-Token": SECRET });
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    const stored = await messagesSince(server, before, server.users.bot.id);
    expect(stored.map((m) => m.topic)).toEqual(["Checkout p99 latency"]);
  });

  it("refuses another token or none with 401, storing nothing and not echoing the secret", async () => {
    const before = await latestMessageId(server);
    const wrong = await send({ "X-Honeycomb-Webhook-Token": "not-the-secret" });
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
    expect(JSON.stringify(wrong.body)).not.toContain(SECRET);
    const missing = await send();
    expect([missing.status, missing.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
    expect(await messagesSince(server, before)).toEqual([]);
  });
});
