// Manifest `channel` through the real app and database: a message goes to the channel its template
// names instead of the URL's `stream`; blank text leaves the URL's; a named channel that does not
// exist is handled as a missing URL channel is (200, nothing posted there, one notice to the bot's
// owner, the delivery logged as "missing channel" and its delivery id released for a redelivery).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { withTransaction } from "../../src/db/transaction";
import { insertChannel } from "../../src/services/channels/channels";
import { startTestServer, type TestServer } from "../support/harness";
import { writeFiles } from "../support/pluginFolders";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const SCHEMA = {
  type: "object",
  properties: {
    kind: { type: "string" },
    id: { type: "string" },
    room: { type: "string" },
    title: { type: "string" },
    items: { type: "array", items: { type: "object", properties: { room: { type: "string" } } } },
  },
};

describe("channel: messages to the channel a delivery names", () => {
  let server: TestServer;
  let dir: string;
  let ops: number;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-channel-http-"));
    // `one` names its channel from the payload, `many` one per item (`each`).
    writeFiles(path.join(dir, "routed"), {
      "doc.md": "# Routed\n",
      "templates/hello.hbs": "Hello {{title}}",
      "integration.json": JSON.stringify({
        name: "routed",
        displayName: "Routed",
        description: "Routes messages",
        categories: ["misc"],
        eventSource: { field: "kind", default: "one" },
        deliveryId: { field: "id" },
        defaultTopic: '{{default title "routed"}}',
        eventDefaults: { template: "hello" },
        events: { one: { channel: "{{room}}" }, many: { each: "items", channel: "{{item.room}}" } },
      }),
      "schema.json": JSON.stringify(SCHEMA),
    });
    server = await startTestServer({ INTEGRATIONS_DIR: dir }, { integrations: "all" });
    ops = (
      await withTransaction(server.db, (trx) =>
        insertChannel(trx, server.realm, server.users.owner, { name: "ops", description: "Operations" }),
      )
    ).id;
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const send = (payload: unknown, query: Record<string, string | undefined> = { stream: "general" }) =>
    postWebhook(server, "routed", { body: JSON.stringify(payload), query });
  const stored = async (fn: () => Promise<unknown>) => {
    const before = await latestMessageId(server);
    await fn();
    return messagesSince(server, before);
  };
  const ownerDm = () => [server.users.bot.id, server.users.owner.id].sort((a, b) => a - b).join(",");
  const lastLogged = async () => {
    await server.deps.webhookOps.log.idle();
    return server.db("webhook_deliveries").orderBy("id", "desc").first("outcome", "ignored_reason", "status");
  };

  it("posts to the named channel instead of the URL's, by name whatever its case, with the usual topic", async () => {
    const got = await stored(async () => {
      expect((await send({ title: "deploy", room: "ops" })).body).toEqual({ result: "success", msg: "" });
      await send({ title: "again", room: " OPS " });
    });
    expect(got.map((m) => [m.type, m.stream_id, m.topic, m.content])).toEqual([
      ["stream", ops, "deploy", "Hello deploy"],
      ["stream", ops, "again", "Hello again"],
    ]);
  });

  it("leaves blank text to the URL's stream, and to the owner's DMs when the URL has none", async () => {
    const got = await stored(async () => {
      await send({ title: "plain" });
      await send({ title: "no stream" }, {});
      await send({ title: "named, no stream", room: "ops" }, {});
    });
    expect(got.map((m) => [m.type, m.stream_id ?? m.dm_key, m.content])).toEqual([
      ["stream", server.general.id, "Hello plain"],
      ["private", ownerDm(), "Hello no stream"],
      ["stream", ops, "Hello named, no stream"],
    ]);
  });

  it("a named channel that does not exist: 200, nothing posted, one escaped notice, logged as a missing channel", async () => {
    const got = await stored(async () => {
      const res = await send({ title: "lost", room: "nowhere **@all**", id: "lost-1" });
      expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    });
    // Nothing in a channel: only the Notification Bot's notice to the bot's owner.
    expect(got.map((m) => [m.type, m.sender_id === server.users.bot.id])).toEqual([["private", false]]);
    expect(got[0].content).toContain("for the channel **nowhere \\*\\*@all\\*\\***");
    expect(got[0].content).not.toContain("`stream`");
    expect(await lastLogged()).toMatchObject({ outcome: "ignored", ignored_reason: "missing channel", status: 200 });
    // A second delivery to it within the notice interval does not notify again.
    expect(await stored(() => send({ title: "lost", room: "nowhere **@all**", id: "lost-2" }))).toEqual([]);
    // Once the owner creates it, the sender's redelivery (same delivery id) is posted, not a duplicate.
    await withTransaction(server.db, (trx) =>
      insertChannel(trx, server.realm, server.users.owner, { name: "nowhere **@all**", description: "" }),
    );
    const redelivered = await stored(() => send({ title: "lost", room: "nowhere **@all**", id: "lost-1" }));
    expect(redelivered.map((m) => [m.type, m.content])).toEqual([["stream", "Hello lost"]]);
  });

  it("posts the messages whose channels exist and drops the others (each item names its own)", async () => {
    const got = await stored(async () => {
      const res = await send({ kind: "many", title: "split", items: [{ room: "ops" }, { room: "gone" }, {}] });
      expect(res.status).toBe(200);
    });
    const bots = got.filter((m) => m.sender_id === server.users.bot.id);
    expect(bots.map((m) => [m.stream_id, m.content])).toEqual([
      [ops, "Hello split"],
      [server.general.id, "Hello split"],
    ]);
    expect(got.filter((m) => m.type === "private")).toHaveLength(1); // the notice about 'gone'
  });

  it("a name no channel can have (over 60 characters) is missing, and the notice shows it cut", async () => {
    const long = "x".repeat(70);
    const got = await stored(() => send({ title: "long", room: long }));
    expect(got.map((m) => m.type)).toEqual(["private"]);
    expect(got[0].content).toContain(`**${"x".repeat(60)}…**`);
    expect(await lastLogged()).toMatchObject({ ignored_reason: "missing channel" });
  });
});
