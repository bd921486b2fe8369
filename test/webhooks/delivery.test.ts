// Where webhook messages go (stream by name/ID, DM to the owner), who sends them, topic
// override, and the event filters only_events / exclude_events.
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ featured_title: "Aurora", featured_url: "https://en.wikipedia.org/wiki/Aurora", ...extra });
const HELLO = "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Aurora](https://en.wikipedia.org/wiki/Aurora)**";

describe("webhook delivery", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("posts to a channel named in `stream`, as the bot, with the integration's client name", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body(), query: { stream: "general" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const [m, ...rest] = await messagesSince(server, before);
    expect(rest).toEqual([]);
    expect(m).toMatchObject({ type: "stream", stream_id: server.general.id, topic: "Hello World", content: HELLO, sender_id: server.users.bot.id, client: "ZulipHelloWorldWebhook" });
  });

  it("accepts a channel ID (all digits) in `stream`", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body(), query: { stream: String(server.general.id) } });
    expect(res.status).toBe(200);
    expect(await messagesSince(server, before)).toMatchObject([{ stream_id: server.general.id }]);
  });

  it("uses the `topic` parameter over the integration's topic", async () => {
    const before = await latestMessageId(server);
    await postWebhook(server, "helloworld", { body: body(), query: { stream: "general", topic: "Morning reading" } });
    expect(await messagesSince(server, before)).toMatchObject([{ topic: "Morning reading", content: HELLO }]);
  });

  it("without `stream`, sends a direct message to the bot's owner", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body() });
    expect(res.status).toBe(200);
    const ids = [server.users.bot.id, server.users.owner.id].sort((a, b) => a - b).join(",");
    expect(await messagesSince(server, before)).toMatchObject([{ type: "private", dm_key: ids, content: HELLO, sender_id: server.users.bot.id }]);
  });

  it("with a human user's key and no `stream`, sends the message to that user", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body(), user: server.users.member });
    expect(res.status).toBe(200);
    expect(await messagesSince(server, before)).toMatchObject([{ type: "private", dm_key: String(server.users.member.id), sender_id: server.users.member.id }]);
  });

  it("refuses a channel that does not exist and tells the bot owner", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body(), query: { stream: "no-such-channel" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", code: "STREAM_DOES_NOT_EXIST", msg: "Channel 'no-such-channel' does not exist" });
    const stored = await messagesSince(server, before);
    expect(stored).toHaveLength(1);
    const ids = [server.realm.notification_bot_id!, server.users.owner.id].sort((a, b) => a - b).join(",");
    expect(stored[0]).toMatchObject({ type: "private", dm_key: ids, sender_id: server.realm.notification_bot_id });
    expect(stored[0].content).toContain("#**no-such-channel**");
    expect(stored[0].content).toContain(server.users.bot.email);
  });

  it("refuses an unknown channel ID", async () => {
    const res = await postWebhook(server, "helloworld", { body: body(), query: { stream: "987654" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "STREAM_DOES_NOT_EXIST", msg: "Channel with ID '987654' does not exist" });
  });

  describe("only_events / exclude_events", () => {
    const cases: [string, Record<string, string>, string | undefined, boolean][] = [
      ["only_events as a JSON list", { only_events: '["hello"]' }, undefined, true],
      ["only_events that does not match", { only_events: '["goodbye"]' }, undefined, false],
      ["only_events comma-separated with a glob", { only_events: "good*,hel?o" }, undefined, true],
      ["exclude_events matching", { exclude_events: '["hel*"]' }, undefined, false],
      ["exclude_events not matching", { exclude_events: "goodbye" }, undefined, true],
      ["exclude_events on another event", { exclude_events: "hello" }, "goodbye", true],
    ];
    for (const [label, query, event, sent] of cases) {
      it(`${label} → ${sent ? "sent" : "success without a message"}`, async () => {
        const before = await latestMessageId(server);
        const res = await postWebhook(server, "helloworld", { body: body(event ? { event } : {}), query: { stream: "general", ...query } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ result: "success", msg: "" });
        expect(await messagesSince(server, before)).toHaveLength(sent ? 1 : 0);
      });
    }

    it("rejects a malformed JSON list", async () => {
      const before = await latestMessageId(server);
      const res = await postWebhook(server, "helloworld", { body: body(), query: { stream: "general", only_events: '["hello"' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "BAD_REQUEST", msg: 'Argument "only_events" is not valid JSON.' });
      expect(await messagesSince(server, before)).toEqual([]);
    });
  });
});
