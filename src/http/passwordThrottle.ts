// Password checks share the API's budgets of failed authentications (rateLimit.ts: per client IP and
// per email). Unlike an API key (190 random bits), a password can be guessed: once a budget is spent,
// every attempt is refused before the password is even checked, the right one too, or a guesser
// could keep going and learn which guess was right.
import type { Context } from "koa";
import type { AppDeps } from "../deps";
import { ApiError } from "../errors";
import { countFailure, refuseWhenExhausted } from "./rateLimit";

export async function throttledPasswordCheck<T>(
  deps: Pick<AppDeps, "rateLimits">,
  ctx: Context,
  email: string,
  check: () => Promise<T>,
  isFailure: (err: ApiError) => boolean = (err) => err.code === "AUTHENTICATION_FAILED",
): Promise<T> {
  const { rateLimits } = deps;
  const emailKey = email.trim().toLowerCase();
  await refuseWhenExhausted(rateLimits.authFailuresByIp, ctx.ip, rateLimits.enabled);
  if (emailKey) await refuseWhenExhausted(rateLimits.authFailuresByEmail, emailKey, rateLimits.enabled);
  try {
    return await check();
  } catch (err) {
    if (err instanceof ApiError && isFailure(err)) {
      await countFailure(rateLimits.authFailuresByIp, ctx.ip, rateLimits.enabled);
      if (emailKey) await countFailure(rateLimits.authFailuresByEmail, emailKey, rateLimits.enabled);
    }
    throw err;
  }
}
