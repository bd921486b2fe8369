// POST /register, GET /events, DELETE /events.
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const member = () => server.as(server.users.member);

describe("POST /register", () => {
  it("returns a queue and the published server constants", async () => {
    const res = await member().post("/register", {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: "success",
      last_event_id: -1,
      zulip_feature_level: 507,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      max_channel_folder_name_length: 60,
      max_channel_folder_description_length: 1024,
      max_topic_length: 60,
      max_message_length: 10000,
      max_bulk_new_subscription_messages: 100,
      server_typing_started_wait_period_milliseconds: 30000,
      server_typing_stopped_wait_period_milliseconds: 12000,
      server_typing_started_expiry_period_milliseconds: 45000,
      realm_empty_topic_display_name: "general chat",
      event_queue_longpoll_timeout_seconds: 2,
    });
    expect(typeof res.body.queue_id).toBe("string");
    expect(res.body.subscriptions.map((s: { name: string }) => s.name)).toEqual(["general"]);
    expect(res.body.realm_users.map((u: { email: string }) => u.email)).toContain("other@test.example");
  });

  it("returns only the state asked for with fetch_event_types", async () => {
    const res = await member().post("/register", { fetch_event_types: ["message"] });
    expect(res.body).toHaveProperty("max_message_id");
    expect(res.body).not.toHaveProperty("subscriptions");
    expect(res.body).not.toHaveProperty("max_topic_length");
  });

  it("honours idle_queue_timeout", async () => {
    const res = await member().post("/register", { idle_queue_timeout: "mobile" });
    expect(res.body.idle_queue_timeout_secs).toBe(43200);
    const bad = await member().post("/register", { idle_queue_timeout: "0" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Invalid idle_queue_timeout",
      var_name: "idle_queue_timeout",
    });
  });
});

describe("GET /events", () => {
  it("delivers message events to recipients only, with per-user flags", async () => {
    const other = await server
      .as(server.users.other)
      .post("/register", { event_types: ["message"], apply_markdown: true });
    const guest = await server.as(server.users.guest).post("/register", { event_types: ["message"] });
    const sent = await member().post("/messages", {
      type: "stream",
      to: "general",
      topic: "events",
      content: "**bold** news",
    });
    const events = await server
      .as(server.users.other)
      .get("/events", { queue_id: other.body.queue_id, last_event_id: -1 });
    expect(events.status).toBe(200);
    expect(events.body.events).toEqual([
      expect.objectContaining({
        type: "message",
        id: 0,
        flags: [],
        message: expect.objectContaining({ id: sent.body.id, content: "<p><strong>bold</strong> news</p>" }),
      }),
    ]);
    const none = await server
      .as(server.users.guest)
      .get("/events", { queue_id: guest.body.queue_id, last_event_id: -1, dont_block: true });
    expect(none.body.events).toEqual([]);
  });

  it("sends raw Markdown to queues registered without apply_markdown", async () => {
    const raw = await server
      .as(server.users.other)
      .post("/register", { event_types: ["message"], apply_markdown: false });
    await member().post("/messages", { type: "stream", to: "general", topic: "events", content: "*md*" });
    const res = await server.as(server.users.other).get("/events", { queue_id: raw.body.queue_id, last_event_id: -1 });
    expect(res.body.events[0].message.content).toBe("*md*");
  });

  it("long-polls until a message arrives", async () => {
    const reg = await server.as(server.users.other).post("/register", { event_types: ["message"] });
    const poll = server.as(server.users.other).get("/events", { queue_id: reg.body.queue_id, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 100));
    const sent = await member().post("/messages", { type: "stream", to: "general", topic: "poll", content: "wake up" });
    const res = await poll;
    expect(res.body.events.map((e: { message: { id: number } }) => e.message.id)).toEqual([sent.body.id]);
  });

  it("sends a heartbeat when nothing happens before the long-poll timeout", async () => {
    const reg = await member().post("/register", { event_types: ["message"] });
    const res = await member().get("/events", { queue_id: reg.body.queue_id, last_event_id: -1 });
    expect(res.body.events).toEqual([{ type: "heartbeat", id: 0 }]);
  });

  it("drops acknowledged events", async () => {
    const reg = await server.as(server.users.other).post("/register", { event_types: ["message"] });
    await member().post("/messages", { type: "stream", to: "general", topic: "ack", content: "1" });
    await member().post("/messages", { type: "stream", to: "general", topic: "ack", content: "2" });
    const res = await server.as(server.users.other).get("/events", { queue_id: reg.body.queue_id, last_event_id: 0 });
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([1]);
  });

  it("refuses an unknown queue and another user's queue", async () => {
    const res = await member().get("/events", { queue_id: "nope", last_event_id: -1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_EVENT_QUEUE_ID",
      msg: "Bad event queue ID: nope",
      queue_id: "nope",
    });
    const reg = await server.as(server.users.other).post("/register", {});
    const stolen = await member().get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    expect(stolen.body.code).toBe("BAD_EVENT_QUEUE_ID");
  });

  it("forgets a deleted queue", async () => {
    const reg = await member().post("/register", {});
    expect((await member().request("DELETE", "/events", { queue_id: reg.body.queue_id }, { query: true })).status).toBe(
      200,
    );
    const res = await member().get("/events", { queue_id: reg.body.queue_id, dont_block: true });
    expect(res.body.code).toBe("BAD_EVENT_QUEUE_ID");
  });
});
