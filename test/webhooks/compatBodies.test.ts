// Bodies the compatibility formats send, over real HTTP: a multipart form as fetch's FormData
// encodes it (a file part included), and a path the sender appends to the URL it was given
// (manifest pathOption), which other integrations answer with 404.
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

describe("webhook bodies: multipart and appended paths", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["gotify", "helloworld", "notify", "ntfy"] });
  });
  afterAll(() => server.close());

  it("reads a multipart/form-data body's text fields and leaves its files out", async () => {
    const form = new FormData();
    form.set("title", "Build done");
    form.set("message", "All 312 tests passed – ✓");
    form.set("priority", "8");
    form.set("file", new Blob([Buffer.from([0xff, 0x00, 0xfe])], { type: "application/octet-stream" }), "log.bin");
    const encoded = new Request("http://x/", { method: "POST", body: form });
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "gotify", {
      body: Buffer.from(await encoded.arrayBuffer()),
      contentType: encoded.headers.get("content-type") ?? "",
      query: { stream: "general" },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await messagesSince(server, before)).toMatchObject([
      { topic: "Gotify", content: "**Build done** · priority 8 (high)\n\nAll 312 tests passed – ✓" },
    ]);
  });

  it("answers a multipart body without its boundary with 400, storing nothing", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "gotify", {
      body: "--x\r\n\r\n",
      contentType: "multipart/form-data",
      query: { stream: "general" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "BAD_REQUEST",
      msg: "Malformed multipart body: the Content-Type has no boundary",
    });
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("accepts the path a sender appends (Gotify's /message) for a plugin declaring pathOption", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "gotify/message", {
      body: JSON.stringify({ message: "pong" }),
      query: { stream: "general", token: "app-token" },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await messagesSince(server, before)).toMatchObject([{ topic: "Gotify", content: "pong" }]);
  });

  it("answers 404 for a path after an integration that declares no pathOption", async () => {
    const res = await postWebhook(server, "helloworld/extra", {
      body: JSON.stringify({ featured_title: "A", featured_url: "https://example.com" }),
      query: { stream: "general" },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      result: "error",
      msg: "Hello World takes no path after /api/v1/external/helloworld",
    });
  });

  it("reads a plain-text body with its metadata in headers, the topic from the appended path (ntfy)", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "ntfy/backups", {
      body: "Backup of nas-01 done",
      contentType: "application/x-www-form-urlencoded",
      headers: { "X-Title": "Backup", Priority: "urgent", Tags: "floppy_disk" },
      query: { stream: "general" },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await messagesSince(server, before)).toMatchObject([
      { topic: "backups", content: "🔴 **Backup** · urgent priority\n\nBackup of nas-01 done\n\nTags: `floppy_disk`" },
    ]);
  });

  it("resolves jsonPath URL options against the body, and answers a bad one with 400 naming it", async () => {
    const body = JSON.stringify({ alert: { name: "Disk", text: "97% full" }, svc: "db" });
    const before = await latestMessageId(server);
    const ok = await postWebhook(server, "notify", {
      body,
      query: { stream: "general", title: "$.alert.name", text: "$.alert.text", topic_field: "$.svc" },
    });
    expect(ok.body).toEqual({ result: "success", msg: "" });
    expect(await messagesSince(server, before)).toMatchObject([{ topic: "db", content: "**Disk**\n\n97% full" }]);

    const after = await latestMessageId(server);
    const bad = await postWebhook(server, "notify", { body, query: { stream: "general", text: "$..text" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: "BAD_REQUEST",
      msg: expect.stringMatching(/^Invalid 'text' option: not a field path/),
    });
    const empty = await postWebhook(server, "notify", { body: '{"id": 1}', query: { stream: "general" } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({
      code: "INVALID_PAYLOAD",
      msg: expect.stringContaining("nothing to show: expected"),
    });
    expect(await messagesSince(server, after)).toEqual([]);
  });
});
