// HCP Terraform signs with HMAC-SHA512 (X-TFE-Notification-Signature, bare hex) when the
// notification has a token: the fixture suite cannot set a bot secret, so the signed cases and
// the verification handshake are checked here over HTTP.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const FIXTURES = path.join(__dirname, "..", "..", "integrations", "terraform", "fixtures");
const applied = fs.readFileSync(path.join(FIXTURES, "run_completed__applied.json"));
const verification = fs.readFileSync(path.join(FIXTURES, "verification__ignored.json"));
const SECRET = "harbor-token-77";
const sign = (secret: string, body: Buffer, algorithm = "sha512") =>
  crypto.createHmac(algorithm, secret).update(body).digest("hex");

describe("terraform webhook", () => {
  let server: TestServer;
  const send = (body: Buffer, headers: Record<string, string> = {}) =>
    postWebhook(server, "terraform", { body, query: { stream: "general" }, headers });

  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["terraform"] });
  });
  afterAll(() => server.close());

  it("answers the verification request with success and posts nothing", async () => {
    const before = await latestMessageId(server);
    const res = await send(verification);
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    expect(await messagesSince(server, before)).toEqual([]);
  });

  describe("with a webhook secret (the notification's token)", () => {
    beforeAll(async () => {
      const res = await server
        .as(server.users.owner)
        .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: SECRET });
      expect(res.body.has_webhook_secret).toBe(true);
    });
    afterAll(async () => {
      await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "" });
    });

    it("answers a signed verification request with success", async () => {
      const res = await send(verification, { "X-TFE-Notification-Signature": sign(SECRET, verification) });
      expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    });

    it("stores a delivery signed with HMAC-SHA512 of the body", async () => {
      const before = await latestMessageId(server);
      const res = await send(applied, { "X-TFE-Notification-Signature": sign(SECRET, applied) });
      expect(res.status).toBe(200);
      const stored = await messagesSince(server, before, server.users.bot.id);
      expect(stored.map((m) => m.topic)).toEqual(["harbor-lights/edge-network-prod"]);
      expect(stored[0].content).toMatch(/^:check: \*\*Run Applied\*\*: \[run-3hJkW9sPqLx2Nv4M\]\(/);
    });

    it("refuses a SHA-256 digest, another token's digest or no signature, storing nothing", async () => {
      const before = await latestMessageId(server);
      const mismatch = {
        result: "error",
        code: "INVALID_SIGNATURE",
        msg: "The 'X-TFE-Notification-Signature' signature does not match the request body",
        header: "X-TFE-Notification-Signature",
      };
      const sha256 = await send(applied, { "X-TFE-Notification-Signature": sign(SECRET, applied, "sha256") });
      expect([sha256.status, sha256.body]).toEqual([401, mismatch]);
      const other = await send(applied, { "X-TFE-Notification-Signature": sign("another-token", applied) });
      expect([other.status, other.body]).toEqual([401, mismatch]);
      const missing = await send(applied);
      expect([missing.status, missing.body.code, missing.body.msg]).toEqual([
        401,
        "INVALID_SIGNATURE",
        "Missing the signature header 'X-TFE-Notification-Signature'",
      ]);
      expect(await messagesSince(server, before)).toEqual([]);
    });
  });
});
