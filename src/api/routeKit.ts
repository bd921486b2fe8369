// Shared bits for route modules: the router type, the authenticated actor, path ids.
import type { Context, Middleware } from "koa";
import { Router } from "@koa/router";
import type { AppDeps } from "../deps";
import type { RealmRow, UserRow } from "../db/rows";
import { Errors } from "../errors";

export { Router };
export type { AppDeps, Context, Middleware };

export interface RouteKit {
  router: Router;
  deps: AppDeps;
  /** Authenticated (HTTP Basic) and rate-limited per user. */
  auth: Middleware;
  /** Like `auth`, and incoming-webhook bots are admitted too. */
  authWebhookBot: Middleware;
  /** Unauthenticated, rate-limited per IP. */
  open: Middleware;
}

export function actor(ctx: Context): { user: UserRow; realm: RealmRow } {
  return { user: ctx.state.user as UserRow, realm: ctx.state.realm as RealmRow };
}

/** A numeric path parameter; anything else is a 400 naming it. */
export function pathInt(ctx: Context, name: string): number {
  const raw = (ctx.params as Record<string, string>)[name];
  if (!/^\d+$/.test(raw ?? "") || !Number.isSafeInteger(Number(raw)))
    throw Errors.invalidParam(name, `Invalid ${name}`);
  return Number(raw);
}
