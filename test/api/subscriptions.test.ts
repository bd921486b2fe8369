// POST / GET / DELETE /users/me/subscriptions: creation, options, results, bot messages, events.
import { createUser } from "../../src/services/users/users";
import { startTestServer, type TestServer } from "../support/harness";
import { expectError, snapshot } from "../support/subscriptionHelpers";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const stream = (name: string) => server.db("streams").where({ name_key: name.toLowerCase() }).first();
const activeSubscribers = async (streamId: number) =>
  (await server.db("subscriptions").where({ stream_id: streamId, active: true }).orderBy("user_id")).map(
    (r) => r.user_id,
  );
const botDmsTo = async (userId: number) =>
  server
    .db("messages as m")
    .join("user_messages as um", "um.message_id", "m.id")
    .where({ "m.sender_id": server.realm.notification_bot_id!, "m.type": "private", "um.user_id": userId })
    .select("m.*");

describe("POST /users/me/subscriptions", () => {
  it("creates a missing channel with the reference defaults and subscribes the requester", async () => {
    const { member } = server.users;
    const res = await server
      .as(member)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "  design  ", description: "line one\nline two" }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { [member.id]: ["design"] },
      already_subscribed: {},
      new_subscription_messages_sent: true,
    });
    const row = await stream("design");
    expect(row).toMatchObject({
      name: "design",
      description: "line one line two",
      creator_id: member.id,
      topics_policy: "inherit",
      folder_id: null,
      message_retention_days: null,
    });
    expect(Boolean(row.invite_only)).toBe(false);
    expect(Boolean(row.history_public_to_subscribers)).toBe(true);
    // The creator becomes the channel administrator through an anonymous group.
    const adminGroup = await server.db("user_groups").where({ id: row.can_administer_channel_group }).first();
    expect(adminGroup.name).toBeNull();
    expect((await server.db("user_group_members").where({ group_id: adminGroup.id })).map((r) => r.user_id)).toEqual([
      member.id,
    ]);
    const sys = await server.db("user_groups").where({ realm_id: server.realm.id, is_system_group: true });
    const byId = Object.fromEntries(sys.map((g) => [g.id, g.name]));
    expect(byId[row.can_send_message_group]).toBe("role:everyone");
    expect(byId[row.can_remove_subscribers_group]).toBe("role:administrators");
    expect(byId[row.can_subscribe_group]).toBe("role:nobody");
    expect(await activeSubscribers(row.id)).toEqual([member.id]);
    expect(await botDmsTo(member.id)).toHaveLength(0);
  });

  it("reports already-subscribed channels, matching names case-insensitively", async () => {
    const { member } = server.users;
    const res = await server.as(member).post("/users/me/subscriptions", { subscriptions: [{ name: "GENERAL" }] });
    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({});
    expect(res.body.already_subscribed).toEqual({ [member.id]: ["general"] });
  });

  it("subscribes other users (ids or emails) and the Notification Bot tells them, but not about channels it just created", async () => {
    const { owner, moderator, guest } = server.users;
    const res = await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "general" }, { name: "brand-new" }],
      principals: [moderator.email, owner.email],
    });
    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({ [moderator.id]: ["general", "brand-new"], [owner.id]: ["brand-new"] });
    expect(res.body.already_subscribed).toEqual({ [owner.id]: ["general"] });
    const dms = await botDmsTo(moderator.id);
    expect(dms).toHaveLength(1);
    expect(dms[0].content).toBe(`@**${owner.full_name}|${owner.id}** added you to the channel #**general**.`);
    expect(await botDmsTo(owner.id)).toHaveLength(0);
    expect(await botDmsTo(guest.id)).toHaveLength(0);
  });

  it("sends no bot message when send_new_subscription_messages is false", async () => {
    const { owner, other } = server.users;
    const before = (await botDmsTo(other.id)).length;
    await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "quiet-room" }] });
    const res = await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "quiet-room" }],
      principals: [other.id],
      send_new_subscription_messages: "false",
    });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("new_subscription_messages_sent");
    expect(res.body.subscribed).toEqual({ [other.id]: ["quiet-room"] });
    expect(await botDmsTo(other.id)).toHaveLength(before);
  });

  it("sends no bot messages when more than max_bulk_new_subscription_messages users were subscribed", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 101; i++)
      ids.push(
        (await createUser(server.db, server.realm.id, { email: `bulk${i}@test.example`, fullName: `Bulk ${i}` })).user
          .id,
      );
    const res = await server
      .as(server.users.owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "general" }], principals: ids });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.subscribed)).toHaveLength(101);
    expect(res.body.new_subscription_messages_sent).toBe(false);
    expect(await botDmsTo(ids[0])).toHaveLength(0);
  });

  it("announces new public channels in the new-channel announcements channel when asked", async () => {
    const { owner } = server.users;
    await server
      .db("realms")
      .where({ id: server.realm.id })
      .update({ new_stream_announcements_stream_id: server.general.id });
    const res = await server
      .as(owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "announced" }], announce: true });
    expect(res.status).toBe(200);
    const msg = await server
      .db("messages")
      .where({ stream_id: server.general.id, topic: "new channels" })
      .orderBy("id", "desc")
      .first();
    expect(msg.sender_id).toBe(server.realm.notification_bot_id);
    expect(msg.content).toBe(`@_**${owner.full_name}|${owner.id}** created the channel #**announced**.`);
    await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "not-announced" }] });
    expect(await server.db("messages").where({ stream_id: server.general.id, topic: "new channels" })).toHaveLength(1);
  });

  it("applies every creation option to a new channel and ignores them for existing ones", async () => {
    const { owner, member, other } = server.users;
    const folder = await server.as(owner).post("/channel_folders/create", { name: "Engineering", description: "" });
    const sys = await server.db("user_groups").where({ realm_id: server.realm.id, name: "role:moderators" }).first();
    const res = await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "secret-plans", description: "Hush" }, { name: "general" }],
      invite_only: true,
      history_public_to_subscribers: true,
      message_retention_days: "30",
      default_push_notifications: true,
      topics_policy: JSON.stringify("disable_empty_topic"),
      folder_id: folder.body.channel_folder_id,
      can_send_message_group: sys.id,
      can_add_subscribers_group: { direct_members: [member.id], direct_subgroups: [sys.id] },
      can_subscribe_group: { direct_members: [], direct_subgroups: [sys.id] },
      principals: [owner.id, other.id],
    });
    expect(res.status).toBe(200);
    const row = await stream("secret-plans");
    expect(row).toMatchObject({
      description: "Hush",
      message_retention_days: 30,
      topics_policy: "disable_empty_topic",
      folder_id: folder.body.channel_folder_id,
      can_send_message_group: sys.id,
      can_subscribe_group: sys.id,
    });
    expect([
      Boolean(row.invite_only),
      Boolean(row.history_public_to_subscribers),
      Boolean(row.default_push_notifications),
    ]).toEqual([true, true, true]);
    const anon = row.can_add_subscribers_group;
    expect((await server.db("user_groups").where({ id: anon }).first()).name).toBeNull();
    expect((await server.db("user_group_members").where({ group_id: anon })).map((r) => r.user_id)).toEqual([
      member.id,
    ]);
    expect((await server.db("user_group_subgroups").where({ group_id: anon })).map((r) => r.subgroup_id)).toEqual([
      sys.id,
    ]);
    const general = await stream("general");
    expect(Boolean(general.invite_only)).toBe(false);
    expect(general.folder_id).toBeNull();
    const get = await server.as(owner).get("/users/me/subscriptions", { include_subscribers: "true" });
    const sub = get.body.subscriptions.find((s: { name: string }) => s.name === "secret-plans");
    expect(sub).toMatchObject({
      invite_only: true,
      folder_id: folder.body.channel_folder_id,
      topics_policy: "disable_empty_topic",
      can_add_subscribers_group: { direct_members: [member.id], direct_subgroups: [sys.id] },
      message_retention_days: 30,
    });
    expect(sub.subscribers.sort()).toEqual([owner.id, other.id].sort());
  });

  it("stores realm_default and unlimited retention", async () => {
    const { owner } = server.users;
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "keep-forever" }],
      message_retention_days: "unlimited",
    });
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "keep-default" }],
      message_retention_days: "realm_default",
    });
    expect((await stream("keep-forever")).message_retention_days).toBe(-1);
    expect((await stream("keep-default")).message_retention_days).toBeNull();
  });

  it("makes private channels hide history by default; public channels always show it", async () => {
    const { owner } = server.users;
    await server
      .as(owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "private-default" }], invite_only: true });
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "public-forced" }],
      history_public_to_subscribers: false,
    });
    expect(Boolean((await stream("private-default")).history_public_to_subscribers)).toBe(false);
    expect(Boolean((await stream("public-forced")).history_public_to_subscribers)).toBe(true);
  });

  it("delivers stream, subscription and peer events after the commit", async () => {
    const { owner, other, admin } = server.users;
    const reg = async (u: typeof other) =>
      (await server.as(u).post("/register", { event_types: ["stream", "subscription", "message"] })).body.queue_id;
    const otherQueue = await reg(other);
    const adminQueue = await reg(admin);
    const res = await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "design" }, { name: "evented" }],
      principals: [other.id],
    });
    expect(res.status).toBe(200);
    const events = (
      await server.as(other).get("/events", { queue_id: otherQueue, last_event_id: -1, dont_block: true })
    ).body.events;
    const types = events.map((e: { type: string; op?: string }) => `${e.type}:${e.op ?? ""}`);
    expect(types).toEqual(["stream:create", "subscription:add", "message:"]);
    expect(events[1].subscriptions.map((s: { name: string }) => s.name)).toEqual(["design", "evented"]);
    expect(events[1].subscriptions[1].subscribers).toEqual([other.id]);
    expect(events[2].message).toMatchObject({ sender_id: server.realm.notification_bot_id, type: "private" });
    const adminEvents = (
      await server.as(admin).get("/events", { queue_id: adminQueue, last_event_id: -1, dont_block: true })
    ).body.events;
    expect(
      adminEvents
        .filter((e: { op?: string }) => e.op === "peer_add")
        .map((e: { stream_ids: number[]; user_ids: number[] }) => [e.stream_ids, e.user_ids]),
    ).toEqual([
      [[(await stream("design")).id], [other.id]],
      [[(await stream("evented")).id], [other.id]],
    ]);
  });
});

describe("the Python client's wire format", () => {
  it("accepts add_subscriptions and set_typing_status as zulip-python encodes them (non-strings as JSON)", async () => {
    const { owner, member } = server.users;
    const form = (o: Record<string, unknown>) =>
      new URLSearchParams(
        Object.entries(o).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]),
      ).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const res = await server.as(owner).request(
      "POST",
      "/users/me/subscriptions",
      {},
      {
        headers,
        rawBody: form({
          subscriptions: [{ name: "py-room", description: "from python" }],
          principals: [member.email],
          authorization_errors_fatal: false,
        }),
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      subscribed: { [member.id]: ["py-room"] },
      already_subscribed: {},
      unauthorized: [],
    });
    const streamId = (await stream("py-room")).id;
    const direct = await server
      .as(member)
      .request("POST", "/typing", {}, { headers, rawBody: form({ op: "start", to: [owner.id] }) });
    expect(direct.body).toEqual({ result: "success", msg: "" });
    const channel = await server
      .as(member)
      .request(
        "POST",
        "/typing",
        {},
        { headers, rawBody: form({ type: "stream", op: "stop", stream_id: streamId, topic: "py" }) },
      );
    expect(channel.body).toEqual({ result: "success", msg: "" });
  });
});

describe("DELETE /users/me/subscriptions", () => {
  it("unsubscribes the requester and reports channels they were not in", async () => {
    const { member } = server.users;
    await server.as(member).post("/users/me/subscriptions", { subscriptions: [{ name: "leave-me" }] });
    const res = await server.as(member).delete("/users/me/subscriptions", { subscriptions: ["leave-me", "announced"] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", removed: ["leave-me"], not_removed: ["announced"] });
    expect(await activeSubscribers((await stream("leave-me")).id)).toEqual([]);
  });

  it("lets administrators remove others but not ordinary members", async () => {
    const { member, other, admin } = server.users;
    const before = await snapshot(server);
    expectError(
      await server.as(member).delete("/users/me/subscriptions", { subscriptions: ["general"], principals: [other.id] }),
      400,
      "BAD_REQUEST",
      "Insufficient permission",
    );
    expect(await snapshot(server)).toEqual(before);
    const res = await server
      .as(admin)
      .delete("/users/me/subscriptions", { subscriptions: ["general"], principals: [other.id] });
    expect(res.body.removed).toEqual(["general"]);
    expect(await activeSubscribers(server.general.id)).not.toContain(other.id);
  });

  it("refuses unknown channels and malformed lists", async () => {
    const before = await snapshot(server);
    const res = await server
      .as(server.users.member)
      .delete("/users/me/subscriptions", { subscriptions: ["general", "nope"] });
    expectError(res, 400, "STREAM_DOES_NOT_EXIST", "Channel 'nope' does not exist");
    expect(res.body.stream).toBe("nope");
    expectError(
      await server.as(server.users.member).delete("/users/me/subscriptions", { subscriptions: "general" }),
      400,
      "BAD_REQUEST",
      'Argument "subscriptions" is not valid JSON.',
    );
    expect(await snapshot(server)).toEqual(before);
  });
});
