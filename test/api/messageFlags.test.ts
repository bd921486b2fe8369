// POST /messages/flags: read, starred and collapsed on one's own rows; historical rows for a
// message reached through channel history; the event to the user's clients; errors and the limit.
import { MAX_FLAGGED_MESSAGES } from "../../src/services/messages/flags";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
let ids: number[];
let dm: number;

beforeAll(async () => {
  server = await startTestServer();
  ids = [];
  for (let i = 0; i < 3; i++) {
    const sent = await server
      .as(server.users.owner)
      .post("/messages", { type: "stream", to: "general", topic: "flags", content: `message ${i}` });
    ids.push(sent.body.id);
  }
  const direct = await server
    .as(server.users.other)
    .post("/messages", { type: "direct", to: [server.users.member.id], content: "hi @**Mel Member**" });
  dm = direct.body.id;
});
afterAll(async () => {
  await server.close();
});

async function flagsOf(user: TestUser, messageId: number): Promise<string[] | undefined> {
  const res = await server.as(user).get(`/messages/${messageId}`);
  return res.body.message?.flags;
}

function flag(user: TestUser, messages: unknown, op: string, name: string) {
  return server.as(user).post("/messages/flags", { messages: JSON.stringify(messages), op, flag: name });
}

async function eventsOf(user: TestUser, queueId: string) {
  const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  return res.body.events.filter((e: { type: string }) => e.type === "update_message_flags");
}

describe("POST /messages/flags", () => {
  it("marks messages read and unread; the event carries only the ids that changed", async () => {
    const { member } = server.users;
    const queue = await server.as(member).post("/register", { event_types: ["update_message_flags"] });
    const res = await flag(member, [ids[0], ids[1]], "add", "read");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", messages: [ids[0], ids[1]] });
    expect(await flagsOf(member, ids[0])).toContain("read");
    expect(await flagsOf(member, ids[2])).not.toContain("read");
    // ids[1] is read already: only ids[2] changes.
    await flag(member, [ids[1], ids[2]], "add", "read");
    // Back to unread: the event says where each message belongs.
    await flag(member, [ids[0], dm], "remove", "read");
    expect(await flagsOf(member, ids[0])).not.toContain("read");
    const events = await eventsOf(member, queue.body.queue_id);
    expect(events.map((e: { op: string; messages: number[] }) => [e.op, e.messages])).toEqual([
      ["add", [ids[0], ids[1]]],
      ["add", [ids[2]]],
      ["remove", [ids[0]]],
    ]);
    expect(events[0]).toMatchObject({ operation: "add", flag: "read", all: false });
    expect(events[2].message_details).toEqual({
      [ids[0]]: { type: "stream", stream_id: server.general.id, topic: "flags", unmuted_stream_msg: true },
    });
    // The DM was never read; removing read from it changed nothing.
    await flag(member, [dm], "add", "read");
    await flag(member, [dm], "remove", "read");
    const last = (await eventsOf(member, queue.body.queue_id)).at(-1);
    expect(last.message_details).toEqual({
      [dm]: { type: "private", user_ids: [server.users.other.id], mentioned: true },
    });
  });

  it("stars and unstars; only the user's own row changes", async () => {
    const { member, owner } = server.users;
    await flag(member, [ids[1]], "add", "starred");
    expect(await flagsOf(member, ids[1])).toContain("starred");
    expect(await flagsOf(owner, ids[1])).not.toContain("starred");
    const starred = await server.as(member).get("/messages", {
      narrow: [["is", "starred"]],
      anchor: "newest",
      num_before: 10,
      num_after: 0,
    });
    expect(starred.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[1]]);
    await flag(member, [ids[1]], "remove", "starred");
    expect(await flagsOf(member, ids[1])).not.toContain("starred");
  });

  it("zulip-js adds and removes flags (multipart, the list as JSON)", async () => {
    const { other } = server.users;
    const client = await zulipJs(server, other);
    const added = await client.messages.flags.add({ messages: [ids[2]], flag: "starred" });
    expect(added).toEqual({ result: "success", msg: "", messages: [ids[2]] });
    expect(await flagsOf(other, ids[2])).toContain("starred");
    const removed = await client.messages.flags.remove({ messages: [ids[2]], flag: "starred" });
    expect(removed).toEqual({ result: "success", msg: "", messages: [ids[2]] });
    expect(await flagsOf(other, ids[2])).not.toContain("starred");
  });

  it("is:mentioned lists mentions by name and by wildcard", async () => {
    const { member, owner } = server.users;
    const send = async (content: string) =>
      (await server.as(owner).post("/messages", { type: "stream", to: "general", topic: "mentions", content })).body.id;
    const byName = await send("hello @**Mel Member**");
    const byWildcard = await send("hello @**all**");
    await send("hello nobody");
    const res = await server.as(member).get("/messages", {
      narrow: [
        ["channel", "general"],
        ["topic", "mentions"],
        ["is", "mentioned"],
      ],
      anchor: "newest",
      num_before: 10,
      num_after: 0,
    });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([byName, byWildcard]);
  });

  it("starring a message read through channel history gives the user a historical row", async () => {
    const { moderator } = server.users; // not subscribed to general
    expect(await flagsOf(moderator, ids[0])).toEqual(["read", "historical"]);
    // Read alone creates no row.
    await flag(moderator, [ids[0]], "add", "read");
    expect(
      await server.db("user_messages").where({ user_id: moderator.id, message_id: ids[0] }).first(),
    ).toBeUndefined();
    const res = await flag(moderator, [ids[0]], "add", "starred");
    expect(res.status).toBe(200);
    expect(await flagsOf(moderator, ids[0])).toEqual(["read", "starred", "historical"]);
  });

  it("rejects what the user cannot read, unknown and server-owned flags, bad operations, too many ids", async () => {
    const { guest, member } = server.users;
    const before = await server.db("user_messages").where({ user_id: guest.id }).count({ n: "*" }).first();
    const hidden = await flag(guest, [ids[0]], "add", "starred");
    expect(hidden.status).toBe(400);
    expect(hidden.body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg: "Invalid message(s)" });
    const after = await server.db("user_messages").where({ user_id: guest.id }).count({ n: "*" }).first();
    expect(Number(after?.n)).toBe(Number(before?.n));

    expect((await flag(member, [ids[0]], "add", "bogus")).body.msg).toBe("Invalid flag: 'bogus'");
    expect((await flag(member, [ids[0]], "add", "mentioned")).body.msg).toBe("Flag not editable: 'mentioned'");
    expect((await flag(member, [ids[0]], "toggle", "read")).body.msg).toBe("Invalid message flag operation: 'toggle'");
    const notAList = await flag(member, "nope", "add", "read");
    expect(notAList.status).toBe(400);
    const tooMany = await flag(
      member,
      Array.from({ length: MAX_FLAGGED_MESSAGES + 1 }, (_, i) => i + 1),
      "add",
      "read",
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toBe(`Too many messages: at most ${MAX_FLAGGED_MESSAGES} in one request`);
    const missing = await flag(member, [ids[0], 99_999_999], "add", "starred");
    expect(missing.body.msg).toBe("Invalid message(s)");
    expect(await flagsOf(member, ids[0])).not.toContain("starred"); // nothing half-done
  });
});

describe("POST /register: unread_msgs and starred_messages", () => {
  it("summarises the unread messages by conversation, mentions apart; flags change it", async () => {
    const { member, other, owner } = server.users;
    await server.db("user_messages").where({ user_id: member.id }).update({ flags: 1 });
    const send = async (from: TestUser, body: Record<string, unknown>) =>
      (await server.as(from).post("/messages", body)).body.id;
    const first = await send(owner, { type: "stream", to: "general", topic: "unreads", content: "one" });
    const second = await send(owner, {
      type: "stream",
      to: "general",
      topic: "unreads",
      content: "two @**Mel Member**",
    });
    const direct = await send(other, { type: "direct", to: [member.id], content: "psst" });
    const group = await send(other, { type: "direct", to: [member.id, owner.id], content: "all of us" });
    await flag(member, [first], "add", "starred");

    const state = async () =>
      (
        await server
          .as(member)
          .post("/register", { fetch_event_types: ["message", "update_message_flags", "starred_messages"] })
      ).body;
    const before = await state();
    expect(before.unread_msgs).toEqual({
      count: 4,
      streams: [{ stream_id: server.general.id, topic: "unreads", unread_message_ids: [first, second] }],
      pms: [{ other_user_id: other.id, sender_id: other.id, unread_message_ids: [direct] }],
      huddles: [
        {
          user_ids_string: [member.id, other.id, owner.id].sort((a, b) => a - b).join(","),
          unread_message_ids: [group],
        },
      ],
      mentions: [second],
      old_unreads_missing: false,
    });
    expect(before.starred_messages).toEqual([first]);

    await flag(member, [second, direct], "add", "read");
    const after = await state();
    expect(after.unread_msgs).toMatchObject({ count: 2, mentions: [], pms: [] });
    expect(after.unread_msgs.streams).toEqual([
      { stream_id: server.general.id, topic: "unreads", unread_message_ids: [first] },
    ]);
  });

  it("unread_msgs only with both message and update_message_flags", async () => {
    const { member } = server.users;
    const flagsOnly = await server.as(member).post("/register", { fetch_event_types: ["update_message_flags"] });
    expect(flagsOnly.status).toBe(200);
    expect(flagsOnly.body.unread_msgs).toBeUndefined();
    const all = await server.as(member).post("/register", {});
    expect(all.body.unread_msgs.count).toEqual(expect.any(Number));
  });
});
