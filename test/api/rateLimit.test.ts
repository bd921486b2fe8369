// Rate limits (memory and Redis-shared) and cross-process event delivery over Redis.
import { startSecondServer, startTestServer, type TestServer } from "../support/harness";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("in-memory rate limits", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_USER_REQUESTS: "3", RATE_LIMIT_IP_REQUESTS: "2" });
  });
  afterAll(async () => {
    await server.close();
  });

  it("counts each user's requests and answers RATE_LIMIT_HIT with retry-after past the limit", async () => {
    const client = server.as(server.users.member);
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const res = await client.get("/users/me");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("3");
      remaining.push(res.headers.get("x-ratelimit-remaining"));
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const limited = await client.get("/users/me");
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      result: "error",
      code: "RATE_LIMIT_HIT",
      msg: "API usage exceeded rate limit",
      "retry-after": expect.any(Number),
    });
    expect(limited.body["retry-after"]).toBeGreaterThan(0);
    expect(limited.body["retry-after"]).toBeLessThanOrEqual(60);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    // Another user has their own budget.
    expect((await server.as(server.users.other).get("/users/me")).status).toBe(200);
  });

  it("limits unauthenticated requests per IP", async () => {
    expect((await server.anonymous().get("/server_settings")).status).toBe(200);
    expect((await server.anonymous().get("/server_settings")).status).toBe(200);
    const res = await server.anonymous().get("/server_settings");
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("RATE_LIMIT_HIT");
  });
});

describe("with REDIS_URL, several processes", () => {
  let first: TestServer;
  let second: Awaited<ReturnType<typeof startSecondServer>>;
  beforeAll(async () => {
    first = await startTestServer({ REDIS_URL, RATE_LIMIT_USER_REQUESTS: "4" });
    second = await startSecondServer(first);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("enforce one shared limit", async () => {
    const a = first.as(first.users.other);
    const b = second.as(first.users.other);
    expect((await a.get("/users/me")).status).toBe(200);
    expect((await b.get("/users/me")).status).toBe(200);
    expect((await a.get("/users/me")).status).toBe(200);
    expect((await b.get("/users/me")).headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await a.get("/users/me")).status).toBe(429);
  });

  it("deliver events caused on one process to a queue held by another", async () => {
    const reg = await first.as(first.users.admin).post("/register", { event_types: ["message"] });
    const poll = first.as(first.users.admin).get("/events", { queue_id: reg.body.queue_id, last_event_id: -1 });
    const sent = await second
      .as(first.users.member)
      .post("/messages", { type: "stream", to: "general", topic: "redis", content: "across processes" });
    expect(sent.status).toBe(200);
    const res = await poll;
    expect(res.body.events.map((e: { message: { id: number } }) => e.message.id)).toEqual([sent.body.id]);
  });
});
