// Flux's generic-hmac provider signs each event: X-Signature is "sha256=" + the hex
// HMAC-SHA256 of the body keyed with the Secret's token. A bot with the same webhook secret accepts only
// deliveries that carry the right signature.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const event = fs.readFileSync(
  path.join(__dirname, "..", "..", "integrations", "flux", "fixtures", "kustomization_health_check_failed.json"),
);
const SECRET = "fleet-hmac-token-4";
const sign = (secret: string, body: Buffer) =>
  "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex");

describe("flux webhook with a webhook secret", () => {
  let server: TestServer;
  const send = (body: Buffer, headers: Record<string, string> = {}) =>
    postWebhook(server, "flux", { body, query: { stream: "general" }, headers });

  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["flux"] });
    const res = await server
      .as(server.users.owner)
      .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: SECRET });
    expect(res.body.has_webhook_secret).toBe(true);
  });
  afterAll(() => server.close());

  it("stores a delivery signed with the secret", async () => {
    const before = await latestMessageId(server);
    const res = await send(event, { "X-Signature": sign(SECRET, event) });
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    const stored = await messagesSince(server, before, server.users.bot.id);
    expect(stored.map((m) => m.topic)).toEqual(["Kustomization flux-system/billing"]);
    expect(stored[0].content).toMatch(/^:cross_mark: \*\*Kustomization\*\* `flux-system\/billing`/);
  });

  it("refuses another secret's signature or none, storing nothing", async () => {
    const before = await latestMessageId(server);
    const wrong = await send(event, { "X-Signature": sign("another-secret", event) });
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
    expect(wrong.body.msg).not.toContain(SECRET);
    const missing = await send(event);
    expect([missing.status, missing.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
    expect(await messagesSince(server, before)).toEqual([]);
  });
});
