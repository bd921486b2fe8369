// Manifest `reply` through the real app: the success answer carries the plugin's fields (Slack's
// url_verification challenge, HelloSign's msg) whatever becomes of the delivery — posted, ignored,
// a duplicate, a channel that does not exist, an unsupported event — and error answers never carry them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { goodPlugin, writeFiles } from "../support/pluginFolders";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const SCHEMA = {
  type: "object",
  required: ["type"],
  properties: {
    type: { type: "string" },
    challenge: { type: "string" },
    title: { type: "string" },
    id: { type: "string" },
  },
};

describe("reply: the success answer's extra fields", () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-reply-http-"));
    writeFiles(
      path.join(dir, "answering"),
      goodPlugin(
        "answering",
        { "schema.json": JSON.stringify(SCHEMA), "templates/hello.hbs": "Hello {{title}}" },
        {
          eventSource: { field: "type" },
          deliveryId: { field: "id" },
          reply: { msg: "Hello API Event Received" },
          events: {
            hello: {},
            url_verification: { ignore: true, reply: { challenge: "{{challenge}}" } },
          },
        },
      ),
    );
    server = await startTestServer({ INTEGRATIONS_DIR: dir }, { integrations: "all" });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const send = (payload: unknown, query: Record<string, string> = {}) =>
    postWebhook(server, "answering", { body: JSON.stringify(payload), query: { stream: "general", ...query } });

  it("answers an ignored verification with its challenge (plain text) and posts nothing", async () => {
    const before = await latestMessageId(server);
    const res = await send({
      type: "url_verification",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "Hello API Event Received",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    expect(await messagesSince(server, before)).toEqual([]);
    const markdownish = await send({ type: "url_verification", challenge: "a*b_c`d" });
    expect(markdownish.body.challenge).toBe("a*b_c`d");
  });

  it("answers a posted message, its duplicate and a delivery to a missing channel with the fields", async () => {
    const before = await latestMessageId(server);
    const first = await send({ type: "hello", title: "world", id: "d-1" });
    expect(first.body).toEqual({ result: "success", msg: "Hello API Event Received" });
    const again = await send({ type: "hello", title: "world", id: "d-1" });
    expect(again.body).toEqual({ result: "success", msg: "Hello API Event Received" });
    const stored = await messagesSince(server, before, server.users.bot.id);
    expect(stored.map((m) => m.content)).toEqual(["Hello world"]);
    const missing = await send({ type: "hello", title: "x", id: "d-2" }, { stream: "no-such-channel" });
    expect([missing.status, missing.body]).toEqual([200, { result: "success", msg: "Hello API Event Received" }]);
  });

  it("never adds the fields to an error answer", async () => {
    const invalid = await send({ title: "no type" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ result: "error", code: "INVALID_PAYLOAD" });
    expect(invalid.body.msg).not.toContain("Hello API");
  });

  it("answers an unsupported event (a 200) with the manifest's fields, keeping its code and event type", async () => {
    const unsupported = await send({ type: "other", challenge: "c" });
    expect([unsupported.status, unsupported.body]).toEqual([
      200,
      {
        result: "success",
        msg: "Hello API Event Received",
        code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
        webhook_name: "Demo",
        event_type: "other",
      },
    ]);
  });

  it("answers 400 for a challenge over the limit, naming the field", async () => {
    const res = await send({ type: "url_verification", challenge: "c".repeat(1001) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", code: "INVALID_PAYLOAD" });
    expect(res.body.msg).toContain("'challenge' would be longer than 1000 characters");
  });
});
