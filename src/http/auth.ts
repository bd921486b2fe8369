// HTTP Basic auth (API email + API key) for the REST API; sets ctx.state.user and ctx.state.realm.
import type { Context, Next } from "koa";
import type { AppDeps } from "../deps";
import { ApiError, Errors } from "../errors";
import { authenticateApiKey, type Actor } from "../services/users/auth";
import { isIncomingWebhookBot } from "../services/users/users";
import { consume, countFailure, refuseWhenExhausted } from "./rateLimit";
import { sessionActorForApi } from "../web/session";

/** Answers that mean "these credentials are wrong" (counted against the failure budgets). */
const CREDENTIAL_FAILURES = new Set(["INVALID_API_KEY", "UNAUTHORIZED"]);

/**
 * API key (+ email) → actor, throttling guessers: an IP or an email past its budget of failed
 * authentications gets 429 instead of 401 for further wrong credentials. Valid credentials are
 * always checked and accepted: senders such as GitHub deliver for many customers from shared IPs,
 * and one customer's wrong key must not lock the others out. The check is the same indexed lookup
 * of a SHA-256 as any request's; what makes guessing a key hopeless is its 190 bits of entropy
 * (docs/security.md, "Webhook authentication and replay").
 */
export async function authenticateCredentials(
  deps: AppDeps,
  ctx: Context,
  apiKey: string,
  email: string | undefined,
): Promise<Actor> {
  const { rateLimits } = deps;
  try {
    return await authenticateApiKey(deps.db, apiKey, email, hostSubdomain(ctx.host, deps.config.rootDomain));
  } catch (err) {
    if (err instanceof ApiError && CREDENTIAL_FAILURES.has(err.code)) {
      const ipSpent = await countFailure(rateLimits.authFailuresByIp, ctx.ip, rateLimits.enabled);
      const emailKey = email?.toLowerCase();
      const emailSpent = emailKey
        ? await countFailure(rateLimits.authFailuresByEmail, emailKey, rateLimits.enabled)
        : false;
      if (ipSpent) await refuseWhenExhausted(rateLimits.authFailuresByIp, ctx.ip, rateLimits.enabled);
      if (emailSpent && emailKey)
        await refuseWhenExhausted(rateLimits.authFailuresByEmail, emailKey, rateLimits.enabled);
    }
    throw err;
  }
}

/** The realm subdomain named by the Host header, or undefined for the root domain / a bare IP. */
export function hostSubdomain(host: string, rootDomain: string): string | undefined {
  const name = host.replace(/:\d+$/, "").toLowerCase();
  if (name.endsWith(`.${rootDomain}`)) return name.slice(0, -(rootDomain.length + 1));
  return undefined;
}

export function parseBasicAuth(header: string | undefined): { email: string; key: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+(\S.*)$/i.exec(header.trim());
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return undefined;
  return { email: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}

/** `allowWebhookBots`: incoming-webhook bots may call it too (webhook preview: a bot's own key works). */
export function requireUser(deps: AppDeps, options: { allowWebhookBots?: boolean } = {}) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const credentials = parseBasicAuth(ctx.get("authorization"));
    // A signed-in browser calls the API with its session cookie (and X-CSRFToken for changes).
    const session = credentials ? undefined : await sessionActorForApi(ctx, deps);
    if (!credentials && !session) {
      await consume(ctx, deps.rateLimits.byIp, ctx.ip, deps.rateLimits.enabled);
      throw Errors.notLoggedIn();
    }
    const actor = session
      ? { user: session.user, realm: session.realm }
      : await authenticateCredentials(deps, ctx, credentials!.key, credentials!.email).catch((err) => {
          // On the REST API the reference answers a bad key as 401 UNAUTHORIZED (keeping the message,
          // adding WWW-Authenticate); the official clients' tests expect that code. Webhooks keep INVALID_API_KEY.
          if (err instanceof ApiError && err.code === "INVALID_API_KEY") throw Errors.unauthorized(err.message);
          throw err;
        });
    if (isIncomingWebhookBot(actor.user) && !options.allowWebhookBots) throw Errors.webhookBotNotAllowed();
    await consume(ctx, deps.rateLimits.byUser, `user:${actor.user.id}`, deps.rateLimits.enabled);
    // A soft-deactivated user's missed rows are written before the request reads any.
    ctx.state.user = await deps.activity.noteRequest(actor.user);
    ctx.state.realm = actor.realm;
    await next();
  };
}

/** Unauthenticated routes are limited per client IP. */
export function limitByIp(deps: AppDeps) {
  return async (ctx: Context, next: Next): Promise<void> => {
    await consume(ctx, deps.rateLimits.byIp, ctx.ip, deps.rateLimits.enabled);
    await next();
  };
}

/**
 * Incoming webhooks: the bot's API key in the URL (`api_key`), or HTTP Basic (bot email : API key)
 * with the URL carrying only `stream`. Rate-limited per user like the REST API.
 */
export async function authenticateWebhook(deps: AppDeps, ctx: Context, query: Record<string, string>): Promise<Actor> {
  const basic = parseBasicAuth(ctx.get("authorization"));
  const apiKey = query.api_key ?? basic?.key;
  if (!apiKey) {
    await consume(ctx, deps.rateLimits.byIp, ctx.ip, deps.rateLimits.enabled);
    throw Errors.missingParam("api_key");
  }
  const email = query.api_key === undefined ? basic?.email : undefined;
  const actor = await authenticateCredentials(deps, ctx, apiKey, email);
  await consume(ctx, deps.rateLimits.byUser, `user:${actor.user.id}`, deps.rateLimits.enabled);
  return actor;
}
