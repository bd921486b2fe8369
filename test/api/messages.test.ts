// POST /messages, GET /messages, GET /messages/{id}.
import { messageHooks } from "../../src/services/messages/hooks";
import { insertChannel } from "../../src/services/channels/channels";
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function send(params: Record<string, unknown>, user = server.users.member) {
  return server.as(user).post("/messages", params);
}

describe("POST /messages", () => {
  it("sends a channel message that subscribers can read back, with one row per recipient", async () => {
    const res = await send({ type: "stream", to: "general", topic: "greetings", content: "Hello **world**" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "success", msg: "" });
    const id = res.body.id;
    const read = await server.as(server.users.other).get(`/messages/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.message).toMatchObject({
      id,
      subject: "greetings",
      content: "<p>Hello <strong>world</strong></p>",
      display_recipient: "general",
      type: "stream",
      flags: [],
    });
    expect(read.body.raw_content).toBe("Hello **world**");
    const rows = await server.db("user_messages").where({ message_id: id }).orderBy("user_id");
    expect(rows.map((r) => r.user_id)).toEqual([
      server.users.owner.id,
      server.users.admin.id,
      server.users.member.id,
      server.users.other.id,
    ]);
    expect(rows.find((r) => r.user_id === server.users.member.id).flags & 1).toBe(1); // the sender has read it
  });

  it("accepts the channel by id and `channel` as the type", async () => {
    const res = await send({ type: "channel", to: server.general.id, topic: "by id", content: "hi" });
    expect(res.status).toBe(200);
    expect((await server.db("messages").where({ id: res.body.id }).first()).stream_id).toBe(server.general.id);
  });

  it("reads `to` as a channel name, an id, or JSON (a quoted name, a one-element list, a number)", async () => {
    const id = server.general.id;
    for (const to of ["general", String(id), '"general"', '["general"]', `[${id}]`, ` ${id} `, `${id}e0`]) {
      const res = await send({ type: "stream", to, topic: "to forms", content: `via ${to}` });
      expect([to, res.status]).toEqual([to, 200]);
      expect([to, (await server.db("messages").where({ id: res.body.id }).first()).stream_id]).toEqual([to, id]);
    }
    // Text that only starts like JSON is a name: here of a channel that does not exist.
    for (const to of ["[general", '"general', "12 monkeys"]) {
      const res = await send({ type: "stream", to, topic: "to forms", content: "x" });
      expect([to, res.status, res.body.code]).toEqual([to, 400, "STREAM_DOES_NOT_EXIST"]);
    }
  });

  it("allows the empty topic, and reads (no topic) as the empty topic", async () => {
    const res = await send({ type: "stream", to: "general", topic: "(no topic)", content: "topicless" });
    expect(res.status).toBe(200);
    expect((await server.db("messages").where({ id: res.body.id }).first()).topic).toBe("");
  });

  it("escapes raw HTML in content", async () => {
    const res = await send({
      type: "stream",
      to: "general",
      topic: "html",
      content: "<script>alert(1)</script> [x](javascript:alert(1))",
    });
    const row = await server.db("messages").where({ id: res.body.id }).first();
    expect(row.rendered_content).not.toContain("<script>");
    expect(row.rendered_content).toContain("&lt;script&gt;");
    expect(row.rendered_content).not.toContain('href="javascript:');
  });

  it("truncates content over 10000 characters", async () => {
    const res = await send({ type: "stream", to: "general", topic: "long", content: "a".repeat(10050) });
    expect(res.status).toBe(200);
    const row = await server.db("messages").where({ id: res.body.id }).first();
    expect(row.content).toHaveLength(10000);
    expect(row.content.endsWith("\n[message truncated]")).toBe(true);
  });

  it("keeps content of exactly 10000 characters whole and cuts at 10001", async () => {
    const exact = await send({ type: "stream", to: "general", topic: "long", content: "b".repeat(10000) });
    const over = await send({ type: "stream", to: "general", topic: "long", content: "c".repeat(10001) });
    const rows = await server.db("messages").whereIn("id", [exact.body.id, over.body.id]).orderBy("id");
    expect(rows.map((r) => r.content)).toEqual([
      "b".repeat(10000),
      "c".repeat(10000 - "\n[message truncated]".length) + "\n[message truncated]",
    ]);
  });

  it("counts characters as code points, not UTF-16 units", async () => {
    // 😀 is one character but two UTF-16 units: 10000 of them fit, 10001 are cut without
    // splitting a surrogate pair.
    const exact = await send({ type: "stream", to: "general", topic: "emoji", content: "😀".repeat(10000) });
    const over = await send({ type: "stream", to: "general", topic: "emoji", content: "😀".repeat(10001) });
    const rows = await server.db("messages").whereIn("id", [exact.body.id, over.body.id]).orderBy("id");
    expect(rows.map((r) => r.content)).toEqual([
      "😀".repeat(10000),
      "😀".repeat(10000 - "\n[message truncated]".length) + "\n[message truncated]",
    ]);
  });

  it("truncates a topic over 60 characters to 57 plus an ellipsis", async () => {
    const res = await send({ type: "stream", to: "general", topic: "t".repeat(70), content: "x" });
    const row = await server.db("messages").where({ id: res.body.id }).first();
    expect(row.topic).toBe("t".repeat(57) + "...");
  });

  it("refuses empty content", async () => {
    const res = await send({ type: "stream", to: "general", topic: "t", content: "   " });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Message must not be empty" });
  });

  it("refuses an unknown channel by name and by id", async () => {
    const byName = await send({ type: "stream", to: "nowhere", topic: "t", content: "x" });
    expect(byName.status).toBe(400);
    expect(byName.body).toEqual({
      result: "error",
      code: "STREAM_DOES_NOT_EXIST",
      msg: "Channel 'nowhere' does not exist",
      stream: "nowhere",
    });
    const byId = await send({ type: "stream", to: 99999, topic: "t", content: "x" });
    expect(byId.body).toEqual({
      result: "error",
      code: "STREAM_DOES_NOT_EXIST",
      msg: "Channel with ID '99999' does not exist",
      stream_id: 99999,
    });
  });

  it("refuses an unknown message type", async () => {
    const res = await send({ type: "carrier-pigeon", to: "general", content: "x" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid type", var_name: "type" });
  });

  it("refuses to post in a private channel one is not subscribed to", async () => {
    await server.db.transaction((trx) =>
      insertChannel(trx, server.realm, server.users.owner, { name: "secret", invite_only: true }),
    );
    const res = await send({ type: "stream", to: "secret", topic: "t", content: "x" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Not authorized to send to channel 'secret'",
    });
  });

  it("sends a direct message by user id and by email", async () => {
    const byId = await send({ type: "direct", to: [server.users.other.id], content: "psst" });
    expect(byId.status).toBe(200);
    const byEmail = await send({ type: "private", to: "other@test.example", content: "psst again" });
    expect(byEmail.status).toBe(200);
    const rows = await server.db("user_messages").where({ message_id: byEmail.body.id }).orderBy("user_id");
    expect(rows.map((r) => r.user_id)).toEqual([server.users.member.id, server.users.other.id].sort((a, b) => a - b));
  });

  it("refuses a direct message to an unknown user", async () => {
    const res = await send({ type: "direct", to: [424242], content: "x" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid user ID 424242" });
  });

  it("leaves no rows behind when sending fails mid-transaction", async () => {
    const before = await server.db("messages").count({ n: "*" }).first();
    const beforeRows = await server.db("user_messages").count({ n: "*" }).first();
    const reg = await server.as(server.users.other).post("/register", { event_types: ["message"] });
    // Fails every time: a send whose write fails is prepared again and retried once (group commit).
    const spy = jest.spyOn(messageHooks, "afterInsert").mockRejectedValue(new Error("disk on fire"));
    try {
      const res = await send({ type: "stream", to: "general", topic: "doomed", content: "never stored" });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        result: "error",
        code: "INTERNAL_SERVER_ERROR",
        msg: "Internal server error",
        request_id: expect.any(String),
      });
    } finally {
      spy.mockRestore();
    }
    expect(await server.db("messages").count({ n: "*" }).first()).toEqual(before);
    expect(await server.db("user_messages").count({ n: "*" }).first()).toEqual(beforeRows);
    const events = await server
      .as(server.users.other)
      .get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events).toEqual([]); // nothing published for a rolled-back send
  });
});

describe("GET /messages", () => {
  let ids: number[];
  beforeAll(async () => {
    ids = [];
    for (const [topic, content, user] of [
      ["alpha", "one", server.users.member],
      ["beta", "two", server.users.other],
      ["alpha", "three", server.users.other],
    ] as const) {
      ids.push((await send({ type: "stream", to: "general", topic, content }, user)).body.id);
    }
  });

  const get = (params: Record<string, unknown>) => server.as(server.users.member).get("/messages", params);

  it("returns the newest messages in order with anchor metadata", async () => {
    const res = await get({ anchor: "newest", num_before: 2, num_after: 0 });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(1));
    expect(res.body).toMatchObject({ found_newest: true, found_oldest: false, history_limited: false });
  });

  it("narrows by channel and topic", async () => {
    const res = await get({
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: [
        { operator: "channel", operand: "general" },
        { operator: "topic", operand: "alpha" },
      ],
    });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[0], ids[2]]);
  });

  it("narrows by sender", async () => {
    const res = await get({
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: [
        ["stream", "general"],
        ["sender", "other@test.example"],
      ],
    });
    const senders = new Set(res.body.messages.map((m: { sender_id: number }) => m.sender_id));
    expect([...senders]).toEqual([server.users.other.id]);
  });

  it("narrows to a direct-message conversation", async () => {
    const dm = await send({ type: "direct", to: [server.users.admin.id], content: "dm for narrow" });
    const res = await get({
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: "dm", operand: [server.users.admin.id] }],
    });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([dm.body.id]);
    expect(res.body.messages[0].display_recipient.map((u: { id: number }) => u.id).sort()).toEqual(
      [server.users.admin.id, server.users.member.id].sort(),
    );
  });

  it("reads around a numeric anchor", async () => {
    const res = await get({ anchor: ids[1], num_before: 1, num_after: 1, narrow: [["channel", "general"]] });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids);
    expect(res.body.found_anchor).toBe(true);
  });

  it("refuses an unknown narrow operator", async () => {
    const res = await get({
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: "colour", operand: "red" }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Invalid narrow operator: unknown operator 'colour'",
    });
  });

  it("requires num_before and num_after", async () => {
    const res = await get({ anchor: "newest", num_after: 0 });
    expect(res.body).toEqual({
      result: "error",
      code: "REQUEST_VARIABLE_MISSING",
      msg: "Missing 'num_before' argument",
      var_name: "num_before",
    });
  });

  it("does not show another user's direct message", async () => {
    const dm = await send({ type: "direct", to: [server.users.admin.id], content: "not for other" });
    const res = await server.as(server.users.other).get(`/messages/${dm.body.id}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid message(s)" });
  });
});

describe("Markdown", () => {
  it("renders the global time syntax as a <time> element (UTC), an invalid one as an error, escaped", async () => {
    const res = await server
      .as(server.users.member)
      .post("/messages/render", { content: 'Deploy at <time:2026-11-22T10:00:00Z>, not <time:"><script>>' });
    expect(res.body.rendered).toBe(
      '<p>Deploy at <time datetime="2026-11-22T10:00:00Z">2026-11-22T10:00:00Z</time>, not <span class="timestamp-error">Invalid time format: &quot;</span>&lt;script&gt;&gt;</p>',
    );
  });
});
