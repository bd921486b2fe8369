// Marking read in bulk (mark_all_as_read, mark_stream_as_read, mark_topic_as_read), flags over a
// narrow's range (POST /messages/flags/narrow), and the first-unread anchor of GET /messages; the
// update_message_flags events and the unread counts of /register stay right.
import { LARGER_THAN_MAX_MESSAGE_ID } from "../../src/services/messages/queries";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
  const { owner, member } = server.users;
  await server.as(owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "second" }],
    principals: [owner.id, member.id],
  });
});
afterEach(async () => {
  await server.close();
});

async function send(to: string, topic: string, content = "hi"): Promise<number> {
  const res = await server.as(server.users.owner).post("/messages", { type: "stream", to, topic, content });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function unreadIds(user: TestUser): Promise<number[]> {
  const res = await server.as(user).post("/register", { fetch_event_types: ["message", "update_message_flags"] });
  const { streams } = res.body.unread_msgs as { streams: { unread_message_ids: number[] }[] };
  return streams.flatMap((s) => s.unread_message_ids).sort((a, b) => a - b);
}

async function flagEvents(user: TestUser, queueId: string) {
  const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  return res.body.events.filter((e: { type: string }) => e.type === "update_message_flags");
}

async function queue(user: TestUser) {
  return (await server.as(user).post("/register", { event_types: ["update_message_flags"] })).body.queue_id;
}

it("mark_all_as_read: everything read, one event with all: true", async () => {
  const { member } = server.users;
  await send("general", "a");
  await send("second", "b");
  expect(await unreadIds(member)).toHaveLength(2);
  const q = await queue(member);
  const res = await server.as(member).post("/mark_all_as_read");
  expect(res.body).toEqual({ result: "success", msg: "", complete: true });
  expect(await unreadIds(member)).toEqual([]);
  expect(await flagEvents(member, q)).toEqual([
    expect.objectContaining({ op: "add", operation: "add", flag: "read", messages: [], all: true }),
  ]);
  // Nothing left: no event.
  await server.as(member).post("/mark_all_as_read");
  expect(await flagEvents(member, q)).toHaveLength(1);
});

it("mark_stream_as_read and mark_topic_as_read touch only their messages", async () => {
  const { member, other } = server.users;
  const a1 = await send("general", "a");
  const b1 = await send("general", "b");
  const s1 = await send("second", "c");
  const q = await queue(member);
  const topic = await server.as(member).post("/mark_topic_as_read", { stream_id: server.general.id, topic_name: "A" });
  expect(topic.body).toEqual({ result: "success", msg: "" });
  expect(await unreadIds(member)).toEqual([b1, s1]);
  expect((await server.as(member).post("/mark_stream_as_read", { stream_id: server.general.id })).status).toBe(200);
  expect(await unreadIds(member)).toEqual([s1]);
  expect((await flagEvents(member, q)).map((e: { messages: number[]; all: boolean }) => [e.messages, e.all])).toEqual([
    [[a1], false],
    [[b1], false],
  ]);
  // Others' unread messages are theirs.
  expect(await unreadIds(other)).toEqual([a1, b1]);

  const badTopic = await server
    .as(member)
    .post("/mark_topic_as_read", { stream_id: server.general.id, topic_name: "zz" });
  expect(badTopic.status).toBe(400);
  expect(badTopic.body.msg).toBe("No such topic 'zz'");
  const badStream = await server.as(member).post("/mark_stream_as_read", { stream_id: 987654 });
  expect(badStream.body.msg).toBe("Invalid channel ID");
  // A private channel one is not in is not found either.
  await server.as(server.users.owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "closed" }],
    invite_only: true,
  });
  const closed = (await server.db("streams").where({ name: "closed" }).first()).id;
  expect((await server.as(member).post("/mark_stream_as_read", { stream_id: closed })).body.msg).toBe(
    "Invalid channel ID",
  );
  expect((await server.as(member).post("/mark_stream_as_read", {})).body.code).toBe("REQUEST_VARIABLE_MISSING");
  expect(await unreadIds(member)).toEqual([s1]);
});

describe("POST /messages/flags/narrow", () => {
  it("updates a range of a narrow and says how far it got", async () => {
    const { member } = server.users;
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await send("general", "range"));
    await send("second", "elsewhere");
    const q = await queue(member);
    const res = await server.as(member).post("/messages/flags/narrow", {
      anchor: "oldest",
      num_before: 0,
      num_after: 2,
      narrow: JSON.stringify([{ operator: "channel", operand: "general" }]),
      op: "add",
      flag: "read",
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      processed_count: 2,
      updated_count: 2,
      first_processed_id: ids[0],
      last_processed_id: ids[1],
      found_oldest: true,
      found_newest: false,
    });
    // The next page starts after the last processed id; an already read message is processed, not updated.
    const next = await server.as(member).post("/messages/flags/narrow", {
      anchor: String(ids[1]),
      include_anchor: true,
      num_before: 0,
      num_after: 10,
      narrow: JSON.stringify([["channel", "general"]]),
      op: "add",
      flag: "read",
    });
    expect(next.body).toMatchObject({
      processed_count: 4,
      updated_count: 3,
      first_processed_id: ids[1],
      last_processed_id: ids[4],
      found_newest: true,
    });
    expect((await unreadIds(member)).length).toBe(1);
    expect((await flagEvents(member, q)).map((e: { messages: number[] }) => e.messages)).toEqual([
      [ids[0], ids[1]],
      [ids[2], ids[3], ids[4]],
    ]);

    // Starring the newest two; removing read reports the channels it would skip.
    const star = await server.as(member).post("/messages/flags/narrow", {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: "[]",
      op: "add",
      flag: "starred",
    });
    expect(star.body).toMatchObject({ processed_count: 1, updated_count: 1, found_newest: true });
    const unread = await server.as(member).post("/messages/flags/narrow", {
      anchor: "first_unread",
      num_before: 0,
      num_after: 0,
      narrow: "[]",
      op: "remove",
      flag: "read",
    });
    expect(unread.body).toMatchObject({ ignored_because_not_subscribed_channels: [] });
  });

  it("refuses bad flags, ops and narrows, changing nothing", async () => {
    const { member } = server.users;
    await send("general", "x");
    const before = await server.db("user_messages").orderBy(["user_id", "message_id"]).select();
    const base = { anchor: "newest", num_before: 10, num_after: 0, narrow: "[]", op: "add", flag: "read" };
    const cases: [Record<string, unknown>, string][] = [
      [{ flag: "mentioned" }, "Flag not editable: 'mentioned'"],
      [{ flag: "bogus" }, "Invalid flag: 'bogus'"],
      [{ op: "toggle" }, ""],
      [{ narrow: "[[" }, ""],
      [{ anchor: "sideways" }, "Invalid anchor"],
      [{ num_before: -1 }, ""],
    ];
    for (const [change, msg] of cases) {
      const res = await server.as(member).post("/messages/flags/narrow", { ...base, ...change });
      expect(res.status).toBe(400);
      if (msg) expect(res.body.msg).toBe(msg);
    }
    expect(await server.db("user_messages").orderBy(["user_id", "message_id"]).select()).toEqual(before);
  });
});

describe("GET /messages with the first unread anchor", () => {
  it("answers the reference's sentinel when nothing is unread, and the first unread otherwise", async () => {
    const { member } = server.users;
    const ids = [await send("general", "t"), await send("general", "t"), await send("general", "t")];
    await server.as(member).post("/messages/flags", { messages: JSON.stringify([ids[0]]), op: "add", flag: "read" });
    const params = { num_before: 1, num_after: 1, use_first_unread_anchor: true };
    const first = await server.as(member).get("/messages", params);
    expect(first.body).toMatchObject({ anchor: ids[1], found_anchor: true });
    expect(first.body.messages.map((m: { id: number }) => m.id)).toEqual(ids);
    await server.as(member).post("/mark_all_as_read");
    const none = await server.as(member).get("/messages", params);
    expect(none.body).toMatchObject({ anchor: LARGER_THAN_MAX_MESSAGE_ID, found_newest: true, found_anchor: false });
    expect(none.body.anchor).toBe(10000000000000000);
    expect(none.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[2]]);
    const named = await server.as(member).get("/messages", { anchor: "first_unread", num_before: 0, num_after: 5 });
    expect(named.body.anchor).toBe(10000000000000000);
  });
});
