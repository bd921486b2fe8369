// Mentions: the reference's markup in rendered_content, and the flags recipients get — read back
// through the official JS client (GET /messages) and in the message event's per-user flags.
import { addGroupMembers, insertGroup } from "../../src/db/groups";
import { ROLE } from "../../src/db/rows";
import { upsertSubscriptions } from "../../src/db/subscriptions";
import { createUser } from "../../src/services/users/users";
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs, type ZulipJsClient } from "../support/zulipJs";

let server: TestServer;
let owner: ZulipJsClient;
let member: ZulipJsClient;
let other: ZulipJsClient;
let groupId: number;

beforeAll(async () => {
  server = await startTestServer();
  [owner, member, other] = await Promise.all([
    zulipJs(server, server.users.owner),
    zulipJs(server, server.users.member),
    zulipJs(server, server.users.other),
  ]);
  groupId = await insertGroup(server.db, { realm_id: server.realm.id, name: "support", creator_id: null });
  await addGroupMembers(server.db, groupId, [server.users.other.id]);
});
afterAll(async () => {
  await server.close();
});

async function send(from: ZulipJsClient, topic: string, content: string): Promise<number> {
  const sent = await from.messages.send({ to: "general", type: "stream", topic, content });
  expect(sent).toMatchObject({ result: "success" });
  return sent.id;
}

async function flagsOf(client: ZulipJsClient, id: number): Promise<string[]> {
  const res = await client.messages.retrieve({ anchor: id, num_before: 0, num_after: 0, narrow: [] });
  expect(res.result).toBe("success");
  return res.messages.find((m: { id: number }) => m.id === id).flags;
}

describe("mentions", () => {
  it("marks up a user mention and flags only the mentioned user (zulip-js)", async () => {
    const { member: mel, other: otto } = server.users;
    const queue = await member.queues.register({ event_types: ["message"] });
    const id = await send(owner, "mentions", `hi @**${mel.full_name}** and @_**${otto.full_name}**`);
    const history = await member.messages.retrieve({ anchor: id, num_before: 0, num_after: 0, narrow: [] });
    expect(history.messages[0].content).toBe(
      `<p>hi <span class="user-mention" data-user-id="${mel.id}">@${mel.full_name}</span> and ` +
        `<span class="user-mention silent" data-user-id="${otto.id}">${otto.full_name}</span></p>`,
    );
    expect(await flagsOf(member, id)).toContain("mentioned");
    expect(await flagsOf(other, id)).not.toContain("mentioned"); // a silent mention does not notify

    const events = await member.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1 });
    const event = events.events.find((e: { type: string; message?: { id: number } }) => e.message?.id === id);
    expect(event.flags).toContain("mentioned");
  });

  it("resolves @**Name|id**, and leaves unknown names as bold text", async () => {
    const mel = server.users.member;
    const id = await send(owner, "mentions", `@**${mel.full_name}|${mel.id}** @**Nobody Here**`);
    const [message] = (await member.messages.retrieve({ anchor: id, num_before: 0, num_after: 0, narrow: [] }))
      .messages;
    expect(message.content).toBe(
      `<p><span class="user-mention" data-user-id="${mel.id}">@${mel.full_name}</span> @<strong>Nobody Here</strong></p>`,
    );
    expect(message.flags).toContain("mentioned");
  });

  it("flags a user group's members and marks up the group", async () => {
    const id = await send(owner, "mentions", "ping @*support*");
    const [message] = (await other.messages.retrieve({ anchor: id, num_before: 0, num_after: 0, narrow: [] })).messages;
    expect(message.content).toBe(
      `<p>ping <span class="user-group-mention" data-user-group-id="${groupId}">@support</span></p>`,
    );
    expect(message.flags).toContain("mentioned");
    expect(await flagsOf(member, id)).not.toContain("mentioned");
  });

  it("gives everyone wildcard_mentioned for @**all**, and only the topic's participants for @**topic**", async () => {
    const all = await send(owner, "wildcards", "@**all** deploy");
    for (const client of [member, other]) {
      expect(await flagsOf(client, all)).toEqual(expect.arrayContaining(["wildcard_mentioned"]));
    }
    await send(member, "topic-only", "I was here");
    const topic = await send(owner, "topic-only", "@**topic** wrap up");
    expect(await flagsOf(member, topic)).toEqual(expect.arrayContaining(["wildcard_mentioned"]));
    expect(await flagsOf(other, topic)).not.toContain("wildcard_mentioned");
    const [message] = (await member.messages.retrieve({ anchor: topic, num_before: 0, num_after: 0, narrow: [] }))
      .messages;
    expect(message.content).toBe('<p><span class="topic-mention">@topic</span> wrap up</p>');
  });

  it("keeps channel-wide wildcards in channels over 15 subscribers for administrators", async () => {
    for (let i = 0; i < 12; i++) {
      const { user } = await createUser(server.db, server.realm.id, {
        email: `crowd${i}@test.example`,
        fullName: `Crowd ${i}`,
        role: ROLE.member,
      });
      await upsertSubscriptions(server.db, [{ user_id: user.id, stream_id: server.general.id }]);
    }
    const refused = await member.messages.send({ to: "general", type: "stream", topic: "big", content: "@**all**" });
    expect(refused).toMatchObject({
      result: "error",
      code: "BAD_REQUEST",
      msg: "You do not have permission to use channel wildcard mentions in this channel.",
    });
    expect(
      (await member.messages.send({ to: "general", type: "stream", topic: "big", content: "@_**all**" })).result,
    ).toBe("success"); // a silent wildcard notifies nobody, so it is allowed
    const id = await send(owner, "big", "@**channel** all hands");
    expect(await flagsOf(other, id)).toEqual(expect.arrayContaining(["wildcard_mentioned"]));
  });

  it("renders mentions the same through POST /messages/render", async () => {
    const res = await server.as(server.users.owner).post("/messages/render", { content: "@**everyone**" });
    expect(res.body.rendered).toBe('<p><span class="user-mention" data-user-id="*">@everyone</span></p>');
  });
});

describe("channel, topic and message links", () => {
  it("links #**channel**, #**channel>topic** and #**channel>topic@id** as the reference does", async () => {
    const id = server.general.id;
    const res = await server
      .as(server.users.owner)
      .post("/messages/render", { content: "#**general** #**General>deploy notes** #**general>a/b@42** #**nope**" });
    expect(res.body.rendered).toBe(
      `<p><a class="stream" data-stream-id="${id}" href="/#narrow/channel/${id}-general">#general</a> ` +
        `<a class="stream-topic" data-stream-id="${id}" href="/#narrow/channel/${id}-general/topic/deploy.20notes">` +
        `#general &gt; deploy notes</a> ` +
        `<a class="message-link" href="/#narrow/channel/${id}-general/topic/a.2Fb/near/42">#general &gt; a/b @ 💬</a>` +
        " #<strong>nope</strong></p>",
    );
  });
});
