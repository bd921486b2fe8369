// Emoji reactions: add / remove with every namespace and error, votes, visibility, events,
// reactions on message objects, zulip-js and form-encoded (Python-client style) requests.
import { cachesOf, SHARED_TTL_MS } from "../../src/db/cache";
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
let messageId: number;
let dmId: number;
let customEmojiId: number;
let oldEmojiId: number;

beforeAll(async () => {
  server = await startTestServer();
  const { owner, member } = server.users;
  messageId = (
    await server.as(owner).post("/messages", { type: "stream", to: "general", topic: "react", content: "react to me" })
  ).body.id;
  dmId = (await server.as(owner).post("/messages", { type: "direct", to: [member.id], content: "private" })).body.id;
  const emoji = { realm_id: server.realm.id, author_id: owner.id, file_name: "x.png", date_created: 1 };
  [customEmojiId] = await server.db("realm_emoji").insert({ ...emoji, name: "party_parrot", deactivated: false });
  [oldEmojiId] = await server.db("realm_emoji").insert({ ...emoji, name: "old_logo", deactivated: true });
  customEmojiId = Number(customEmojiId);
  oldEmojiId = Number(oldEmojiId);
});
afterAll(async () => {
  await server.close();
});

const reactionRows = (id = messageId) =>
  server
    .db("reactions")
    .where({ message_id: id })
    .orderBy("id")
    .select("user_id", "emoji_name", "emoji_code", "reaction_type");
const path = (id = messageId) => `/messages/${id}/reactions`;

async function clear(): Promise<void> {
  await server.db("reactions").delete();
}

describe("POST /messages/{id}/reactions", () => {
  beforeEach(clear);

  it("adds a Unicode emoji by name, shows it on the message and tells the recipients", async () => {
    const { member, other, owner } = server.users;
    const queue = await server.as(other).post("/register", { event_types: ["reaction"] });
    const res = await server.as(member).post(path(), { emoji_name: "smile" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await reactionRows()).toEqual([
      { user_id: member.id, emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji" },
    ]);

    const read = await server.as(owner).get(`/messages/${messageId}`);
    expect(read.body.message.reactions).toEqual([
      { emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji", user_id: member.id },
    ]);
    const list = await server.as(owner).get("/messages", { anchor: messageId, num_before: 0, num_after: 0 });
    expect(list.body.messages[0].reactions).toEqual(read.body.message.reactions);

    const events = await server
      .as(other)
      .get("/events", { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events).toEqual([
      expect.objectContaining({
        type: "reaction",
        op: "add",
        user_id: member.id,
        message_id: messageId,
        emoji_name: "smile",
        emoji_code: "1f642",
        reaction_type: "unicode_emoji",
      }),
    ]);
  });

  it("accepts explicit code and type; with or without the variation selector it is the same emoji, stored as the reference writes it", async () => {
    const { member } = server.users;
    expect(
      (
        await server
          .as(member)
          .post(path(), { emoji_name: "heart", emoji_code: "2764-fe0f", reaction_type: "unicode_emoji" })
      ).status,
    ).toBe(200);
    expect(await reactionRows()).toEqual([
      { user_id: member.id, emoji_name: "heart", emoji_code: "2764", reaction_type: "unicode_emoji" },
    ]);
    const again = await server
      .as(member)
      .post(path(), { emoji_name: "heart", emoji_code: "2764", reaction_type: "unicode_emoji" });
    expect(again.body).toEqual({ result: "error", code: "REACTION_ALREADY_EXISTS", msg: "Reaction already exists." });
  });

  it("a second user's reaction with the same emoji is a vote and keeps the first name", async () => {
    const { member, other } = server.users;
    await server.as(member).post(path(), { emoji_name: "+1" });
    expect(
      (
        await server
          .as(other)
          .post(path(), { emoji_name: "thumbsup", emoji_code: "1f44d", reaction_type: "unicode_emoji" })
      ).status,
    ).toBe(200);
    expect((await reactionRows()).map((r) => [r.user_id, r.emoji_name, r.emoji_code])).toEqual([
      [member.id, "+1", "1f44d"],
      [other.id, "+1", "1f44d"],
    ]);
  });

  it("adds custom (realm) emoji by name or id, and the zulip extra emoji", async () => {
    const { member } = server.users;
    expect((await server.as(member).post(path(), { emoji_name: "party_parrot" })).status).toBe(200);
    expect((await server.as(member).post(path(), { emoji_name: "zulip" })).status).toBe(200);
    expect(
      (
        await server
          .as(member)
          .post(path(), { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" })
      ).body.code,
    ).toBe("REACTION_ALREADY_EXISTS");
    expect(await reactionRows()).toEqual([
      {
        user_id: member.id,
        emoji_name: "party_parrot",
        emoji_code: String(customEmojiId),
        reaction_type: "realm_emoji",
      },
      { user_id: member.id, emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" },
    ]);
    const other = await server
      .as(server.users.other)
      .post(path(), { emoji_name: "party_parrot", emoji_code: String(customEmojiId), reaction_type: "realm_emoji" });
    expect(other.status).toBe(200);
  });

  it("lets a user react to a public-channel message from its history (they get a historical row)", async () => {
    const { moderator } = server.users; // not subscribed to general
    expect(
      await server.db("user_messages").where({ user_id: moderator.id, message_id: messageId }).first(),
    ).toBeUndefined();
    expect((await server.as(moderator).post(path(), { emoji_name: "tada" })).status).toBe(200);
    const row = await server.db("user_messages").where({ user_id: moderator.id, message_id: messageId }).first();
    expect(row.flags & 128).toBe(128);
  });

  it.each([
    ["unknown name", () => ({ emoji_name: "not_an_emoji_at_all" }), "BAD_REQUEST", "Invalid emoji name"],
    [
      "name not matching the code",
      () => ({ emoji_name: "smile", emoji_code: "1f44d", reaction_type: "unicode_emoji" }),
      "BAD_REQUEST",
      "Invalid emoji name",
    ],
    [
      "unknown code",
      () => ({ emoji_name: "smile", emoji_code: "fffff", reaction_type: "unicode_emoji" }),
      "BAD_REQUEST",
      "Invalid emoji code",
    ],
    [
      "unknown custom emoji id",
      () => ({ emoji_name: "party_parrot", emoji_code: "99999", reaction_type: "realm_emoji" }),
      "BAD_REQUEST",
      "Invalid emoji code",
    ],
    [
      "custom emoji with another name",
      () => ({ emoji_name: "parrot", emoji_code: String(customEmojiId), reaction_type: "realm_emoji" }),
      "BAD_REQUEST",
      "Invalid emoji name",
    ],
    [
      "deactivated custom emoji",
      () => ({ emoji_name: "old_logo", emoji_code: String(oldEmojiId), reaction_type: "realm_emoji" }),
      "BAD_REQUEST",
      "This custom emoji has been deactivated.",
    ],
    ["deactivated custom emoji by name", () => ({ emoji_name: "old_logo" }), "BAD_REQUEST", "Invalid emoji name"],
    [
      "bad extra emoji code",
      () => ({ emoji_name: "zulip", emoji_code: "slack", reaction_type: "zulip_extra_emoji" }),
      "BAD_REQUEST",
      "Invalid emoji code",
    ],
    [
      "bad extra emoji name",
      () => ({ emoji_name: "zulip_logo", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" }),
      "BAD_REQUEST",
      "Invalid emoji name",
    ],
    [
      "bad reaction type",
      () => ({ emoji_name: "smile", emoji_code: "1f604", reaction_type: "service_emoji" }),
      "BAD_REQUEST",
      "Invalid reaction_type",
    ],
    ["missing name", () => ({ emoji_code: "1f604" }), "REQUEST_VARIABLE_MISSING", "Missing 'emoji_name' argument"],
  ])("refuses %s", async (_label, params, code, msg) => {
    const res = await server.as(server.users.member).post(path(), params());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", code, msg });
    expect(await reactionRows()).toEqual([]);
  });

  it("refuses messages the user cannot see", async () => {
    for (const [user, id] of [
      [server.users.guest, messageId],
      [server.users.other, dmId],
      [server.users.member, 987654],
    ] as const) {
      const res = await server.as(user).post(path(id), { emoji_name: "smile" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid message(s)" });
    }
    expect(await server.db("reactions")).toEqual([]);
  });
});

describe("DELETE /messages/{id}/reactions", () => {
  beforeEach(clear);

  it("removes by name, or by code and type, and tells the recipients", async () => {
    const { member, owner } = server.users;
    await server.as(member).post(path(), { emoji_name: "smile" });
    await server.as(member).post(path(), { emoji_name: "party_parrot" });
    const queue = await server.as(owner).post("/register", { event_types: ["reaction"] });
    expect((await server.as(member).delete(path(), { emoji_name: "smile" })).body).toEqual({
      result: "success",
      msg: "",
    });
    const byCode = await server
      .as(member)
      .delete(path(), { emoji_code: String(customEmojiId), reaction_type: "realm_emoji" });
    expect(byCode.status).toBe(200);
    expect(await reactionRows()).toEqual([]);
    const events = await server
      .as(owner)
      .get("/events", { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events.map((e: any) => [e.op, e.emoji_name, e.emoji_code])).toEqual([
      ["remove", "smile", "1f642"],
      ["remove", "party_parrot", String(customEmojiId)],
    ]);
  });

  it.each([
    ["a reaction that does not exist", { emoji_name: "smile" }, "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist."],
    ["someone else's reaction", { emoji_name: "tada" }, "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist."],
    ["an unknown emoji name", { emoji_name: "not_an_emoji_at_all" }, "BAD_REQUEST", "Invalid emoji name"],
    [
      "neither name nor code",
      {},
      "BAD_REQUEST",
      "At least one of the following arguments must be present: emoji_name, emoji_code",
    ],
  ])("refuses %s", async (_label, params, code, msg) => {
    await server.as(server.users.other).post(path(), { emoji_name: "tada" });
    const before = await reactionRows();
    const res = await server.as(server.users.member).delete(path(), params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code, msg });
    expect(await reactionRows()).toEqual(before);
  });

  it("infers a missing reaction_type from the name: a custom emoji goes by name and code (zulip-js)", async () => {
    const { member } = server.users;
    await server.as(member).post(path(), { emoji_name: "party_parrot" });
    await server.as(member).post(path(), { emoji_name: "smile" });
    const client = await zulipJs(server, member);
    const custom = await client.reactions.remove({
      message_id: messageId,
      emoji_name: "party_parrot",
      emoji_code: String(customEmojiId),
    });
    expect(custom).toEqual({ result: "success", msg: "" });
    const unicode = await client.reactions.remove({ message_id: messageId, emoji_name: "smile", emoji_code: "1f642" });
    expect(unicode).toEqual({ result: "success", msg: "" });
    expect(await reactionRows()).toEqual([]);
  });

  it("removes a deactivated custom emoji's reaction by its name and code", async () => {
    const { member } = server.users;
    await server.db("reactions").insert({
      message_id: messageId,
      user_id: member.id,
      emoji_name: "old_logo",
      emoji_code: String(oldEmojiId),
      reaction_type: "realm_emoji",
    });
    const res = await server.as(member).delete(path(), { emoji_name: "old_logo", emoji_code: String(oldEmojiId) });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await reactionRows()).toEqual([]);
  });

  it.each([
    ["a Unicode code", { emoji_code: "not-a-code" }],
    ["a Unicode code with a name", { emoji_name: "smile", emoji_code: "fffff" }],
    ["a custom emoji ID", { emoji_code: "987654", reaction_type: "realm_emoji" }],
    ["a custom emoji code that is not an ID", { emoji_code: "party_parrot", reaction_type: "realm_emoji" }],
    ["an extra emoji code", { emoji_code: "zulipp", reaction_type: "zulip_extra_emoji" }],
  ])("refuses an unknown emoji code: %s → Invalid emoji code", async (_label, params) => {
    await server.as(server.users.member).post(path(), { emoji_name: "smile" });
    const before = await reactionRows();
    const res = await server.as(server.users.member).delete(path(), params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid emoji code" });
    expect(await reactionRows()).toEqual(before);
  });

  it("a known code the user has not reacted with is still `Reaction doesn't exist.`", async () => {
    const res = await server.as(server.users.member).delete(path(), { emoji_code: "1f389" });
    expect(res.body).toEqual({ result: "error", code: "REACTION_DOES_NOT_EXIST", msg: "Reaction doesn't exist." });
  });

  it("refuses messages the user cannot see", async () => {
    const res = await server.as(server.users.other).delete(path(dmId), { emoji_name: "smile" });
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid message(s)" });
  });
});

describe("clients", () => {
  beforeEach(clear);

  it("zulip-js reactions.add / reactions.remove (multipart POST, query-string DELETE)", async () => {
    const client = await zulipJs(server, server.users.member);
    expect(await client.reactions.add({ message_id: messageId, emoji_name: "octopus" })).toEqual({
      result: "success",
      msg: "",
    });
    expect(await reactionRows()).toEqual([
      { user_id: server.users.member.id, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" },
    ]);
    expect(await client.reactions.add({ message_id: messageId, emoji_name: "octopus" })).toMatchObject({
      code: "REACTION_ALREADY_EXISTS",
    });
    expect(
      await client.reactions.remove({
        message_id: messageId,
        emoji_name: "octopus",
        emoji_code: "1f419",
        reaction_type: "unicode_emoji",
      }),
    ).toEqual({
      result: "success",
      msg: "",
    });
    expect(await client.reactions.remove({ message_id: messageId, emoji_name: "octopus" })).toMatchObject({
      code: "REACTION_DOES_NOT_EXIST",
    });
  });

  it("Python-client style: form-encoded DELETE body (remove_reaction)", async () => {
    await server.as(server.users.member).post(path(), { emoji_name: "octopus" });
    const res = await server
      .as(server.users.member)
      .request("DELETE", path(), { emoji_name: "octopus" }, { query: false });
    expect(res.body).toEqual({ result: "success", msg: "" });
  });
});

describe("reactions on GET /messages", () => {
  beforeEach(clear);

  /** The SQL statements reading the reactions table while `run` goes. */
  async function reactionReads(run: () => Promise<unknown>): Promise<number> {
    let reads = 0;
    const count = (query: { sql: string }) => {
      if (/^select \* from [`"]reactions[`"]/i.test(query.sql)) reads++;
    };
    server.db.on("query", count);
    try {
      await run();
    } finally {
      server.db.off("query", count);
    }
    return reads;
  }

  it("a window of messages with and without reactions: each carries its own, in the order they were added", async () => {
    const { owner, member, other } = server.users;
    const plain = (
      await server.as(owner).post("/messages", { type: "stream", to: "general", topic: "react", content: "none" })
    ).body.id;
    const liked = (
      await server.as(owner).post("/messages", { type: "stream", to: "general", topic: "react", content: "some" })
    ).body.id;
    await server.as(member).post(path(messageId), { emoji_name: "smile" });
    await server.as(other).post(path(liked), { emoji_name: "heart" });
    await server.as(member).post(path(liked), { emoji_name: "party_parrot" });
    await server.as(member).post(path(liked), { emoji_name: "heart" });

    const list = await server
      .as(owner)
      .get("/messages", { anchor: messageId, num_before: 0, num_after: 100, narrow: [["channel", "general"]] });
    const byId = new Map(list.body.messages.map((m: { id: number; reactions: unknown[] }) => [m.id, m.reactions]));
    expect(byId.get(plain)).toEqual([]);
    for (const id of [messageId, liked]) {
      expect(byId.get(id)).toEqual((await server.as(owner).get(`/messages/${id}`)).body.message.reactions);
    }
    expect(byId.get(liked)).toEqual([
      { emoji_name: "heart", emoji_code: "2764", reaction_type: "unicode_emoji", user_id: other.id },
      {
        emoji_name: "party_parrot",
        emoji_code: String(customEmojiId),
        reaction_type: "realm_emoji",
        user_id: member.id,
      },
      { emoji_name: "heart", emoji_code: "2764", reaction_type: "unicode_emoji", user_id: member.id },
    ]);
  });

  it("a window read again needs no reactions query; adding or removing a reaction shows at once", async () => {
    const { owner, member } = server.users;
    const window = { anchor: messageId, num_before: 0, num_after: 0 };
    const reactionsShown = async () => (await server.as(owner).get("/messages", window)).body.messages[0].reactions;
    // Entries live a second without Redis; long enough here that a slow machine cannot expire them.
    const caches = cachesOf(server.db);
    const ttl = caches.ttlMs;
    caches.ttlMs = SHARED_TTL_MS;
    try {
      expect(await reactionReads(async () => expect(await reactionsShown()).toEqual([]))).toBe(1);
      expect(await reactionReads(async () => expect(await reactionsShown()).toEqual([]))).toBe(0);

      await server.as(member).post(path(), { emoji_name: "smile" });
      const smile = { emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji", user_id: member.id };
      expect(await reactionsShown()).toEqual([smile]);
      expect(await reactionReads(async () => expect(await reactionsShown()).toEqual([smile]))).toBe(0);

      await server.as(member).delete(path(), { emoji_name: "smile" });
      expect(await reactionsShown()).toEqual([]);
    } finally {
      caches.ttlMs = ttl;
    }
  });
});
