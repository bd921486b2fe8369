// POST /typing: direct and channel typing events, capability filtering, errors; zulip-js client.
import { setUserActive } from "../../src/services/users/users";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { expectError } from "../support/subscriptionHelpers";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function register(user: TestUser, capabilities: Record<string, boolean> = {}): Promise<string> {
  const res = await server.as(user).post("/register", { event_types: ["typing"], client_capabilities: capabilities });
  return res.body.queue_id;
}
async function drain(user: TestUser, queueId: string): Promise<Record<string, any>[]> {
  return (await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events;
}
const who = (u: TestUser) => ({ user_id: u.id, email: u.email });

describe("POST /typing (direct)", () => {
  it("sends start/stop events with sender and recipients to every participant", async () => {
    const { member, other, owner } = server.users;
    const otherQueue = await register(other);
    const ownerQueue = await register(owner);
    for (const op of ["start", "stop"]) {
      const res = await server.as(member).post("/typing", { op, to: [other.id] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: "success", msg: "" });
    }
    const events = await drain(other, otherQueue);
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      {
        type: "typing",
        message_type: "direct",
        op: "start",
        sender: who(member),
        recipients: [who(other), who(member)],
      },
      {
        type: "typing",
        message_type: "direct",
        op: "stop",
        sender: who(member),
        recipients: [who(other), who(member)],
      },
    ]);
    expect(await drain(owner, ownerQueue)).toEqual([]);
  });

  it("does not deliver to deactivated recipients but still lists them", async () => {
    const { member, moderator } = server.users;
    const queue = await register(moderator);
    await setUserActive(server.db, moderator.id, false);
    try {
      const res = await server.as(member).post("/typing", { op: "start", to: [moderator.id], type: "direct" });
      expect(res.status).toBe(200);
    } finally {
      await setUserActive(server.db, moderator.id, true);
    }
    expect(await drain(moderator, queue)).toEqual([]);
  });

  it("refuses bad direct requests with the reference's messages", async () => {
    const as = server.as(server.users.member);
    expectError(await as.post("/typing", { op: "start" }), 400, "BAD_REQUEST", "Missing 'to' argument");
    expectError(await as.post("/typing", { op: "start", to: [] }), 400, "BAD_REQUEST", "Empty 'to' list");
    expectError(await as.post("/typing", { op: "start", to: [999999] }), 400, "BAD_REQUEST", "Invalid user ID 999999");
    expectError(
      await as.post("/typing", { op: "start", to: "[1," }),
      400,
      "BAD_REQUEST",
      'Argument "to" is not valid JSON.',
    );
    expectError(
      await as.post("/typing", { op: "start", to: ["a@b.c"] }),
      400,
      "BAD_REQUEST",
      "to is not a list of integers",
    );
    expectError(
      await as.post("/typing", { op: "start", type: "private", to: [1] }),
      400,
      "BAD_REQUEST",
      "Invalid type",
    );
    expectError(await as.post("/typing", { op: "typing", to: [1] }), 400, "BAD_REQUEST", "Invalid op");
    expectError(await as.post("/typing", { to: [1] }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'op' argument");
  });
});

describe("POST /typing (channel)", () => {
  it("sends to subscribers whose clients declared stream_typing_notifications", async () => {
    const { member, other, admin, moderator } = server.users;
    const capable = await register(other, { stream_typing_notifications: true });
    const incapable = await register(admin);
    const outsider = await register(moderator, { stream_typing_notifications: true });
    for (const type of ["stream", "channel"]) {
      const res = await server
        .as(member)
        .post("/typing", { type, op: "start", stream_id: server.general.id, topic: "lunch" });
      expect(res.status).toBe(200);
    }
    await server
      .as(member)
      .post("/typing", { type: "channel", op: "stop", stream_id: server.general.id, topic: "(no topic)" });
    const events = await drain(other, capable);
    // "stream" and "channel" both give a stream typing event.
    const start = {
      type: "typing",
      message_type: "stream",
      op: "start",
      sender: who(member),
      stream_id: server.general.id,
      topic: "lunch",
    };
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([start, start, { ...start, op: "stop", topic: "" }]);
    expect(await drain(admin, incapable)).toEqual([]);
    expect(await drain(moderator, outsider)).toEqual([]);
  });

  it("sends nothing for channels with more than 100 subscribers", async () => {
    const { owner, other } = server.users;
    const res = await server
      .as(owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "crowd" }], principals: [owner.id, other.id] });
    const streamId = (await server.db("streams").where({ name_key: "crowd" }).first()).id;
    expect(res.status).toBe(200);
    const { createUser } = await import("../../src/services/users/users");
    const rows = [];
    for (let i = 0; i < 99; i++)
      rows.push({
        user_id: (await createUser(server.db, server.realm.id, { email: `c${i}@test.example`, fullName: `C ${i}` }))
          .user.id,
        stream_id: streamId,
      });
    await server.db("subscriptions").insert(rows);
    const queue = await register(other, { stream_typing_notifications: true });
    expect(
      (await server.as(owner).post("/typing", { type: "channel", op: "start", stream_id: streamId, topic: "t" }))
        .status,
    ).toBe(200);
    expect(await drain(other, queue)).toEqual([]);
  });

  it("refuses bad channel requests", async () => {
    const { member, guest, owner } = server.users;
    const as = server.as(member);
    expectError(
      await as.post("/typing", { type: "channel", op: "start", topic: "x" }),
      400,
      "BAD_REQUEST",
      "Missing 'stream_id' argument",
    );
    expectError(
      await as.post("/typing", { type: "stream", op: "start", stream_id: server.general.id }),
      400,
      "BAD_REQUEST",
      "Missing topic",
    );
    expectError(
      await as.post("/typing", { type: "channel", op: "start", stream_id: 999999, topic: "x" }),
      400,
      "BAD_REQUEST",
      "Invalid channel ID",
    );
    await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "hidden" }], invite_only: true });
    const hidden = (await server.db("streams").where({ name_key: "hidden" }).first()).id;
    expectError(
      await as.post("/typing", { type: "channel", op: "start", stream_id: hidden, topic: "x" }),
      400,
      "BAD_REQUEST",
      "Invalid channel ID",
    );
    expectError(
      await server
        .as(guest)
        .post("/typing", { type: "channel", op: "start", stream_id: server.general.id, topic: "x" }),
      400,
      "BAD_REQUEST",
      "Invalid channel ID",
    );
    // Allowed to see the channel but not to post there.
    const nobody = (await server.db("user_groups").where({ realm_id: server.realm.id, name: "role:nobody" }).first())
      .id;
    await server.as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "readonly" }],
      can_send_message_group: nobody,
      principals: [owner.id, member.id],
    });
    const readonly = (await server.db("streams").where({ name_key: "readonly" }).first()).id;
    expectError(
      await as.post("/typing", { type: "channel", op: "start", stream_id: readonly, topic: "x" }),
      400,
      "BAD_REQUEST",
      "You do not have permission to post in this channel.",
    );
  });
});

describe("zulip-js typing and subscriptions", () => {
  it("sends typing and manages subscriptions; a second client sees typing events and the bot DM", async () => {
    const { member, other } = server.users;
    const sender = await zulipJs(server, member);
    const receiver = await zulipJs(server, other);
    const queue = await receiver.queues.register({ event_types: ["typing", "message", "subscription"] });
    expect(queue.result).toBe("success");

    expect(await sender.typing.send({ to: [other.id], op: "start" })).toMatchObject({ result: "success" });
    expect(await sender.typing.send({ to: [other.id], op: "stop" })).toMatchObject({ result: "success" });

    const added = await sender.users.me.subscriptions.add({
      subscriptions: JSON.stringify([{ name: "js-room", description: "from zulip-js" }]),
    });
    expect(added).toMatchObject({ result: "success", subscribed: { [member.id]: ["js-room"] } });
    const invited = await sender.users.me.subscriptions.add({
      subscriptions: JSON.stringify([{ name: "js-room" }]),
      principals: JSON.stringify([other.id]),
    });
    expect(invited).toMatchObject({
      result: "success",
      subscribed: { [other.id]: ["js-room"] },
      new_subscription_messages_sent: true,
    });

    const mine = await receiver.streams.subscriptions.retrieve();
    expect(mine.subscriptions.map((s: { name: string }) => s.name)).toContain("js-room");

    const events = await receiver.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1 });
    const typing = events.events.filter((e: { type: string }) => e.type === "typing");
    expect(typing.map((e: { op: string; sender: { user_id: number } }) => [e.op, e.sender.user_id])).toEqual([
      ["start", member.id],
      ["stop", member.id],
    ]);
    const dm = events.events.find((e: { type: string }) => e.type === "message");
    expect(dm.message).toMatchObject({ sender_id: server.realm.notification_bot_id, type: "private" });
    expect(dm.message.content).toContain("js-room");

    const removed = await receiver.users.me.subscriptions.remove({ subscriptions: JSON.stringify(["js-room"]) });
    expect(removed).toMatchObject({ result: "success", removed: ["js-room"], not_removed: [] });
  });
});
