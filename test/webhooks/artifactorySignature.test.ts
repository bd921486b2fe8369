// JFrog signs a delivery when its webhook has a secret: X-JFrog-Event-Auth is "sha1=" + the hex
// HMAC-SHA1 of the body keyed with that secret. A bot with the same webhook secret accepts only
// deliveries that carry the right signature.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const deployed = fs.readFileSync(
  path.join(__dirname, "..", "..", "integrations", "artifactory", "fixtures", "artifact__deployed.json"),
);
const SECRET = "marrow-hook-secret-9";
const sign = (secret: string, body: Buffer) => "sha1=" + crypto.createHmac("sha1", secret).update(body).digest("hex");

describe("artifactory webhook with a webhook secret", () => {
  let server: TestServer;
  const send = (body: Buffer, headers: Record<string, string> = {}) =>
    postWebhook(server, "artifactory", { body, query: { stream: "general" }, headers });

  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["artifactory"] });
    const res = await server
      .as(server.users.owner)
      .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: SECRET });
    expect(res.body.has_webhook_secret).toBe(true);
  });
  afterAll(() => server.close());

  it("stores a delivery signed with the secret", async () => {
    const before = await latestMessageId(server);
    const res = await send(deployed, { "X-JFrog-Event-Auth": sign(SECRET, deployed) });
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    const stored = await messagesSince(server, before, server.users.bot.id);
    expect(stored.map((m) => m.topic)).toEqual(["libs-release-local"]);
    expect(stored[0].content).toMatch(/^:package: Artifact \[marrow-core-3\.2\.0\.jar\]\(/);
  });

  it("refuses another secret's signature or none, storing nothing", async () => {
    const before = await latestMessageId(server);
    const wrong = await send(deployed, { "X-JFrog-Event-Auth": sign("another-secret", deployed) });
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
    expect(wrong.body.msg).not.toContain(SECRET);
    const missing = await send(deployed);
    expect([missing.status, missing.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
    expect(await messagesSince(server, before)).toEqual([]);
  });
});
