// Dropbox through the real app: the App Console's verification GET is answered with its challenge
// as plain text; notifications signed with the app secret (X-Dropbox-Signature, hex HMAC-SHA256 of
// the body) are posted, others refused once the bot has the secret; the shared sample, posted as
// the reference's test posts it (JSON labelled form-encoded), becomes a message.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const APP_SECRET = "q3v8d1kz0m5wpt7";
const body = JSON.stringify({
  list_folder: { accounts: ["dbid:AAH2pQ7rSx4yTf8nBgKw5zYmNh9MjD3eUrW"] },
  delta: { users: [73310452] },
});
const sign = (secret: string, text: string) => crypto.createHmac("sha256", secret).update(text).digest("hex");
const CONTENT =
  ":file_folder: Files changed in 1 Dropbox account: `dbid:AAH2pQ7rSx4yTf8nBgKw5zYmNh9MjD3eUrW`.\n" +
  "API v1 user ids: `73310452`.\n" +
  "The notification names no files: [open Dropbox](https://www.dropbox.com/home) to see what changed.";

describe("Dropbox", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["dropbox"] });
  });
  afterAll(() => server.close());

  const notify = (headers: Record<string, string> = {}) =>
    postWebhook(server, "dropbox", { body, query: { stream: "general" }, headers });

  it("answers the verification request with the challenge as text/plain, posting nothing", async () => {
    const before = await latestMessageId(server);
    const qs = new URLSearchParams({ api_key: server.users.bot.apiKey, stream: "general", challenge: "c9Xr2LwQ" });
    const res = await fetch(`${server.url}/api/v1/external/dropbox?${qs}`);
    expect([res.status, res.headers.get("content-type"), res.headers.get("x-content-type-options")]).toEqual([
      200,
      "text/plain; charset=utf-8",
      "nosniff",
    ]);
    expect(await res.text()).toBe("c9Xr2LwQ");
    expect(await latestMessageId(server)).toBe(before);
  });

  it("posts a notification to the Dropbox topic", async () => {
    const before = await latestMessageId(server);
    expect((await notify()).body).toEqual({ result: "success", msg: "" });
    const stored = await messagesSince(server, before, server.users.bot.id);
    expect(stored.map((m) => [m.stream_id, m.topic, m.content])).toEqual([[server.general.id, "Dropbox", CONTENT]]);
  });

  it("with the app secret as the bot's secret, checks X-Dropbox-Signature", async () => {
    const set = await server
      .as(server.users.owner)
      .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: APP_SECRET });
    expect(set.status).toBe(200);
    try {
      const before = await latestMessageId(server);
      expect((await notify({ "X-Dropbox-Signature": sign(APP_SECRET, body) })).status).toBe(200);
      const wrong = await notify({ "X-Dropbox-Signature": sign("another-app-secret", body) });
      expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
      const missing = await notify();
      expect([missing.status, missing.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
      expect((await messagesSince(server, before, server.users.bot.id)).map((m) => m.content)).toEqual([CONTENT]);
    } finally {
      await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "" });
    }
  });

  const SHARED = path.join(__dirname, "..", "..", "..", "shared", "fixtures", "dropbox");
  (fs.existsSync(SHARED) ? it : it.skip)("posts the shared sample sent as the reference's test sends it", async () => {
    const entries: { fixture: string; content_type?: string }[] = JSON.parse(
      fs.readFileSync(path.join(SHARED, "index.json"), "utf8"),
    );
    for (const entry of entries) {
      const before = await latestMessageId(server);
      const res = await postWebhook(server, "dropbox", {
        body: fs.readFileSync(path.join(SHARED, entry.fixture)),
        contentType: entry.content_type,
        query: { stream: "general" },
      });
      expect(res.status).toBe(200);
      const stored = await messagesSince(server, before, server.users.bot.id);
      expect(stored).toHaveLength(1);
      expect(stored[0].topic).toBe("Dropbox");
      expect(stored[0].content).toMatch(/^:file_folder: Files changed in 1 Dropbox account: `dbid:/);
    }
  });
});
