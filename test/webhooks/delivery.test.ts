// Where webhook messages go (stream by name/ID, DM to the owner), who sends them, topic
// override, and the event filters only_events / exclude_events.
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ featured_title: "Aurora", featured_url: "https://en.wikipedia.org/wiki/Aurora", ...extra });
const HELLO =
  "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Aurora](https://en.wikipedia.org/wiki/Aurora)**";

describe("webhook delivery", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      {},
      { integrations: ["alertmanager", "bitbucket2", "github", "helloworld", "teamcity"] },
    );
  });
  afterAll(() => server.close());

  it("posts to a channel named in `stream`, as the bot, with the integration's client name", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body(), query: { stream: "general" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const [m, ...rest] = await messagesSince(server, before);
    expect(rest).toEqual([]);
    expect(m).toMatchObject({
      type: "stream",
      stream_id: server.general.id,
      topic: "Hello World",
      content: HELLO,
      sender_id: server.users.bot.id,
      client: "ZulipHelloWorldWebhook",
    });
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
    expect(await messagesSince(server, before)).toMatchObject([
      { type: "private", dm_key: ids, content: HELLO, sender_id: server.users.bot.id },
    ]);
  });

  it("with a human user's key and no `stream`, sends the message to that user", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body(), user: server.users.member });
    expect(res.status).toBe(200);
    expect(await messagesSince(server, before)).toMatchObject([
      { type: "private", dm_key: String(server.users.member.id), sender_id: server.users.member.id },
    ]);
  });

  it("answers 200 for a channel that does not exist, posts nothing there and tells the bot owner", async () => {
    // As the reference does: a 400 would make GitHub & co. mark the delivery failed for what
    // only the bot owner can fix.
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body(), query: { stream: "no-such-channel" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const stored = await messagesSince(server, before);
    expect(stored).toHaveLength(1);
    const ids = [server.realm.notification_bot_id!, server.users.owner.id].sort((a, b) => a - b).join(",");
    expect(stored[0]).toMatchObject({ type: "private", dm_key: ids, sender_id: server.realm.notification_bot_id });
    expect(stored[0].content).toContain("#**no-such-channel**");
    expect(stored[0].content).toContain(server.users.bot.email);
    expect(await server.db("streams").where({ name_key: "no-such-channel" }).first()).toBeUndefined();
  });

  it("a direct-to-owner delivery needs no channel: a missing one is neither looked up nor reported", async () => {
    const fixture = fs.readFileSync(
      path.join(__dirname, "../../integrations/teamcity/fixtures/build__personal.json"),
      "utf8",
    );
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "teamcity", { body: fixture, query: { stream: "gone-channel" } });
    expect(res.status).toBe(200);
    const stored = await messagesSince(server, before);
    const ownerDm = [server.users.bot.id, server.users.owner.id].sort((a, b) => a - b).join(",");
    expect(stored.map((m) => [m.type, m.sender_id, m.dm_key])).toEqual([["private", server.users.bot.id, ownerDm]]);
  });

  it("looks the channel up once per delivery, however many messages it posts", async () => {
    // Alertmanager posts one message per topic: three instances here, all to the same channel.
    const alerts = ["db-1", "db-2", "db-3"].map((instance) => ({
      status: "firing",
      labels: { alertname: "Disk full", instance },
      annotations: {},
    }));
    const streamQueries: string[] = [];
    const onQuery = (q: { sql: string }) => {
      if (/\bfrom [`"]?streams[`"]?/i.test(q.sql)) streamQueries.push(q.sql);
    };
    server.db.on("query", onQuery);
    const before = await latestMessageId(server);
    try {
      const res = await postWebhook(server, "alertmanager", {
        body: JSON.stringify({ status: "firing", alerts }),
        // One topic per instance (name=instance), so three messages.
        query: { stream: "general", name: "instance" },
      });
      expect(res.status).toBe(200);
    } finally {
      server.db.removeListener("query", onQuery);
    }
    expect((await messagesSince(server, before, server.users.bot.id)).map((m) => m.topic)).toEqual([
      "db-1",
      "db-2",
      "db-3",
    ]);
    // At most one: with the channel cache warm, none at all.
    expect(streamQueries.length).toBeLessThanOrEqual(1);
  });

  it("answers 200 for an unknown channel ID and tells the bot owner", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: body(), query: { stream: "987654" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const stored = await messagesSince(server, before);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ type: "private", sender_id: server.realm.notification_bot_id });
    expect(stored[0].content).toContain("the channel with ID 987654");
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
        const res = await postWebhook(server, "helloworld", {
          body: body(event ? { event } : {}),
          query: { stream: "general", ...query },
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ result: "success", msg: "" });
        expect(await messagesSince(server, before)).toHaveLength(sent ? 1 : 0);
      });
    }

    // The reference spells event and action with `:` (`pull_request:opened`), we with `.`;
    // Bitbucket's own event names contain `:`. Either spelling works on both kinds.
    const spellings: [string, string, Record<string, string>, Record<string, string>, boolean][] = [
      [
        "github",
        "pull_request__opened",
        { "X-GitHub-Event": "pull_request" },
        { only_events: "pull_request:opened" },
        true,
      ],
      [
        "github",
        "pull_request__opened",
        { "X-GitHub-Event": "pull_request" },
        { only_events: "pull_request.opened" },
        true,
      ],
      [
        "github",
        "pull_request__opened",
        { "X-GitHub-Event": "pull_request" },
        { only_events: "pull_request:clos*" },
        false,
      ],
      [
        "github",
        "pull_request__opened",
        { "X-GitHub-Event": "pull_request" },
        { exclude_events: '["pull_request:*"]' },
        false,
      ],
      ["bitbucket2", "repo_push", { "X-Event-Key": "repo:push" }, { only_events: "repo:push" }, true],
      ["bitbucket2", "repo_push", { "X-Event-Key": "repo:push" }, { only_events: "repo.push" }, true],
      ["bitbucket2", "repo_push", { "X-Event-Key": "repo:push" }, { exclude_events: "repo.*" }, false],
    ];
    for (const [name, fixture, headers, query, sent] of spellings) {
      it(`${name} ${Object.entries(query)[0].join("=")} → ${sent ? "sent" : "success without a message"}`, async () => {
        const payload = fs.readFileSync(
          path.join(__dirname, `../../integrations/${name}/fixtures/${fixture}.json`),
          "utf8",
        );
        const before = await latestMessageId(server);
        const res = await postWebhook(server, name, { body: payload, headers, query: { stream: "general", ...query } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ result: "success", msg: "" });
        expect((await messagesSince(server, before)).length > 0).toBe(sent);
      });
    }

    it("rejects a malformed JSON list", async () => {
      const before = await latestMessageId(server);
      const res = await postWebhook(server, "helloworld", {
        body: body(),
        query: { stream: "general", only_events: '["hello"' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "BAD_REQUEST", msg: 'Argument "only_events" is not valid JSON.' });
      expect(await messagesSince(server, before)).toEqual([]);
    });
  });
});
