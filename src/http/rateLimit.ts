// Per-user (authenticated) and per-IP (unauthenticated) request limits, plus budgets of failed
// authentications per IP and per email; in memory, or shared through Redis so several server
// processes enforce one limit. When Redis is unreachable every limiter falls back to an in-process
// "insurance" limiter with the same budget, so an outage degrades to per-process limits instead of
// failing requests. Sets the X-RateLimit-* headers.
import type { Context } from "koa";
import type Redis from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { Errors } from "../errors";

export interface RateLimits {
  byUser: RateLimiterAbstract;
  byIp: RateLimiterAbstract;
  /** Failed authentications per client IP: past the budget, its further failures get 429 (valid keys still work). */
  authFailuresByIp: RateLimiterAbstract;
  /** Failed authentications per email: past the budget, wrong keys for it get 429 instead of 401. */
  authFailuresByEmail: RateLimiterAbstract;
  enabled: boolean;
}

export interface RateLimitOptions {
  enabled: boolean;
  userRequests: number;
  ipRequests: number;
  windowSeconds: number;
  authFailures: number;
}

export function createRateLimits(opts: RateLimitOptions, redis?: Redis, redisPrefix = "switchboard"): RateLimits {
  const make = (keyPrefix: string, points: number) => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: opts.windowSeconds });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${redisPrefix}:rl:${keyPrefix}`,
      points,
      duration: opts.windowSeconds,
      insuranceLimiter: memory,
    });
  };
  return {
    byUser: make("user", opts.userRequests),
    byIp: make("ip", opts.ipRequests),
    authFailuresByIp: make("authfail-ip", opts.authFailures),
    authFailuresByEmail: make("authfail-email", opts.authFailures),
    enabled: opts.enabled,
  };
}

function setHeaders(ctx: Context, limit: number, res: RateLimiterRes): void {
  ctx.set("X-RateLimit-Limit", String(limit));
  ctx.set("X-RateLimit-Remaining", String(Math.max(0, res.remainingPoints)));
  ctx.set("X-RateLimit-Reset", String(Math.ceil((Date.now() + res.msBeforeNext) / 1000)));
}

function rateLimited(limit: number, msBeforeNext: number) {
  const err = Errors.rateLimited(msBeforeNext / 1000);
  // Headers set on ctx are lost when the error handler rewrites the response; carry them.
  Object.assign(err.headers, {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": "0",
    "X-RateLimit-Reset": String(Math.ceil((Date.now() + msBeforeNext) / 1000)),
  });
  return err;
}

/** Consume one request for `key`; throws RATE_LIMIT_HIT (429) when over the limit. */
export async function consume(
  ctx: Context,
  limiter: RateLimiterAbstract,
  key: string,
  enabled: boolean,
): Promise<void> {
  if (!enabled) return;
  try {
    const res = await limiter.consume(key);
    setHeaders(ctx, limiter.points, res);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      setHeaders(ctx, limiter.points, rejection);
      throw rateLimited(limiter.points, rejection.msBeforeNext);
    }
    throw rejection;
  }
}

/** Throws 429 when `key` has already used up its budget (consumes nothing). */
export async function refuseWhenExhausted(limiter: RateLimiterAbstract, key: string, enabled: boolean): Promise<void> {
  if (!enabled) return;
  const res = await limiter.get(key).catch(() => null);
  if (res && res.consumedPoints >= limiter.points) throw rateLimited(limiter.points, res.msBeforeNext);
}

/** Counts one failure for `key`; true when that used up (or exceeded) the budget. */
export async function countFailure(limiter: RateLimiterAbstract, key: string, enabled: boolean): Promise<boolean> {
  if (!enabled) return false;
  try {
    await limiter.consume(key);
    return false;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return true;
    throw rejection;
  }
}
