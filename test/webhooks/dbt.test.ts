// dbt signs a delivery in its Authorization header (hex HMAC-SHA256 of the body, keyed with the
// webhook's secret token) while the bot's key stays in the URL: the signature header must not be
// taken for a login, and must be checked when the bot has a secret.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const errored = fs.readFileSync(
  path.join(__dirname, "..", "..", "integrations", "dbt", "fixtures", "job_run_errored.json"),
);
const SECRET = "fenwick-token-31";
const sign = (secret: string, body: Buffer) => crypto.createHmac("sha256", secret).update(body).digest("hex");

describe("dbt webhook with a webhook secret", () => {
  let server: TestServer;
  const send = (body: Buffer, headers: Record<string, string> = {}) =>
    postWebhook(server, "dbt", { body, query: { stream: "general" }, headers });

  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["dbt"] });
    const res = await server
      .as(server.users.owner)
      .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: SECRET });
    expect(res.body.has_webhook_secret).toBe(true);
  });
  afterAll(() => server.close());

  it("stores a delivery whose Authorization header is the body's HMAC", async () => {
    const before = await latestMessageId(server);
    const res = await send(errored, { Authorization: sign(SECRET, errored) });
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    const stored = await messagesSince(server, before, server.users.bot.id);
    expect(stored.map((m) => m.topic)).toEqual(["Fenwick Analytics / Nightly marts refresh"]);
    expect(stored[0].content).toMatch(/^:cross_mark: Job \*\*Nightly marts refresh\*\* run \[#889124\]\(/);
  });

  it("refuses another token's HMAC or no Authorization header, storing nothing", async () => {
    const before = await latestMessageId(server);
    const wrong = await send(errored, { Authorization: sign("another-token", errored) });
    expect([wrong.status, wrong.body.code, wrong.body.msg]).toEqual([
      401,
      "INVALID_SIGNATURE",
      "The 'Authorization' signature does not match the request body",
    ]);
    const missing = await send(errored);
    expect([missing.status, missing.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
    expect(await messagesSince(server, before)).toEqual([]);
  });
});
