// Muting users: mute / unmute, every error, register state, events, and read flags.
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const mutes = (userId: number) => server.db("muted_users").where({ user_id: userId }).orderBy("muted_user_id");

async function flagsOf(userId: number, messageId: number): Promise<number> {
  return (await server.db("user_messages").where({ user_id: userId, message_id: messageId }).first()).flags;
}

describe("POST/DELETE /users/me/muted_users/{id}", () => {
  it("mutes a user: existing and future messages from them are read for the muter, events and register state", async () => {
    const { member, other } = server.users;
    const earlier = await server
      .as(other)
      .post("/messages", { type: "stream", to: "general", topic: "mute", content: "before muting" });
    expect(await flagsOf(member.id, earlier.body.id)).toBe(0);
    const queue = await server.as(member).post("/register", { event_types: ["muted_users", "update_message_flags"] });

    const res = await server.as(member).post(`/users/me/muted_users/${other.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await flagsOf(member.id, earlier.body.id)).toBe(1);
    expect(await flagsOf(server.users.owner.id, earlier.body.id)).toBe(0); // only the muter

    const later = await server
      .as(other)
      .post("/messages", { type: "direct", to: [member.id], content: "after muting" });
    expect(await flagsOf(member.id, later.body.id)).toBe(1);

    const events = await server
      .as(member)
      .get("/events", { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
    const muted = events.body.events.find((e: any) => e.type === "muted_users");
    expect(muted.muted_users).toEqual([{ id: other.id, timestamp: expect.any(Number) }]);
    const flags = events.body.events.find((e: any) => e.type === "update_message_flags");
    expect(flags).toMatchObject({ op: "add", flag: "read", messages: [earlier.body.id] });

    const state = await server.as(member).post("/register", { fetch_event_types: ["muted_users"] });
    expect(state.body.muted_users).toEqual([{ id: other.id, timestamp: expect.any(Number) }]);

    const unmute = await server.as(member).delete(`/users/me/muted_users/${other.id}`);
    expect(unmute.body).toEqual({ result: "success", msg: "" });
    expect(await mutes(member.id)).toEqual([]);
    const afterUnmute = await server
      .as(other)
      .post("/messages", { type: "direct", to: [member.id], content: "after unmuting" });
    expect(await flagsOf(member.id, afterUnmute.body.id)).toBe(0);
  });

  it("bots can be muted and unmuted", async () => {
    const { admin, genericBot } = server.users;
    expect((await server.as(admin).post(`/users/me/muted_users/${genericBot.id}`)).status).toBe(200);
    expect((await mutes(admin.id)).map((m) => m.muted_user_id)).toEqual([genericBot.id]);
    expect((await server.as(admin).delete(`/users/me/muted_users/${genericBot.id}`)).status).toBe(200);
  });

  it.each([
    ["POST", "self", "Cannot mute self"],
    ["POST", "unknown", "No such user"],
    ["POST", "muted", "User already muted"],
    ["DELETE", "unknown", "No such user"],
    ["DELETE", "notMuted", "User is not muted"],
  ])("%s refuses %s with '%s'", async (method, target, msg) => {
    const { moderator, other, member } = server.users;
    await server.db("muted_users").insert({ user_id: moderator.id, muted_user_id: other.id, date_muted: 1 });
    const ids: Record<string, number> = { self: moderator.id, unknown: 999999, muted: other.id, notMuted: member.id };
    const before = await mutes(moderator.id);
    const res = await server.as(moderator).request(method, `/users/me/muted_users/${ids[target]}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg });
    expect(await mutes(moderator.id)).toEqual(before);
    await server.db("muted_users").where({ user_id: moderator.id }).delete();
  });

  it("works through zulip-js callEndpoint", async () => {
    const client = await zulipJs(server, server.users.guest);
    expect(await client.callEndpoint(`/users/me/muted_users/${server.users.owner.id}`, "POST", {})).toMatchObject({
      result: "success",
    });
    expect(await client.callEndpoint(`/users/me/muted_users/${server.users.owner.id}`, "DELETE", {})).toMatchObject({
      result: "success",
    });
    expect(await client.callEndpoint(`/users/me/muted_users/${server.users.owner.id}`, "DELETE", {})).toMatchObject({
      result: "error",
      msg: "User is not muted",
    });
  });
});
