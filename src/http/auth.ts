// HTTP Basic auth (API email + API key) for the REST API; sets ctx.state.user and ctx.state.realm.
import type { Context, Next } from "koa";
import type { AppDeps } from "../deps";
import { BOT_TYPE } from "../db/rows";
import { ApiError, Errors } from "../errors";
import { authenticateApiKey } from "../services/auth";
import { consume } from "./rateLimit";

/** The realm subdomain named by the Host header, or undefined for the root domain / a bare IP. */
export function hostSubdomain(host: string, rootDomain: string): string | undefined {
  const name = host.replace(/:\d+$/, "").toLowerCase();
  if (name.endsWith(`.${rootDomain}`)) return name.slice(0, -(rootDomain.length + 1));
  return undefined;
}

export function parseBasicAuth(header: string | undefined): { email: string; key: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+(.+)$/i.exec(header.trim());
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return undefined;
  return { email: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}

export function requireUser(deps: AppDeps) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const credentials = parseBasicAuth(ctx.get("authorization"));
    if (!credentials) {
      await consume(ctx, deps.rateLimits.byIp, ctx.ip, deps.rateLimits.enabled);
      throw Errors.notLoggedIn();
    }
    const actor = await authenticateApiKey(deps.db, credentials.key, credentials.email, hostSubdomain(ctx.host, deps.config.rootDomain)).catch((err) => {
      // On the REST API the reference answers a bad key as 401 UNAUTHORIZED (keeping the message,
      // adding WWW-Authenticate); the official clients' tests expect that code. Webhooks keep INVALID_API_KEY.
      if (err instanceof ApiError && err.code === "INVALID_API_KEY") throw Errors.unauthorized(err.message);
      throw err;
    });
    if (actor.user.bot_type === BOT_TYPE.incomingWebhook) throw Errors.webhookBotNotAllowed();
    await consume(ctx, deps.rateLimits.byUser, `user:${actor.user.id}`, deps.rateLimits.enabled);
    ctx.state.user = actor.user;
    ctx.state.realm = actor.realm;
    ctx.state.log = ctx.state.log?.child({ userId: actor.user.id });
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
