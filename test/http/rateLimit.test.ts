// Rate limiters (src/http/rateLimit.ts) on their own: budgets, headers, the failure counters, and the
// shared Redis store with its in-process fallback (a real Redis; skipped when none answers).
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import Koa, { type Context } from "koa";
import Redis from "ioredis";
import { ApiError } from "../../src/errors";
import { consume, countFailure, createRateLimits, refuseWhenExhausted } from "../../src/http/rateLimit";
import { refusalOfAsync } from "../support/apiErrors";

const options = { enabled: true, userRequests: 3, ipRequests: 2, windowSeconds: 60, authFailures: 2 };

/** A real Koa context around real Node request/response objects (no server needed). */
function newContext(): Context {
  const req = new IncomingMessage(new Socket());
  return new Koa().createContext(req, new ServerResponse(req));
}

const rateHeaders = (ctx: Context) => ({
  limit: ctx.response.get("X-RateLimit-Limit"),
  remaining: ctx.response.get("X-RateLimit-Remaining"),
  reset: ctx.response.get("X-RateLimit-Reset"),
});

const refusal = refusalOfAsync;

describe("per-key request budgets", () => {
  it("counts down in the headers and refuses the request past the budget with 429", async () => {
    const limits = createRateLimits(options);
    const nowSeconds = Math.ceil(Date.now() / 1000);
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ctx = newContext();
      await consume(ctx, limits.byUser, "user:1", true);
      const h = rateHeaders(ctx);
      seen.push(`${h.limit}/${h.remaining}`);
      // Reset is the end of the window, in Unix seconds.
      expect(Number(h.reset)).toBeGreaterThanOrEqual(nowSeconds + 59);
      expect(Number(h.reset)).toBeLessThanOrEqual(nowSeconds + 61);
    }
    expect(seen).toEqual(["3/2", "3/1", "3/0"]);

    const ctx = newContext();
    const err = await refusal(consume(ctx, limits.byUser, "user:1", true));
    expect([err.status, err.code, err.message]).toEqual([429, "RATE_LIMIT_HIT", "API usage exceeded rate limit"]);
    expect(err.headers["X-RateLimit-Limit"]).toBe("3");
    expect(err.headers["X-RateLimit-Remaining"]).toBe("0");
    expect(Number(err.headers["Retry-After"])).toBeGreaterThanOrEqual(59);
    expect(Number(err.headers["Retry-After"])).toBeLessThanOrEqual(60);
    expect(err.headers["X-RateLimit-Reset"]).toBe(rateHeaders(ctx).reset);
    expect(rateHeaders(ctx).remaining).toBe("0");
    expect(err.extra["retry-after"]).toBeGreaterThan(58);
  });

  it("keeps separate budgets per key and per limiter", async () => {
    const limits = createRateLimits(options);
    await consume(newContext(), limits.byIp, "1.1.1.1", true);
    await consume(newContext(), limits.byIp, "1.1.1.1", true);
    await expect(consume(newContext(), limits.byIp, "1.1.1.1", true)).rejects.toBeInstanceOf(ApiError);
    const other = newContext();
    await consume(other, limits.byIp, "2.2.2.2", true);
    expect(rateHeaders(other)).toMatchObject({ limit: "2", remaining: "1" });
    const user = newContext();
    await consume(user, limits.byUser, "1.1.1.1", true);
    expect(rateHeaders(user)).toMatchObject({ limit: "3", remaining: "2" });
  });

  it("does nothing at all when limits are disabled", async () => {
    const limits = createRateLimits({ ...options, enabled: false });
    expect(limits.enabled).toBe(false);
    for (let i = 0; i < 5; i++) {
      const ctx = newContext();
      await consume(ctx, limits.byIp, "k", false);
      expect(rateHeaders(ctx)).toEqual({ limit: undefined, remaining: undefined, reset: undefined });
    }
    expect(await limits.byIp.get("k")).toBeNull();
  });

  it("gives each limiter its configured budget", () => {
    const limits = createRateLimits({ ...options, userRequests: 7, ipRequests: 5, authFailures: 4 });
    expect([
      limits.byUser.points,
      limits.byIp.points,
      limits.authFailuresByIp.points,
      limits.authFailuresByEmail.points,
    ]).toEqual([7, 5, 4, 4]);
    expect(limits.byUser.duration).toBe(60);
    expect(limits.enabled).toBe(true);
  });
});

describe("failure budgets", () => {
  it("countFailure is false until the failure that spends the budget", async () => {
    const limits = createRateLimits(options);
    expect(await countFailure(limits.authFailuresByIp, "ip", true)).toBe(false);
    expect(await countFailure(limits.authFailuresByIp, "ip", true)).toBe(false);
    expect(await countFailure(limits.authFailuresByIp, "ip", true)).toBe(true);
    expect(await countFailure(limits.authFailuresByIp, "ip", true)).toBe(true);
    expect(await countFailure(limits.authFailuresByIp, "other", true)).toBe(false);
  });

  it("refuseWhenExhausted refuses only once the budget is used up, and consumes nothing", async () => {
    const limits = createRateLimits(options);
    await refuseWhenExhausted(limits.authFailuresByEmail, "a@x", true);
    expect(await limits.authFailuresByEmail.get("a@x")).toBeNull();
    await countFailure(limits.authFailuresByEmail, "a@x", true);
    await refuseWhenExhausted(limits.authFailuresByEmail, "a@x", true);
    expect((await limits.authFailuresByEmail.get("a@x"))?.consumedPoints).toBe(1);
    await countFailure(limits.authFailuresByEmail, "a@x", true);
    const err = await refusal(refuseWhenExhausted(limits.authFailuresByEmail, "a@x", true));
    expect([err.status, err.code, err.headers["X-RateLimit-Limit"], err.headers["X-RateLimit-Remaining"]]).toEqual([
      429,
      "RATE_LIMIT_HIT",
      "2",
      "0",
    ]);
  });

  it("counts and refuses nothing when disabled", async () => {
    const limits = createRateLimits(options);
    for (let i = 0; i < 4; i++) expect(await countFailure(limits.authFailuresByIp, "ip", false)).toBe(false);
    expect(await limits.authFailuresByIp.get("ip")).toBeNull();
    await countFailure(limits.authFailuresByIp, "ip", true);
    await countFailure(limits.authFailuresByIp, "ip", true);
    await expect(refuseWhenExhausted(limits.authFailuresByIp, "ip", false)).resolves.toBeUndefined();
    await expect(refuseWhenExhausted(limits.authFailuresByIp, "ip", true)).rejects.toBeInstanceOf(ApiError);
  });
});

describe("limits shared through Redis", () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  let redis: Redis | undefined;
  const prefix = `sbtest${process.pid}x${Date.now()}`;

  beforeAll(async () => {
    const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    try {
      await client.connect();
      redis = client;
    } catch {
      client.disconnect();
    }
  });

  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it("stores budgets under the prefix, so two processes' limiters share one budget", async () => {
    if (!redis) return console.warn("no Redis at " + redisUrl + "; shared-limit test skipped");
    const processA = createRateLimits(options, redis, prefix);
    const processB = createRateLimits(options, redis, prefix);
    await consume(newContext(), processA.byIp, "9.9.9.9", true);
    await consume(newContext(), processB.byIp, "9.9.9.9", true);
    await expect(consume(newContext(), processA.byIp, "9.9.9.9", true)).rejects.toBeInstanceOf(ApiError);
    expect(await redis.keys(`${prefix}:rl:ip:*`)).toEqual([`${prefix}:rl:ip:9.9.9.9`]);
    await countFailure(processB.authFailuresByEmail, "e@x", true);
    expect(await redis.keys(`${prefix}:rl:authfail-email:*`)).toEqual([`${prefix}:rl:authfail-email:e@x`]);
  });

  it("keeps each limiter's keys apart, under the default prefix when none is given", async () => {
    if (!redis) return console.warn("no Redis at " + redisUrl + "; shared-limit test skipped");
    const key = `k${process.pid}x${Date.now()}`;
    const limits = createRateLimits(options, redis);
    try {
      await consume(newContext(), limits.byUser, key, true);
      await consume(newContext(), limits.byIp, key, true);
      await countFailure(limits.authFailuresByIp, key, true);
      await countFailure(limits.authFailuresByEmail, key, true);
      expect((await redis.keys(`switchboard:rl:*:${key}`)).sort()).toEqual(
        ["authfail-email", "authfail-ip", "ip", "user"].map((p) => `switchboard:rl:${p}:${key}`),
      );
    } finally {
      const keys = await redis.keys(`switchboard:rl:*:${key}`);
      if (keys.length) await redis.del(...keys);
    }
  });

  it("falls back to an in-process budget of the same size when Redis is gone", async () => {
    const dead = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const limits = createRateLimits(options, dead, prefix);
    const ctx = newContext();
    await consume(ctx, limits.byIp, "5.5.5.5", true);
    expect(rateHeaders(ctx)).toMatchObject({ limit: "2", remaining: "1" });
    await consume(newContext(), limits.byIp, "5.5.5.5", true);
    await expect(consume(newContext(), limits.byIp, "5.5.5.5", true)).rejects.toBeInstanceOf(ApiError);
    dead.disconnect();
  });
});
