// Redis going away degrades instead of failing: with a Redis this test starts and stops itself,
// requests keep answering, rate limits fall back to per-process limits, events still reach the
// process's own queues, one warning is logged, and cross-process delivery returns with Redis.
import { spawn, type ChildProcess } from "node:child_process";
import { startSecondServer, startTestServer, type SecondServer, type TestServer } from "../support/harness";
import { freePort, killProcess, waitForPort } from "../support/process";

jest.setTimeout(60_000);

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  if (await waitForPort(port, 100, 50)) return child;
  throw new Error("redis-server did not start");
}

const logLines: string[] = [];
let redisPort: number;
let redis: ChildProcess;
let first: TestServer;
let second: SecondServer;

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  first = await startTestServer(
    { REDIS_URL: `redis://127.0.0.1:${redisPort}`, RATE_LIMIT_USER_REQUESTS: "6", LOG_LEVEL: "info" },
    { logDestination: { write: (line: string) => void logLines.push(line) } },
  );
  second = await startSecondServer(first, { LOG_LEVEL: "silent" });
});
afterAll(async () => {
  await second.close();
  await first.close();
  await killProcess(redis);
});

async function crossProcessDelivery(topic: string): Promise<boolean> {
  const client = first.as(first.users.admin);
  const reg = await client.post("/register", { event_types: ["message"] });
  const sent = await second
    .as(first.users.member)
    .post("/messages", { type: "stream", to: "general", topic, content: "across processes" });
  expect(sent.status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const res = await client.get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: "true" });
  return res.body.events.some((e: { message?: { id: number } }) => e.message?.id === sent.body.id);
}

it("with Redis up, events cross processes", async () => {
  expect(await crossProcessDelivery("before")).toBe(true);
});

describe("with Redis down", () => {
  beforeAll(async () => {
    await killProcess(redis);
  });

  it("requests answer, /server_settings included", async () => {
    expect((await first.anonymous().get("/server_settings")).status).toBe(200);
    expect((await first.as(first.users.member).get("/users/me")).status).toBe(200);
  });

  it("rate limits fall back to per-process limits", async () => {
    const client = second.as(first.users.guest);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await client.get("/users/me")).status);
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(statuses.slice(6)).toEqual([429, 429]);
  });

  it("events still reach the queues of the process that caused them", async () => {
    const client = first.as(first.users.admin);
    const reg = await client.post("/register", { event_types: ["message"] });
    expect(reg.status).toBe(200);
    const poll = client.get("/events", { queue_id: reg.body.queue_id, last_event_id: -1 });
    const sent = await first
      .as(first.users.member)
      .post("/messages", { type: "stream", to: "general", topic: "local", content: "still delivered" });
    expect(sent.status).toBe(200);
    const res = await poll;
    expect(res.body.events.map((e: { message: { id: number } }) => e.message.id)).toEqual([sent.body.id]);
  });

  it("logs the outage once per concern, not per request", async () => {
    await second.as(first.users.member).get("/users/me");
    const warnings = logLines.filter((l) => l.includes("Redis unreachable"));
    expect(warnings.filter((l) => l.includes("rate limits"))).toHaveLength(1);
    expect(warnings.filter((l) => l.includes("events"))).toHaveLength(1);
  });
});

it("when Redis returns, cross-process delivery resumes by itself", async () => {
  redis = await startRedis(redisPort);
  let delivered = false;
  for (let attempt = 0; attempt < 40 && !delivered; attempt++) {
    delivered = await crossProcessDelivery(`after ${attempt}`);
    if (!delivered) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(delivered).toBe(true);
  expect(logLines.some((l) => l.includes("Redis is back"))).toBe(true);
});
