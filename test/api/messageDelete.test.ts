// DELETE /messages/{id}: own messages within the time limit, any message for the delete-any group,
// a bot's owner for the bot's messages; the delete_message event in both shapes; refusals write nothing.
import { nowSeconds } from "../../src/db/rows";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function send(user: TestUser, content: string, topic = "deletions"): Promise<number> {
  const res = await server.as(user).post("/messages", { type: "stream", to: "general", topic, content });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function register(user: TestUser, capabilities: Record<string, boolean> = {}): Promise<string> {
  const res = await server.as(user).post("/register", {
    event_types: ["delete_message"],
    client_capabilities: capabilities,
  });
  return res.body.queue_id;
}

async function events(user: TestUser, queueId: string) {
  const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  return res.body.events.filter((e: { type: string }) => e.type === "delete_message");
}

const exists = async (id: number) => (await server.db("messages").where({ id }).first("id")) !== undefined;
const rowsOf = async (id: number) => server.db("user_messages").where({ message_id: id }).count({ n: "*" });

async function setRealm(fields: Record<string, unknown>) {
  await server.db("realms").where({ id: server.realm.id }).update(fields);
}

async function systemGroup(name: string): Promise<number> {
  return (await server.db("user_groups").where({ realm_id: server.realm.id, name }).first("id")).id;
}

it("deletes one's own message: everything goes, both event shapes", async () => {
  const { member, other } = server.users;
  const id = await send(member, "oops");
  await server.as(other).post(`/messages/${id}/reactions`, { emoji_name: "thumbs_up" });
  await server.as(member).patch(`/messages/${id}`, { content: "oops, edited" });
  const bulk = await register(other, { bulk_message_deletion: true });
  const legacy = await register(other);
  const res = await server.as(member).delete(`/messages/${id}`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ result: "success", msg: "" });
  expect(await exists(id)).toBe(false);
  expect(await rowsOf(id)).toEqual([{ n: 0 }]);
  expect(await server.db("reactions").where({ message_id: id }).count({ n: "*" })).toEqual([{ n: 0 }]);
  expect(await server.db("message_edits").where({ message_id: id }).count({ n: "*" })).toEqual([{ n: 0 }]);
  expect(await events(other, bulk)).toEqual([
    {
      type: "delete_message",
      id: 0,
      message_type: "stream",
      stream_id: server.general.id,
      topic: "deletions",
      message_ids: [id],
    },
  ]);
  expect(await events(other, legacy)).toEqual([
    {
      type: "delete_message",
      id: 0,
      message_type: "stream",
      stream_id: server.general.id,
      topic: "deletions",
      message_id: id,
    },
  ]);
  expect((await server.as(other).get(`/messages/${id}`)).body.msg).toBe("Invalid message(s)");
  // Gone: a second delete is an unknown message.
  expect((await server.as(member).delete(`/messages/${id}`)).body).toMatchObject({ msg: "Invalid message(s)" });
});

it("direct messages: the private shape", async () => {
  const { member, other } = server.users;
  const id = (await server.as(member).post("/messages", { type: "direct", to: [other.id], content: "psst" })).body.id;
  const queue = await register(other, { bulk_message_deletion: true });
  expect((await server.as(member).delete(`/messages/${id}`)).status).toBe(200);
  expect(await events(other, queue)).toEqual([
    { type: "delete_message", id: 0, message_type: "private", message_ids: [id] },
  ]);
});

it("refuses others' messages unless one may delete any; refusals write nothing", async () => {
  const { member, other, admin, moderator } = server.users;
  const id = await send(member, "not yours");
  const refused = await server.as(other).delete(`/messages/${id}`);
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual({
    result: "error",
    code: "BAD_REQUEST",
    msg: "You don't have permission to delete this message",
  });
  expect((await server.as(moderator).delete(`/messages/${id}`)).body.msg).toBe(
    "You don't have permission to delete this message",
  );
  expect(await exists(id)).toBe(true);
  expect(await rowsOf(id)).toEqual([{ n: 4 }]);
  // Administrators are the default delete-any group.
  expect((await server.as(admin).delete(`/messages/${id}`)).status).toBe(200);
  expect(await exists(id)).toBe(false);

  // The organization widens it to moderators.
  const next = await send(member, "moderated");
  await setRealm({ can_delete_any_message_group: await systemGroup("role:moderators") });
  try {
    await server.as(server.users.owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "general" }],
      principals: [moderator.id],
    });
    expect((await server.as(moderator).delete(`/messages/${next}`)).status).toBe(200);
  } finally {
    await setRealm({ can_delete_any_message_group: await systemGroup("role:administrators") });
  }
});

it("the time limit and the own-message group bind one's own messages", async () => {
  const { member, owner } = server.users;
  const old = await send(member, "old news");
  await server
    .db("messages")
    .where({ id: old })
    .update({ date_sent: nowSeconds() - 601 });
  const late = await server.as(member).delete(`/messages/${old}`);
  expect(late.body.msg).toBe("The time limit for deleting this message has passed");
  expect(await exists(old)).toBe(true);
  await setRealm({ message_content_delete_limit_seconds: null });
  try {
    expect((await server.as(member).delete(`/messages/${old}`)).status).toBe(200);
  } finally {
    await setRealm({ message_content_delete_limit_seconds: 600 });
  }

  // Only administrators may delete their own messages (a direct message: no channel group applies).
  await setRealm({ can_delete_own_message_group: await systemGroup("role:administrators") });
  try {
    const dm = (await server.as(member).post("/messages", { type: "direct", to: [owner.id], content: "x" })).body.id;
    const refused = await server.as(member).delete(`/messages/${dm}`);
    expect(refused.body.msg).toBe("You don't have permission to delete this message");
    expect(await exists(dm)).toBe(true);
  } finally {
    await setRealm({ can_delete_own_message_group: await systemGroup("role:everyone") });
  }
});

it("a bot's owner deletes the bot's messages; zulip-js deleteById", async () => {
  const { member, genericBot, other } = server.users;
  const id = await send(genericBot, "bot says");
  expect((await server.as(other).delete(`/messages/${id}`)).status).toBe(400);
  const client = await zulipJs(server, member);
  expect(await client.messages.deleteById({ message_id: id })).toMatchObject({ result: "success" });
  expect(await exists(id)).toBe(false);
});

it("an id that is not a number is a 400 naming it", async () => {
  const res = await server.as(server.users.member).delete("/messages/abc");
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ var_name: "message_id" });
});
