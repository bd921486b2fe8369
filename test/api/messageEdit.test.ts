// PATCH /messages/{id}: content edits (re-rendered, mention flags recomputed), topic edits and moves
// between channels with propagate_mode, the organization's policies and time limits, the
// update_message event, Notification Bot notices, the edit history; bad input changes nothing.
import { nowSeconds } from "../../src/db/rows";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
let topicCounter = 0;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const freshTopic = () => `topic ${++topicCounter}`;

async function send(user: TestUser, topic: string, content: string, to = "general"): Promise<number> {
  const res = await server.as(user).post("/messages", { type: "stream", to, topic, content });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function register(user: TestUser, capabilities: Record<string, boolean> = {}): Promise<string> {
  const res = await server.as(user).post("/register", {
    event_types: ["update_message", "message", "delete_message"],
    client_capabilities: capabilities,
  });
  return res.body.queue_id;
}

async function events(user: TestUser, queueId: string, type?: string): Promise<Record<string, any>[]> {
  const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  return res.body.events.filter((e: { type: string }) => (type ? e.type === type : e.type !== "heartbeat"));
}

async function message(user: TestUser, id: number) {
  return (await server.as(user).get(`/messages/${id}`, { apply_markdown: true })).body;
}

async function setRealm(fields: Record<string, unknown>) {
  await server.db("realms").where({ id: server.realm.id }).update(fields);
}

async function systemGroup(name: string): Promise<number> {
  return (await server.db("user_groups").where({ realm_id: server.realm.id, name }).first("id")).id;
}

/** Rows of the tables an edit writes, to compare before and after a refused one. */
async function snapshot() {
  return {
    messages: await server.db("messages").orderBy("id").select("id", "content", "topic", "stream_id", "last_edit_time"),
    edits: await server.db("message_edits").count({ n: "*" }),
    rows: await server.db("user_messages").orderBy(["user_id", "message_id"]).select(),
  };
}

describe("content edits", () => {
  it("re-renders, recomputes mention flags and tells every recipient", async () => {
    const { member, other, owner } = server.users;
    const topic = freshTopic();
    const id = await send(member, topic, "hello **there**");
    const queue = await register(other);
    const res = await server.as(member).patch(`/messages/${id}`, { content: "hi @**Otto Other**" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", detached_uploads: [] });

    const [event] = await events(other, queue, "update_message");
    expect(event).toMatchObject({
      user_id: member.id,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      stream_id: server.general.id,
      stream_name: "general",
      orig_content: "hello **there**",
      orig_rendered_content: "<p>hello <strong>there</strong></p>",
      content: "hi @**Otto Other**",
      is_me_message: false,
      flags: ["mentioned"],
      edit_timestamp: expect.any(Number),
    });
    expect(event.rendered_content).toContain('class="user-mention"');
    // A content edit moves nothing.
    expect(event).not.toHaveProperty("propagate_mode");
    expect(event).not.toHaveProperty("subject");

    expect((await message(other, id)).message.flags).toContain("mentioned");
    expect((await message(owner, id)).message.flags).not.toContain("mentioned");
    // The mention removed again: the flag goes too.
    await server.as(member).patch(`/messages/${id}`, { content: "hi nobody" });
    const read = await message(other, id);
    expect(read.message.flags).not.toContain("mentioned");
    expect(read.raw_content).toBe("hi nobody");
    expect(read.message.last_edit_timestamp).toEqual(expect.any(Number));
    expect(read.message).not.toHaveProperty("last_moved_timestamp");
    expect(read.message.edit_history).toEqual([
      expect.objectContaining({ user_id: member.id, prev_content: "hi @**Otto Other**" }),
      expect.objectContaining({ user_id: member.id, prev_content: "hello **there**" }),
    ]);
  });

  it("keeps the history: GET /messages/{id}/history, and no edit_history when the realm hides it", async () => {
    const { member } = server.users;
    const topic = freshTopic();
    const id = await send(member, topic, "first");
    await server.as(member).patch(`/messages/${id}`, { content: "second" });
    await server.as(member).patch(`/messages/${id}`, { topic: `${topic} renamed` });
    const res = await server.as(member).get(`/messages/${id}/history`);
    expect(res.status).toBe(200);
    const history = res.body.message_history;
    expect(history).toHaveLength(3);
    expect(history[0]).toEqual({
      topic,
      content: "first",
      rendered_content: "<p>first</p>",
      timestamp: expect.any(Number),
      user_id: member.id,
    });
    expect(history[1]).toMatchObject({
      topic,
      content: "second",
      prev_content: "first",
      prev_rendered_content: "<p>first</p>",
      rendered_content: "<p>second</p>",
      user_id: member.id,
    });
    expect(history[1].content_html_diff).toContain("highlight_text_inserted");
    expect(history[2]).toMatchObject({ topic: `${topic} renamed`, prev_topic: topic, content: "second" });
    expect(history[2]).not.toHaveProperty("prev_content");

    await setRealm({ message_edit_history_visibility_policy: "none" });
    try {
      const refused = await server.as(member).get(`/messages/${id}/history`);
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe("Message edit history is disabled in this organization");
      expect((await message(member, id)).message).not.toHaveProperty("edit_history");
      const state = await server.as(member).post("/register", { fetch_event_types: ["realm"] });
      expect(state.body).toMatchObject({
        realm_allow_edit_history: false,
        realm_message_edit_history_visibility_policy: "none",
      });
    } finally {
      await setRealm({ message_edit_history_visibility_policy: "all" });
    }
  });

  it("refuses others' messages, a realm without editing and the time limit, writing nothing", async () => {
    const { member, other, admin } = server.users;
    const id = await send(member, freshTopic(), "mine");
    const before = await snapshot();
    const denied = await server.as(other).patch(`/messages/${id}`, { content: "theirs" });
    expect(denied.status).toBe(400);
    expect(denied.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "You don't have permission to edit this message",
    });
    // Administrators may not rewrite someone's words either.
    expect((await server.as(admin).patch(`/messages/${id}`, { content: "x" })).body.msg).toBe(
      "You don't have permission to edit this message",
    );

    await setRealm({ allow_message_editing: false });
    try {
      const off = await server.as(member).patch(`/messages/${id}`, { content: "changed" });
      expect(off.body.msg).toBe("Your organization has turned off message editing");
    } finally {
      await setRealm({ allow_message_editing: true });
    }

    await server
      .db("messages")
      .where({ id })
      .update({ date_sent: nowSeconds() - 600 - 21 });
    const late = await server.as(member).patch(`/messages/${id}`, { content: "too late" });
    expect(late.status).toBe(400);
    expect(late.body.msg).toBe("The time limit for editing this message has past");
    // Within the limit plus its buffer: allowed.
    await server
      .db("messages")
      .where({ id })
      .update({ date_sent: nowSeconds() - 600 - 5 });
    const after = await snapshot();
    expect({ ...after, messages: after.messages.filter((m) => m.id !== id) }).toEqual({
      ...before,
      messages: before.messages.filter((m) => m.id !== id),
    });
    expect((await server.as(member).patch(`/messages/${id}`, { content: "just in time" })).status).toBe(200);
    await setRealm({ message_content_edit_limit_seconds: null });
    try {
      await server.db("messages").where({ id }).update({ date_sent: 1 });
      expect((await server.as(member).patch(`/messages/${id}`, { content: "no limit" })).status).toBe(200);
    } finally {
      await setRealm({ message_content_edit_limit_seconds: 600 });
    }
  });

  it("answers bad input with a 4xx and writes nothing", async () => {
    const { member, other } = server.users;
    const id = await send(member, freshTopic(), "stay");
    const dm = (await server.as(member).post("/messages", { type: "direct", to: [other.id], content: "dm" })).body.id;
    const before = await snapshot();
    const cases: [number, Record<string, unknown>, string][] = [
      [id, {}, "Nothing to change"],
      [dm, { topic: "x" }, "Direct messages cannot have topics."],
      [dm, { stream_id: server.general.id }, "Direct messages cannot be moved to channels."],
      [id, { content: "y", propagate_mode: "change_all" }, "Invalid propagate_mode without topic edit"],
      [id, { topic: "x", propagate_mode: "sideways" }, ""],
      [999999, { content: "y" }, "Invalid message(s)"],
    ];
    for (const [target, params, msg] of cases) {
      const res = await server.as(member).patch(`/messages/${target}`, params);
      expect(res.status).toBe(400);
      if (msg) expect(res.body.msg).toBe(msg);
    }
    const missing = await server.as(member).patch(`/messages/${id}`, { stream_id: 424242 });
    expect(missing.body.code).toBe("STREAM_DOES_NOT_EXIST");
    // Another channel and new content at once.
    const both = await server.as(member).patch(`/messages/${id}`, { content: "z", stream_id: 424242 });
    expect(both.body.msg).toBe("Cannot change message content while changing channel");
    expect(await snapshot()).toEqual(before);
  });

  it("works through zulip-js (messages.update, getHistoryById)", async () => {
    const { member } = server.users;
    const id = await send(member, freshTopic(), "from js");
    const client = await zulipJs(server, member);
    expect(await client.messages.update({ message_id: id, content: "edited from js" })).toMatchObject({
      result: "success",
    });
    const history = await client.messages.getHistoryById({ message_id: id });
    expect(history.message_history.map((s: { content: string }) => s.content)).toEqual(["from js", "edited from js"]);
  });
});

describe("topic edits and moves", () => {
  it("renames one, later or all messages of a topic, with notices in both places", async () => {
    const { member, other } = server.users;
    const topic = freshTopic();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await send(member, topic, `m${i}`));
    const queue = await register(other);

    const one = await server.as(member).patch(`/messages/${ids[0]}`, {
      topic: "one moved",
      propagate_mode: "change_one",
      send_notification_to_old_thread: true,
      send_notification_to_new_thread: true,
    });
    expect(one.status).toBe(200);
    const later = await server.as(member).patch(`/messages/${ids[2]}`, {
      topic: "later moved",
      propagate_mode: "change_later",
      send_notification_to_new_thread: false,
    });
    expect(later.status).toBe(200);
    const updates = await events(other, queue, "update_message");
    expect(updates[0]).toMatchObject({
      message_id: ids[0],
      message_ids: [ids[0]],
      propagate_mode: "change_one",
      orig_subject: topic,
      subject: "one moved",
      topic_links: [],
      stream_id: server.general.id,
    });
    expect(updates[0]).not.toHaveProperty("new_stream_id");
    expect(updates[0]).not.toHaveProperty("orig_content");
    const noticeEvents = await events(other, queue, "message");
    // The notice left in the old topic is after ids[2] there, so change_later takes it along.
    expect(updates[1]).toMatchObject({
      message_ids: [ids[2], ids[3], noticeEvents[0].message.id],
      subject: "later moved",
    });
    const notices = noticeEvents.map((e) => [e.message.subject, e.message.content]);
    const by = `@_**${member.full_name}|${member.id}**`;
    expect(notices).toEqual([
      [topic, expect.stringContaining(`A message was moved from this topic to`)],
      ["one moved", expect.stringContaining(`was moved here from`)],
    ]);
    expect(notices[0][1]).toContain(by);

    const read = await message(other, ids[3]);
    expect(read.message.subject).toBe("later moved");
    expect(read.message.last_moved_timestamp).toEqual(expect.any(Number));
    expect(read.message.edit_history).toEqual([
      { user_id: member.id, timestamp: expect.any(Number), prev_topic: topic, topic: "later moved" },
    ]);

    // change_all takes the rest of the topic; everything moved: "This topic was moved".
    const all = await server.as(member).patch(`/messages/${ids[1]}`, {
      topic: "all moved",
      propagate_mode: "change_all",
      send_notification_to_old_thread: true,
    });
    expect(all.status).toBe(200);
    const last = await events(other, queue, "message");
    expect(last.slice(-2).map((e) => e.message.content)).toEqual([
      `This topic was moved to #**general>all moved** by ${by}.`,
      `This topic was moved here from #**general>${topic}** by ${by}.`,
    ]);
  });

  it("resolving a topic is not a move: its own notice, no last_moved_timestamp", async () => {
    const { member, other } = server.users;
    const topic = freshTopic();
    const id = await send(member, topic, "solve me");
    const queue = await register(other);
    const res = await server.as(member).patch(`/messages/${id}`, { topic: `✔ ${topic}`, propagate_mode: "change_all" });
    expect(res.status).toBe(200);
    const notices = await events(other, queue, "message");
    expect(notices.map((e) => e.message.content)).toEqual([
      `@_**${member.full_name}|${member.id}** has marked this topic as resolved.`,
    ]);
    expect((await message(other, id)).message).not.toHaveProperty("last_moved_timestamp");
  });

  it("follows the organization's topic policy", async () => {
    const { member, moderator } = server.users;
    const id = await send(member, freshTopic(), "policy");
    await setRealm({ can_move_messages_between_topics_group: await systemGroup("role:moderators") });
    try {
      const before = await snapshot();
      const res = await server.as(member).patch(`/messages/${id}`, { topic: "nope" });
      expect(res.body).toMatchObject({ code: "BAD_REQUEST", msg: "You don't have permission to edit this message" });
      expect(await snapshot()).toEqual(before);
      expect((await server.as(moderator).patch(`/messages/${id}`, { topic: "by a moderator" })).status).toBe(200);
    } finally {
      await setRealm({ can_move_messages_between_topics_group: await systemGroup("role:everyone") });
    }
  });

  it("time limits: change_all past the limit names what may move; moderators are exempt", async () => {
    const { member, moderator } = server.users;
    const topic = freshTopic();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await send(member, topic, `t${i}`));
    const old = nowSeconds() - 8 * 24 * 3600;
    await server.db("messages").whereIn("id", ids.slice(0, 2)).update({ date_sent: old });
    const before = await snapshot();
    const res = await server.as(member).patch(`/messages/${ids[2]}`, { topic: "moved", propagate_mode: "change_all" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
      msg: "You only have permission to move the 1/3 most recent messages in this topic.",
      first_message_id_allowed_to_move: ids[2],
      total_messages_allowed_to_move: 1,
      total_messages_in_topic: 3,
    });
    const single = await server.as(member).patch(`/messages/${ids[0]}`, { topic: "moved" });
    expect(single.body.msg).toBe("The time limit for editing this message's topic has passed");
    expect(await snapshot()).toEqual(before);
    const allowed = await server
      .as(member)
      .patch(`/messages/${ids[2]}`, { topic: "moved", propagate_mode: "change_later" });
    expect(allowed.status).toBe(200);
    const mod = await server
      .as(moderator)
      .patch(`/messages/${ids[0]}`, { topic: "moved", propagate_mode: "change_all" });
    expect(mod.status).toBe(200);
    const topics = await server.db("messages").whereIn("id", ids).pluck("topic");
    expect(topics).toEqual(["moved", "moved", "moved"]);
  });

  it("moves to another channel: rows follow, a private channel's outsiders get delete_message", async () => {
    const { member, other, owner, admin } = server.users;
    const created = await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "secret" }],
      invite_only: true,
      principals: [owner.id, member.id],
    });
    expect(created.status).toBe(200);
    const secret = await server.db("streams").where({ realm_id: server.realm.id, name: "secret" }).first();
    const topic = freshTopic();
    const id = await send(member, topic, "moving on");
    const bulk = await register(other, { bulk_message_deletion: true });
    const legacy = await register(other);
    const ownerQueue = await register(owner);
    const res = await server.as(member).patch(`/messages/${id}`, {
      stream_id: secret.id,
      send_notification_to_new_thread: false,
    });
    expect(res.status).toBe(200);
    const [update] = await events(owner, ownerQueue, "update_message");
    expect(update).toMatchObject({
      message_ids: [id],
      stream_id: server.general.id,
      new_stream_id: secret.id,
      orig_subject: topic,
      propagate_mode: "change_one",
    });
    expect(update).not.toHaveProperty("subject");
    // Otto is not in the private channel: the message is gone for him, in both event shapes.
    expect(await events(other, bulk, "delete_message")).toEqual([
      expect.objectContaining({
        message_type: "stream",
        stream_id: server.general.id,
        topic,
        message_ids: [id],
      }),
    ]);
    const [legacyEvent] = await events(other, legacy, "delete_message");
    expect(legacyEvent).toMatchObject({ message_id: id, message_type: "stream" });
    expect(legacyEvent).not.toHaveProperty("message_ids");
    expect(await events(other, bulk, "update_message")).toEqual([]);
    expect((await message(other, id)).msg).toBe("Invalid message(s)");
    expect((await message(owner, id)).message.display_recipient).toBe("secret");
    expect((await message(admin, id)).msg).toBe("Invalid message(s)");
  });

  it("moving between channels follows can_move_messages_between_channels_group", async () => {
    const { member, guest, owner } = server.users;
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "elsewhere" }],
      principals: [owner.id, member.id, guest.id],
    });
    const elsewhere = await server.db("streams").where({ realm_id: server.realm.id, name: "elsewhere" }).first();
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "general" }],
      principals: [guest.id],
    });
    const id = await send(guest, freshTopic(), "guest message");
    const before = await snapshot();
    const res = await server.as(guest).patch(`/messages/${id}`, { stream_id: elsewhere.id });
    expect(res.body.msg).toBe("You don't have permission to move this message");
    await setRealm({ can_move_messages_between_channels_group: await systemGroup("role:administrators") });
    try {
      const member2 = await server.as(member).patch(`/messages/${id}`, { stream_id: elsewhere.id });
      expect(member2.body.msg).toBe("You don't have permission to move this message");
      expect(await snapshot()).toEqual(before);
      expect((await server.as(owner).patch(`/messages/${id}`, { stream_id: elsewhere.id })).status).toBe(200);
    } finally {
      await setRealm({ can_move_messages_between_channels_group: await systemGroup("role:members") });
    }
  });
});
