// With REDIS_URL, event queues live in Redis: a queue registered on one process is served by any
// other, a long-poll on one wakes when another publishes, and a restarted process loses nothing.
import Redis from "ioredis";
import type { RedisEventQueues } from "../../src/events/redisQueues";
import { startSecondServer, startTestServer, type SecondServer, type TestServer } from "../support/harness";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

let a: TestServer;
let b: SecondServer;
/** Like B, with a long-poll timeout no test reaches: its polls answer early only when woken. */
let slow: SecondServer;
const closeLater: SecondServer[] = [];

beforeAll(async () => {
  a = await startTestServer({ REDIS_URL, EVENT_QUEUE_MAX_EVENTS: "5" });
  b = await startSecondServer(a);
  slow = await startSecondServer(a, { EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: "100" });
});
afterAll(async () => {
  for (const s of closeLater) await s.close();
  await slow.close();
  await b.close();
  await a.close();
});

type Event = { id: number; type: string; message?: { id: number; content: string } };
const messageIds = (events: Event[]) => events.filter((e) => e.type === "message").map((e) => e.message!.id);

async function send(via: { as: TestServer["as"] }, topic: string, content = "hello"): Promise<number> {
  const res = await via.as(a.users.member).post("/messages", { type: "stream", to: "general", topic, content });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function register(via: { as: TestServer["as"] }, body: Record<string, unknown> = {}): Promise<string> {
  const res = await via.as(a.users.other).post("/register", { event_types: ["message"], ...body });
  expect(res.status).toBe(200);
  return res.body.queue_id;
}

const poll = (via: { as: TestServer["as"] }, queueId: string, params: Record<string, unknown> = {}) =>
  via.as(a.users.other).get("/events", { queue_id: queueId, ...params });

it("a queue registered on A sees a message sent via B, polled on B and on A", async () => {
  const queueId = await register(a);
  const sent = await send(b, "across");
  const onB = await poll(b, queueId, { last_event_id: -1, dont_block: true });
  expect(onB.status).toBe(200);
  expect(messageIds(onB.body.events)).toEqual([sent]);
  expect(onB.body.events[0].id).toBe(0);
  const onA = await poll(a, queueId, { last_event_id: -1, dont_block: true });
  expect(messageIds(onA.body.events)).toEqual([sent]);
  // Acknowledged on A: gone for B too.
  const acked = await poll(b, queueId, { last_event_id: 0, dont_block: true });
  expect(acked.body.events).toEqual([]);
});

/** Resolves once `server` holds a long-poll waiting on `queueId`. */
async function untilWaiting(server: SecondServer, queueId: string): Promise<void> {
  while (!(server.deps.queues as RedisEventQueues).isWaiting(queueId)) await new Promise((r) => setTimeout(r, 20));
}

it("a long-poll on one process wakes when another publishes", async () => {
  const queueId = await register(a);
  const waiting = poll(slow, queueId, { last_event_id: -1 });
  await untilWaiting(slow, queueId);
  const sent = await send(a, "wake");
  const res = await waiting; // a heartbeat would come only after 100 s
  expect(res.status).toBe(200);
  expect(messageIds(res.body.events)).toEqual([sent]);
});

it("a long-poll with nothing to say ends with a heartbeat that is acknowledged like any event", async () => {
  const queueId = await register(a);
  const first = await poll(b, queueId, { last_event_id: -1 });
  expect(first.body.events).toEqual([{ type: "heartbeat", id: 0 }]);
  const sent = await send(a, "after heartbeat");
  const next = await poll(a, queueId, { last_event_id: 0 });
  expect(next.body.events.map((e: Event) => e.id)).toEqual([1]);
  expect(messageIds(next.body.events)).toEqual([sent]);
});

it("a restarted process loses no queue and no event", async () => {
  const c = await startSecondServer(a);
  const queueId = await register(c);
  const before = await send(c, "before restart");
  await c.close(); // the process that held the queue goes away
  const during = await send(a, "while it was down");
  const restarted = await startSecondServer(a);
  closeLater.push(restarted);
  const after = await send(restarted, "after restart");
  const res = await poll(restarted, queueId, { last_event_id: -1, dont_block: true });
  expect(res.status).toBe(200);
  expect(messageIds(res.body.events)).toEqual([before, during, after]);
  expect(res.body.events.map((e: Event) => e.id)).toEqual([0, 1, 2]);
});

it("answers BAD_EVENT_QUEUE_ID for an unknown queue, another user's queue, and a deleted one", async () => {
  const unknown = await poll(b, "12345:nope", { dont_block: true });
  expect(unknown.status).toBe(400);
  expect(unknown.body).toEqual({
    result: "error",
    code: "BAD_EVENT_QUEUE_ID",
    msg: "Bad event queue ID: 12345:nope",
    queue_id: "12345:nope",
  });
  const queueId = await register(a);
  const stolen = await b.as(a.users.member).get("/events", { queue_id: queueId, dont_block: true });
  expect(stolen.body.code).toBe("BAD_EVENT_QUEUE_ID");
  const notMine = await b.as(a.users.member).request("DELETE", "/events", { queue_id: queueId }, { query: true });
  expect(notMine.body.code).toBe("BAD_EVENT_QUEUE_ID");
  const deleted = await b.as(a.users.other).request("DELETE", "/events", { queue_id: queueId }, { query: true });
  expect(deleted.status).toBe(200);
  expect((await poll(a, queueId, { dont_block: true })).body.code).toBe("BAD_EVENT_QUEUE_ID");
});

it("deleting a queue on one process answers the long-poll waiting on another", async () => {
  const queueId = await register(a);
  const waiting = poll(slow, queueId, { last_event_id: -1 });
  await untilWaiting(slow, queueId);
  await a.as(a.users.other).request("DELETE", "/events", { queue_id: queueId }, { query: true });
  expect((await waiting).body.code).toBe("BAD_EVENT_QUEUE_ID");
});

it("keeps each queue's own choices: event types and raw Markdown", async () => {
  const raw = await register(a, { apply_markdown: false });
  const typing = await register(a, { event_types: ["typing"] });
  const sent = await send(b, "choices", "*md*");
  const res = await poll(b, raw, { last_event_id: -1, dont_block: true });
  expect(res.body.events[0].message).toMatchObject({ id: sent, content: "*md*", content_type: "text/x-markdown" });
  expect((await poll(b, typing, { last_event_id: -1, dont_block: true })).body.events).toEqual([]);
});

it("a queue over its cap (EVENT_QUEUE_MAX_EVENTS) is dropped rather than silently trimmed", async () => {
  // The cap is the sending process's setting (A's is 5; give every process the same settings).
  const queueId = await register(b);
  for (let i = 0; i < 5; i++) await send(a, `cap ${i}`);
  const full = await poll(b, queueId, { last_event_id: -1, dont_block: true });
  expect(full.body.events).toHaveLength(5);
  await send(a, "one too many");
  const dropped = await poll(b, queueId, { last_event_id: -1, dont_block: true });
  expect(dropped.body.code).toBe("BAD_EVENT_QUEUE_ID");
});

it("keeps queue state in Redis with an expiry, under the deployment's prefix", async () => {
  const queueId = await register(a, { idle_queue_timeout: "30" });
  await send(b, "ttl");
  const redis = new Redis(REDIS_URL);
  try {
    const prefix = a.config.redisPrefix;
    const meta = await redis.hgetall(`${prefix}:eq:${queueId}`);
    expect(meta).toMatchObject({ user: String(a.users.other.id), idle: "30", next: "1" });
    // Idle timeout plus one long-poll (2 s in tests), in milliseconds.
    const ttl = await redis.pttl(`${prefix}:eq:${queueId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(32_000);
    const streamTtl = await redis.pttl(`${prefix}:eq:${queueId}:ev`);
    expect(streamTtl).toBeGreaterThan(0);
    expect(await redis.sismember(`${prefix}:equ:${a.users.other.id}`, queueId)).toBe(1);
    // Redis expiring the queue is the idle garbage collection: the queue is then unknown.
    await redis.del(`${prefix}:eq:${queueId}`);
  } finally {
    redis.disconnect();
  }
  expect((await poll(b, queueId, { dont_block: true })).body.code).toBe("BAD_EVENT_QUEUE_ID");
});

it("after a process lost events to a Redis outage, older queues are refused so clients re-fetch state", async () => {
  const queueId = await register(a);
  const redis = new Redis(REDIS_URL);
  try {
    // What a process does once Redis answers again after failing to write events.
    await redis.incr(`${a.config.redisPrefix}:eq-epoch`);
  } finally {
    redis.disconnect();
  }
  expect((await poll(b, queueId, { dont_block: true })).body.code).toBe("BAD_EVENT_QUEUE_ID");
  const fresh = await register(b);
  const sent = await send(a, "new epoch");
  expect(messageIds((await poll(a, fresh, { last_event_id: -1, dont_block: true })).body.events)).toEqual([sent]);
});
