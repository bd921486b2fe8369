// can_create_topic_group: who may send a message that starts a new topic in a channel.
import { startTestServer, type TestServer } from "../support/harness";
import { postWebhook } from "../support/webhooks";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
let channelId: number;
beforeAll(async () => {
  server = await startTestServer();
  const { owner, admin, member } = server.users;
  const admins = await server
    .db("user_groups")
    .where({ realm_id: server.realm.id, name: "role:administrators", is_system_group: true })
    .first();
  const res = await server.as(owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "curated" }],
    principals: [owner.id, admin.id, member.id],
    can_create_topic_group: admins.id,
  });
  expect(res.status).toBe(200);
  channelId = (await server.db("streams").where({ name_key: "curated" }).first()).id;
});
afterAll(async () => {
  await server.close();
});

const topicsIn = async () =>
  (await server.db("messages").where({ stream_id: channelId }).orderBy("id")).map((m) => m.topic);

describe("can_create_topic_group", () => {
  it("refuses a member's message that would start a new topic (zulip-js), and stores nothing", async () => {
    const client = await zulipJs(server, server.users.member);
    const res = await client.messages.send({ type: "stream", to: "curated", topic: "my idea", content: "hello" });
    expect(res).toMatchObject({
      result: "error",
      code: "BAD_REQUEST",
      msg: "You do not have permission to create new topics in this channel.",
    });
    expect(await topicsIn()).toEqual([]);
  });

  it("lets a member of the group start a topic, and then anyone who may post continue it", async () => {
    const admin = await zulipJs(server, server.users.admin);
    const started = await admin.messages.send({ type: "stream", to: "curated", topic: "Agenda", content: "first" });
    expect(started.result).toBe("success");
    const member = await zulipJs(server, server.users.member);
    // Topic names compare case-insensitively, as everywhere else.
    const reply = await member.messages.send({ type: "stream", to: channelId, topic: "agenda", content: "reply" });
    expect(reply.result).toBe("success");
    expect(await topicsIn()).toEqual(["Agenda", "agenda"]);
  });

  it("does not restrict channels that keep the default (everyone)", async () => {
    const res = await server
      .as(server.users.member)
      .post("/messages", { type: "stream", to: "general", topic: "brand new topic", content: "hi" });
    expect(res.status).toBe(200);
  });

  it("applies to webhook bots too: a delivery may continue a topic, not start one", async () => {
    const { bot, owner } = server.users;
    await server
      .as(owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "curated" }], principals: [bot.id] });
    const body = JSON.stringify({ featured_title: "Aurora", featured_url: "https://en.wikipedia.org/wiki/Aurora" });
    const refused = await postWebhook(server, "helloworld", { body, query: { stream: "curated", topic: "bot topic" } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe("You do not have permission to create new topics in this channel.");
    const ok = await postWebhook(server, "helloworld", { body, query: { stream: "curated", topic: "Agenda" } });
    expect(ok.status).toBe(200);
    expect(await topicsIn()).toEqual(["Agenda", "agenda", "Agenda"]);
  });
});
