// Channels and topics for one user: the topic list, topic visibility (mute/unmute/follow) with its
// events and effect on unread counts, personal subscription settings, and channel administration
// (PATCH / DELETE /streams/{id}, members), with permissions, other organizations and bad input.
import { withTransaction } from "../../src/db/transaction";
import { insertChannel } from "../../src/services/channels/channels";
import { createRealm } from "../../src/services/realms/realms";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;
let foreignStreamId: number;
let secretId: number;
beforeAll(async () => {
  server = await startTestServer();
  const { owner } = server.users;
  await server.as(owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "secret" }],
    invite_only: true,
    history_public_to_subscribers: false,
  });
  secretId = (await server.db("streams").where({ name: "secret" }).first()).id;
  const elsewhere = await createRealm(server.db, {
    subdomain: "elsewhere",
    name: "Elsewhere",
    owner: { email: "boss@elsewhere.example", fullName: "Boss" },
  });
  foreignStreamId = await withTransaction(server.db, async (trx) => {
    const stream = await insertChannel(trx, elsewhere.realm, elsewhere.owner, { name: "theirs" });
    return stream.id;
  });
});
afterAll(async () => {
  await server.close();
});

const send = async (topic: string, content = "hi", to = "general", user = server.users.owner) => {
  const res = await server.as(user).post("/messages", { type: "stream", to, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
};

async function queueOf(user: TestUser, eventTypes?: string[]) {
  const res = await server.as(user).post("/register", eventTypes ? { event_types: eventTypes } : {});
  return res.body.queue_id as string;
}

async function eventsOf(user: TestUser, queueId: string) {
  const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  return (res.body.events as any[]).filter((e) => e.type !== "heartbeat");
}

describe("GET /users/me/{stream_id}/topics", () => {
  it("lists the channel's topics newest first with their latest message id, case variants as one", async () => {
    const a = await send("Alpha");
    const b = await send("beta");
    const a2 = await send("alpha");
    const res = await server.as(server.users.member).get(`/users/me/${server.general.id}/topics`);
    expect(res.status).toBe(200);
    const topics = res.body.topics.filter((t: any) => ["alpha", "beta"].includes(t.name.toLowerCase()));
    expect(topics).toEqual([
      { name: "alpha", max_id: a2 },
      { name: "beta", max_id: b },
    ]);
    expect(a).toBeLessThan(a2);
  });

  it("refuses channels the user cannot see, and other organizations' channels", async () => {
    for (const id of [secretId, foreignStreamId, 999999]) {
      const res = await server.as(server.users.member).get(`/users/me/${id}/topics`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: "error", msg: "Invalid channel ID" });
    }
  });

  it("without shared history, a new subscriber sees only the topics of messages they received", async () => {
    const { owner, admin } = server.users;
    await send("before", "x", "secret");
    await server
      .as(owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "secret" }], principals: [admin.id] });
    const after = await send("after", "y", "secret");
    const res = await server.as(admin).get(`/users/me/${secretId}/topics`);
    expect(res.body.topics).toEqual([{ name: "after", max_id: after }]);
    const own = await server.as(owner).get(`/users/me/${secretId}/topics`);
    expect(own.body.topics.map((t: any) => t.name)).toEqual(["after", "before"]);
  });
});

describe("POST /user_topics", () => {
  it("mutes a topic: user_topic event, legacy muted_topics only to queues that did not ask for user_topic, register state", async () => {
    const { member } = server.users;
    const modern = await queueOf(member, ["user_topic", "muted_topics"]);
    const legacy = await queueOf(member, ["muted_topics"]);
    const res = await server.as(member).post("/user_topics", {
      stream_id: server.general.id,
      topic: "Noisy",
      visibility_policy: 1,
    });
    expect(res.status).toBe(200);
    const [event] = await eventsOf(member, modern);
    expect(event).toMatchObject({
      type: "user_topic",
      stream_id: server.general.id,
      topic_name: "Noisy",
      visibility_policy: 1,
      last_updated: expect.any(Number),
    });
    expect((await eventsOf(member, modern)).map((e) => e.type)).toEqual(["user_topic"]);
    const legacyEvents = await eventsOf(member, legacy);
    expect(legacyEvents).toEqual([
      expect.objectContaining({ type: "muted_topics", muted_topics: [["general", "Noisy", event.last_updated]] }),
    ]);
    const state = await server.as(member).post("/register", { fetch_event_types: ["muted_topics", "user_topic"] });
    expect(state.body.muted_topics).toEqual([["general", "Noisy", event.last_updated]]);
    expect(state.body.user_topics).toEqual([
      { stream_id: server.general.id, topic_name: "Noisy", last_updated: event.last_updated, visibility_policy: 1 },
    ]);
  });

  it("muted topics are left out of the unread count (the lists keep them); unmuting counts them again", async () => {
    const { member } = server.users;
    const unreadCount = async () =>
      (await server.as(member).post("/register", { fetch_event_types: ["message", "update_message_flags"] })).body
        .unread_msgs;
    const before = (await unreadCount()).count;
    const inMuted = await send("noisy"); // "Noisy" muted above: topics compare case-insensitively
    await send("quiet");
    const during = await unreadCount();
    expect(during.count).toBe(before + 1);
    expect(during.streams.flatMap((s: any) => s.unread_message_ids)).toContain(inMuted);
    await server
      .as(member)
      .post("/user_topics", { stream_id: server.general.id, topic: "Noisy", visibility_policy: 0 });
    expect((await unreadCount()).count).toBe(before + 2);
  });

  it("a muted channel's messages are left out unless the topic is unmuted or followed", async () => {
    const { member } = server.users;
    const unread = async () =>
      (await server.as(member).post("/register", { fetch_event_types: ["message", "update_message_flags"] })).body
        .unread_msgs.count;
    await server.as(member).post("/users/me/subscriptions/properties", {
      subscription_data: [{ stream_id: server.general.id, property: "is_muted", value: true }],
    });
    const base = await unread();
    await send("muted channel");
    await send("followed one");
    expect(await unread()).toBe(base);
    await server.as(member).post("/user_topics", {
      stream_id: server.general.id,
      topic: "followed one",
      visibility_policy: 3,
    });
    expect(await unread()).toBe(base + 1);
    await server.as(member).post("/users/me/subscriptions/properties", {
      subscription_data: [{ stream_id: server.general.id, property: "is_muted", value: false }],
    });
  });

  it("bad input and inaccessible channels are 4xx and write nothing", async () => {
    const { member } = server.users;
    const count = async () => Number((await server.db("user_topics").count({ n: "*" }).first())!.n);
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ stream_id: server.general.id, topic: "t", visibility_policy: 7 }, "Invalid visibility_policy"],
      [
        { stream_id: server.general.id, topic: "x".repeat(61), visibility_policy: 1 },
        "topic is too long (limit: 60 characters)",
      ],
      [{ stream_id: secretId, topic: "t", visibility_policy: 1 }, "Invalid channel ID"],
      [{ stream_id: foreignStreamId, topic: "t", visibility_policy: 1 }, "Invalid channel ID"],
      [{ stream_id: server.general.id, visibility_policy: 1 }, "Missing 'topic' argument"],
    ];
    for (const [params, msg] of cases) {
      const res = await server.as(member).post("/user_topics", params);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    expect(await count()).toBe(before);
  });

  it("the legacy PATCH /users/me/subscriptions/muted_topics adds and removes a mute", async () => {
    const { other } = server.users;
    await server
      .as(other)
      .patch("/users/me/subscriptions/muted_topics", { stream: "general", topic: "old", op: "add" });
    let state = await server.as(other).post("/register", { fetch_event_types: ["muted_topics"] });
    expect(state.body.muted_topics.map((m: any) => m.slice(0, 2))).toEqual([["general", "old"]]);
    await server
      .as(other)
      .patch("/users/me/subscriptions/muted_topics", { stream_id: server.general.id, topic: "old", op: "remove" });
    state = await server.as(other).post("/register", { fetch_event_types: ["muted_topics"] });
    expect(state.body.muted_topics).toEqual([]);
  });
});

describe("POST /users/me/subscriptions/properties", () => {
  it("sets colour, pin and mute with subscription update events (is_muted and in_home_view both)", async () => {
    const { admin } = server.users;
    const queue = await queueOf(admin, ["subscription"]);
    const res = await server.as(admin).post("/users/me/subscriptions/properties", {
      subscription_data: [
        { stream_id: server.general.id, property: "color", value: "#abcdef" },
        { stream_id: server.general.id, property: "pin_to_top", value: true },
        { stream_id: server.general.id, property: "in_home_view", value: false },
        { stream_id: server.general.id, property: "desktop_notifications", value: true },
      ],
    });
    expect(res.status).toBe(200);
    const events = (await eventsOf(admin, queue)).map(({ property, value, op, stream_id }) => ({
      op,
      stream_id,
      property,
      value,
    }));
    const s = server.general.id;
    expect(events).toEqual([
      { op: "update", stream_id: s, property: "color", value: "#abcdef" },
      { op: "update", stream_id: s, property: "pin_to_top", value: true },
      { op: "update", stream_id: s, property: "is_muted", value: true },
      { op: "update", stream_id: s, property: "in_home_view", value: false },
      { op: "update", stream_id: s, property: "desktop_notifications", value: true },
    ]);
    const subs = (await server.as(admin).get("/users/me/subscriptions")).body.subscriptions;
    expect(subs.find((x: any) => x.stream_id === s)).toMatchObject({
      color: "#abcdef",
      pin_to_top: true,
      is_muted: true,
      in_home_view: false,
      desktop_notifications: true,
    });
    // The single-channel form (value as the Python client sends it: JSON-encoded).
    await server.as(admin).post(`/users/me/subscriptions/${s}`, { property: "is_muted", value: "false" });
    const again = (await server.as(admin).get("/users/me/subscriptions")).body.subscriptions;
    expect(again.find((x: any) => x.stream_id === s).is_muted).toBe(false);
  });

  it("one bad change refuses the whole request (nothing written)", async () => {
    const { other } = server.users;
    const s = server.general.id;
    const colour = async () =>
      (await server.db("subscriptions").where({ user_id: other.id, stream_id: s }).first()).color;
    const before = await colour();
    const cases: [unknown[], string][] = [
      [
        [
          { stream_id: s, property: "color", value: "#000" },
          { stream_id: s, property: "color", value: "red" },
        ],
        "color is not a valid hex color code",
      ],
      [
        [
          { stream_id: s, property: "color", value: "#000" },
          { stream_id: s, property: "bogus", value: true },
        ],
        "Unknown subscription property: bogus",
      ],
      [
        [
          { stream_id: s, property: "color", value: "#000" },
          { stream_id: secretId, property: "pin_to_top", value: true },
        ],
        `Not subscribed to channel ID ${secretId}`,
      ],
      [
        [
          { stream_id: s, property: "color", value: "#000" },
          { stream_id: foreignStreamId, property: "pin_to_top", value: true },
        ],
        "Invalid channel ID",
      ],
      [[{ stream_id: s, property: "pin_to_top", value: "maybe" }], "pin_to_top is not a boolean"],
    ];
    for (const [data, msg] of cases) {
      const res = await server.as(other).post("/users/me/subscriptions/properties", { subscription_data: data });
      expect([res.status, res.body.msg]).toEqual([400, msg]);
    }
    expect(await colour()).toBe(before);
  });
});

describe("PATCH / DELETE /streams/{stream_id}, GET /streams/{stream_id}/members", () => {
  let channelId: number;
  beforeAll(async () => {
    const { owner, member } = server.users;
    await server
      .as(owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "projects" }], principals: [owner.id, member.id] });
    channelId = (await server.db("streams").where({ name: "projects" }).first()).id;
  });

  it("renames and redescribes with stream update events and Notification Bot notices in 'channel events'", async () => {
    const { owner, member } = server.users;
    const queue = await queueOf(member, ["stream", "message"]);
    const res = await server
      .as(owner)
      .patch(`/streams/${channelId}`, { new_name: "Projects 2", description: "All **our** work" });
    expect(res.status).toBe(200);
    const events = await eventsOf(member, queue);
    const updates = events.filter((e) => e.type === "stream");
    expect(updates).toEqual([
      expect.objectContaining({
        op: "update",
        stream_id: channelId,
        property: "name",
        value: "Projects 2",
        name: "projects",
      }),
      expect.objectContaining({
        op: "update",
        property: "description",
        value: "All **our** work",
        rendered_description: "<p>All <strong>our</strong> work</p>",
      }),
    ]);
    const notices = events.filter((e) => e.type === "message").map((e) => e.message);
    expect(notices.map((m) => m.subject)).toEqual(["channel events", "channel events"]);
    expect(notices[0].content).toBe(
      `@_**${owner.full_name}|${owner.id}** renamed channel **projects** to **Projects 2**.`,
    );
    expect((await server.as(member).get(`/streams/${channelId}`)).body.stream).toMatchObject({
      name: "Projects 2",
      description: "All **our** work",
    });
  });

  it("makes the channel private (invite_only update with the history settings) and back", async () => {
    const { owner, member } = server.users;
    const queue = await queueOf(member, ["stream"]);
    expect((await server.as(owner).patch(`/streams/${channelId}`, { is_private: true })).status).toBe(200);
    expect(await eventsOf(member, queue)).toEqual([
      expect.objectContaining({
        op: "update",
        property: "invite_only",
        value: true,
        history_public_to_subscribers: true,
        is_web_public: false,
      }),
    ]);
    expect((await server.as(owner).patch(`/streams/${channelId}`, { is_private: false })).status).toBe(200);
  });

  it("only administrators of the organization or the channel may change it; bad values write nothing", async () => {
    const { member, owner } = server.users;
    const denied = await server.as(member).patch(`/streams/${channelId}`, { new_name: "mine" });
    expect(denied.status).toBe(400);
    expect(denied.body.msg).toBe("You do not have permission to administer this channel.");
    const foreign = await server.as(owner).patch(`/streams/${foreignStreamId}`, { new_name: "ours" });
    expect(foreign.body.msg).toBe("Invalid channel ID");
    const taken = await server
      .as(owner)
      .patch(`/streams/${channelId}`, { new_name: "General", description: "changed" });
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toBe("Channel name 'General' is already taken.");
    const tooLong = await server.as(owner).patch(`/streams/${channelId}`, { new_name: "x".repeat(61) });
    expect(tooLong.body.msg).toBe("Channel name too long (limit: 60 characters).");
    const publicUnshared = await server
      .as(owner)
      .patch(`/streams/${channelId}`, { history_public_to_subscribers: false, description: "changed" });
    expect(publicUnshared.status).toBe(400);
    const row = await server.db("streams").where({ id: channelId }).first();
    expect(row).toMatchObject({ name: "Projects 2", description: "All **our** work" });
  });

  it("lists members to those who can see the channel", async () => {
    const { member, owner, guest } = server.users;
    const res = await server.as(member).get(`/streams/${channelId}/members`);
    expect(res.body.subscribers).toEqual([owner.id, member.id].sort((a, b) => a - b));
    expect((await server.as(guest).get(`/streams/${channelId}/members`)).body.msg).toBe("Invalid channel ID");
    expect((await server.as(owner).get(`/streams/${foreignStreamId}/members`)).status).toBe(400);
  });

  it("DELETE archives: stream delete event (is_archived update with archived_channels), no more posting", async () => {
    const { member, owner } = server.users;
    expect((await server.as(member).delete(`/streams/${channelId}`)).status).toBe(400);
    const legacy = await queueOf(member, ["stream"]);
    const modern = await server.as(member).post("/register", {
      event_types: ["stream"],
      client_capabilities: { archived_channels: true },
    });
    expect((await server.as(owner).delete(`/streams/${channelId}`)).status).toBe(200);
    expect(await eventsOf(member, legacy)).toEqual([
      expect.objectContaining({
        op: "delete",
        stream_ids: [channelId],
        streams: [expect.objectContaining({ stream_id: channelId })],
      }),
    ]);
    expect(await eventsOf(member, modern.body.queue_id)).toEqual([
      expect.objectContaining({ op: "update", property: "is_archived", value: true, stream_id: channelId }),
    ]);
    const post = await server.as(owner).post("/messages", { type: "stream", to: channelId, topic: "t", content: "x" });
    expect(post.status).toBe(400);
    expect((await server.as(owner).delete(`/streams/${channelId}`)).body.msg).toBe("Channel is already deactivated");
  });
});
