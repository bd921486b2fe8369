// POST /users/me/subscriptions: who may create and subscribe, and how bad input is refused
// (status, code, msg, and nothing written).
import { setUserActive } from "../../src/services/users/users";
import { startTestServer, type TestServer } from "../support/harness";
import { expectError, snapshot } from "../support/subscriptionHelpers";

let server: TestServer;
let groups: Record<string, number>;
beforeAll(async () => {
  server = await startTestServer();
  const rows = await server.db("user_groups").where({ realm_id: server.realm.id, is_system_group: true });
  groups = Object.fromEntries(rows.map((g) => [g.name, g.id]));
  // A private channel only the owner is in.
  await server
    .as(server.users.owner)
    .post("/users/me/subscriptions", { subscriptions: [{ name: "vault" }], invite_only: true });
});
afterAll(async () => {
  await server.close();
});

const sub = (user: keyof TestServer["users"], params: Record<string, unknown>) =>
  server.as(server.users[user]).post("/users/me/subscriptions", params);
const subscribers = async (name: string) => {
  const s = await server.db("streams").where({ name_key: name.toLowerCase() }).first();
  return (await server.db("subscriptions").where({ stream_id: s.id, active: true }))
    .map((r) => r.user_id)
    .sort((a, b) => a - b);
};

/** Runs a request that must fail and checks that no table changed. */
async function refused(
  user: keyof TestServer["users"],
  params: Record<string, unknown>,
  code: string,
  msg: string,
  status = 400,
): Promise<void> {
  const before = await snapshot(server);
  expectError(await sub(user, params), status, code, msg);
  expect(await snapshot(server)).toEqual(before);
}

describe("subscribe permissions", () => {
  it("refuses guests creating channels and joining public channels", async () => {
    await refused("guest", { subscriptions: [{ name: "guest-made" }] }, "BAD_REQUEST", "Insufficient permission");
    await refused(
      "guest",
      { subscriptions: [{ name: "general" }] },
      "BAD_REQUEST",
      "Unable to access channel (general).",
    );
  });

  it("refuses joining a private channel without permission, or lists it under unauthorized", async () => {
    await refused("member", { subscriptions: [{ name: "vault" }] }, "BAD_REQUEST", "Unable to access channel (vault).");
    const res = await sub("member", {
      subscriptions: [{ name: "vault" }, { name: "general" }],
      authorization_errors_fatal: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      subscribed: {},
      already_subscribed: { [server.users.member.id]: ["general"] },
      unauthorized: ["vault"],
    });
    expect(await subscribers("vault")).toEqual([server.users.owner.id]);
  });

  it("lets can_subscribe_group members join a private channel themselves, but not add others", async () => {
    const { owner, member, other } = server.users;
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "club" }],
      invite_only: true,
      can_subscribe_group: { direct_members: [member.id], direct_subgroups: [] },
    });
    await refused(
      "member",
      { subscriptions: [{ name: "club" }], principals: [other.id] },
      "BAD_REQUEST",
      "Unable to access channel (club).",
    );
    expect((await sub("member", { subscriptions: [{ name: "club" }] })).body.subscribed).toEqual({
      [member.id]: ["club"],
    });
  });

  it("lets can_add_subscribers_group members add others to a private channel they are not in", async () => {
    const { owner, member, other } = server.users;
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "ops" }],
      invite_only: true,
      can_add_subscribers_group: { direct_members: [member.id], direct_subgroups: [] },
    });
    const res = await sub("member", { subscriptions: [{ name: "ops" }], principals: [other.id] });
    expect(res.status).toBe(200);
    expect(res.body.subscribed).toEqual({ [other.id]: ["ops"] });
    expect(await subscribers("ops")).toEqual([owner.id, other.id]);
  });

  it("lets a channel administrator (can_administer_channel_group) add others to a private channel", async () => {
    const { owner, member, other } = server.users;
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "admin-room" }],
      invite_only: true,
      can_administer_channel_group: { direct_members: [member.id], direct_subgroups: [] },
    });
    // Not subscribed and not in can_add_subscribers_group: only the channel-administrator grant applies.
    expect(await subscribers("admin-room")).toEqual([owner.id]);
    const res = await sub("member", { subscriptions: [{ name: "admin-room" }], principals: [other.id] });
    expect([res.status, res.body.subscribed]).toEqual([200, { [other.id]: ["admin-room"] }]);
    expect(await subscribers("admin-room")).toEqual([owner.id, other.id]);
  });

  it("follows the realm's can_add_subscribers_group for adding others to public channels", async () => {
    const { member, moderator } = server.users;
    expect((await sub("member", { subscriptions: [{ name: "general" }], principals: [moderator.id] })).status).toBe(
      200,
    );
    await server
      .db("realms")
      .where({ id: server.realm.id })
      .update({ can_add_subscribers_group: groups["role:administrators"] });
    try {
      // Created by the owner, so the member is not its channel administrator.
      await server
        .as(server.users.owner)
        .post("/users/me/subscriptions", { subscriptions: [{ name: "open-room" }], principals: [member.id] });
      await refused(
        "member",
        { subscriptions: [{ name: "open-room" }], principals: [moderator.id] },
        "BAD_REQUEST",
        "Unable to access channel (open-room).",
      );
    } finally {
      await server
        .db("realms")
        .where({ id: server.realm.id })
        .update({ can_add_subscribers_group: groups["role:members"] });
    }
  });

  it("follows the realm's channel-creation groups", async () => {
    await server
      .db("realms")
      .where({ id: server.realm.id })
      .update({ can_create_private_channel_group: groups["role:administrators"] });
    try {
      await refused(
        "member",
        { subscriptions: [{ name: "members-private" }], invite_only: true },
        "BAD_REQUEST",
        "Insufficient permission",
      );
      expect((await sub("admin", { subscriptions: [{ name: "admins-private" }], invite_only: true })).status).toBe(200);
    } finally {
      await server
        .db("realms")
        .where({ id: server.realm.id })
        .update({ can_create_private_channel_group: groups["role:members"] });
    }
  });

  it("needs spectator access and can_create_web_public_channel_group for web-public channels", async () => {
    await refused(
      "owner",
      { subscriptions: [{ name: "web" }], is_web_public: true },
      "BAD_REQUEST",
      "Web-public channels are not enabled.",
    );
    await server.db("realms").where({ id: server.realm.id }).update({ enable_spectator_access: true });
    await refused(
      "member",
      { subscriptions: [{ name: "web" }], is_web_public: true },
      "BAD_REQUEST",
      "Insufficient permission",
    );
    expect((await sub("owner", { subscriptions: [{ name: "web" }], is_web_public: true })).status).toBe(200);
    const row = await server.db("streams").where({ name_key: "web" }).first();
    expect(Boolean(row.is_web_public)).toBe(true);
    // Guests may join web-public channels.
    expect((await sub("guest", { subscriptions: [{ name: "web" }] })).body.subscribed).toEqual({
      [server.users.guest.id]: ["web"],
    });
  });

  it("keeps admin-only and owner-only options to those roles", async () => {
    await refused(
      "member",
      { subscriptions: [{ name: "dflt" }], is_default_stream: true },
      "BAD_REQUEST",
      "Insufficient permission",
    );
    await refused(
      "admin",
      { subscriptions: [{ name: "dflt" }], is_default_stream: true, invite_only: true },
      "BAD_REQUEST",
      "A default channel cannot be private.",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "push" }], default_push_notifications: true },
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    await refused(
      "admin",
      { subscriptions: [{ name: "retain" }], message_retention_days: "10" },
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization owner",
    );
    expect((await sub("admin", { subscriptions: [{ name: "dflt" }], is_default_stream: true })).status).toBe(200);
    expect(Boolean((await server.db("streams").where({ name_key: "dflt" }).first()).is_default_stream)).toBe(true);
  });

  it("refuses unknown and deactivated principals", async () => {
    await refused(
      "owner",
      { subscriptions: [{ name: "general" }], principals: [999999] },
      "BAD_REQUEST",
      "No such user",
    );
    await refused(
      "owner",
      { subscriptions: [{ name: "general" }], principals: ["nobody@test.example"] },
      "BAD_REQUEST",
      "No such user",
    );
    const { user } = await import("../../src/services/users/users").then((m) =>
      m.createUser(server.db, server.realm.id, { email: "gone@test.example", fullName: "Gone" }),
    );
    await setUserActive(server.db, user.id, false);
    await refused(
      "owner",
      { subscriptions: [{ name: "general" }], principals: [user.id] },
      "BAD_REQUEST",
      "User is deactivated",
    );
  });
});

describe("subscribe input validation", () => {
  it("checks channel names and descriptions", async () => {
    await refused("member", { subscriptions: [{ name: "   " }] }, "BAD_REQUEST", "Channel name can't be empty.");
    await refused(
      "member",
      { subscriptions: [{ name: "x".repeat(61) }] },
      "BAD_REQUEST",
      "Channel name too long (limit: 60 characters).",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "ab\u0007c" }] },
      "BAD_REQUEST",
      "Invalid character in channel name, at position 3.",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "ok", description: "d".repeat(1025) }] },
      "BAD_REQUEST",
      "Channel description too long (limit: 1024 characters).",
    );
    // A colour that does not fit the column used to be a 500 on MySQL.
    await refused(
      "member",
      { subscriptions: [{ name: "ok" }, { name: "hue", color: "#1234567890abcdef" }] },
      "BAD_REQUEST",
      'subscriptions[1]["color"] is not a valid hex color code',
    );
    await refused(
      "member",
      { subscriptions: [{ name: "hue", color: "red" }] },
      "BAD_REQUEST",
      'subscriptions[0]["color"] is not a valid hex color code',
    );
    expect(
      (await sub("member", { subscriptions: [{ name: "y".repeat(60), description: "d".repeat(1024) }] })).status,
    ).toBe(200);
  });

  it("refuses malformed JSON and shapes", async () => {
    await refused(
      "member",
      { subscriptions: "not json" },
      "BAD_REQUEST",
      'Argument "subscriptions" is not valid JSON.',
    );
    await refused(
      "member",
      { subscriptions: [{ nom: "x" }] },
      "BAD_REQUEST",
      "subscriptions is not a list of {name, description} objects",
    );
    await refused("member", {}, "REQUEST_VARIABLE_MISSING", "Missing 'subscriptions' argument");
    await refused(
      "member",
      { subscriptions: [{ name: "x" }], principals: [1, "a@b"] },
      "BAD_REQUEST",
      "principals is not a list of user IDs or a list of emails",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "x" }], invite_only: "maybe" },
      "BAD_REQUEST",
      "invite_only is not a boolean",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "x" }], topics_policy: "sometimes" },
      "BAD_REQUEST",
      "Invalid topics_policy",
    );
    await refused(
      "owner",
      { subscriptions: [{ name: "x" }], message_retention_days: "0" },
      "REQUEST_VARIABLE_INVALID",
      "Bad value for 'message_retention_days': 0",
    );
  });

  it("validates group-setting values", async () => {
    const m = server.users.member.id;
    await refused(
      "member",
      { subscriptions: [{ name: "g" }], can_send_message_group: 999999 },
      "BAD_REQUEST",
      "Invalid user group",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "g" }], can_send_message_group: { direct_members: [m], direct_subgroups: [999999] } },
      "BAD_REQUEST",
      "Invalid user group",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "g" }], can_send_message_group: { direct_members: [999999], direct_subgroups: [] } },
      "BAD_REQUEST",
      "Invalid user ID: 999999",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "g" }], can_send_message_group: { members: [m] } },
      "BAD_REQUEST",
      "can_send_message_group is not a group ID or {direct_members, direct_subgroups}",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "g" }], can_send_message_group: groups["role:internet"] },
      "BAD_REQUEST",
      "'can_send_message_group' setting cannot be set to 'role:internet' group.",
    );
    await refused(
      "member",
      { subscriptions: [{ name: "g" }], can_add_subscribers_group: groups["role:everyone"] },
      "BAD_REQUEST",
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    );
    await refused(
      "member",
      {
        subscriptions: [{ name: "g" }],
        invite_only: true,
        history_public_to_subscribers: false,
        can_create_topic_group: groups["role:members"],
      },
      "BAD_REQUEST",
      "'can_create_topic_group' must be 'role:everyone' for private channels with protected history.",
    );
    expect(
      (
        await sub("member", {
          subscriptions: [{ name: "g" }],
          invite_only: true,
          can_create_topic_group: groups["role:everyone"],
        })
      ).status,
    ).toBe(200);
  });

  it("refuses an unknown channel folder", async () => {
    await refused(
      "member",
      { subscriptions: [{ name: "foldered" }], folder_id: 4242 },
      "BAD_REQUEST",
      "Invalid channel folder ID",
    );
  });
});

describe("topics policy when sending", () => {
  it("refuses the empty topic under disable_empty_topic and other topics under empty_topic_only", async () => {
    const { owner } = server.users;
    await sub("owner", { subscriptions: [{ name: "topics-required" }], topics_policy: "disable_empty_topic" });
    await sub("owner", { subscriptions: [{ name: "chat-only" }], topics_policy: JSON.stringify("empty_topic_only") });
    const send = (to: string, topic: string) =>
      server.as(owner).post("/messages", { type: "stream", to, topic, content: "hi" });
    const before = await snapshot(server);
    expectError(
      await send("topics-required", "(no topic)"),
      400,
      "BAD_REQUEST",
      "Sending messages to the general chat is not allowed in this channel.",
    );
    expectError(
      await send("chat-only", "a topic"),
      400,
      "BAD_REQUEST",
      "Only the general chat topic is allowed in this channel.",
    );
    expect(await snapshot(server)).toEqual(before);
    expect((await send("topics-required", "a topic")).status).toBe(200);
    expect((await send("chat-only", "")).status).toBe(200);
  });
});
