// Per-user (authenticated) and per-IP (unauthenticated) request limits, in memory or shared
// through Redis so several server processes enforce one limit. Sets the X-RateLimit-* headers.
import type { Context } from "koa";
import type Redis from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { Errors } from "../errors";

export interface RateLimits {
  byUser: RateLimiterAbstract;
  byIp: RateLimiterAbstract;
  enabled: boolean;
}

export function createRateLimits(
  opts: { enabled: boolean; userRequests: number; ipRequests: number; windowSeconds: number },
  redis?: Redis,
  redisPrefix = "switchboard",
): RateLimits {
  const make = (keyPrefix: string, points: number) =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `${redisPrefix}:rl:${keyPrefix}`, points, duration: opts.windowSeconds })
      : new RateLimiterMemory({ keyPrefix, points, duration: opts.windowSeconds });
  return { byUser: make("user", opts.userRequests), byIp: make("ip", opts.ipRequests), enabled: opts.enabled };
}

function setHeaders(ctx: Context, limit: number, res: RateLimiterRes): void {
  ctx.set("X-RateLimit-Limit", String(limit));
  ctx.set("X-RateLimit-Remaining", String(Math.max(0, res.remainingPoints)));
  ctx.set("X-RateLimit-Reset", String(Math.ceil((Date.now() + res.msBeforeNext) / 1000)));
}

/** Consume one request for `key`; throws RATE_LIMIT_HIT (429) when over the limit. */
export async function consume(ctx: Context, limiter: RateLimiterAbstract, key: string, enabled: boolean): Promise<void> {
  if (!enabled) return;
  try {
    const res = await limiter.consume(key);
    setHeaders(ctx, limiter.points, res);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      setHeaders(ctx, limiter.points, rejection);
      const err = Errors.rateLimited(rejection.msBeforeNext / 1000);
      // Headers set on ctx are lost when the error handler rewrites the response; carry them.
      Object.assign(err.headers, {
        "X-RateLimit-Limit": String(limiter.points),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": String(Math.ceil((Date.now() + rejection.msBeforeNext) / 1000)),
      });
      throw err;
    }
    throw rejection;
  }
}
