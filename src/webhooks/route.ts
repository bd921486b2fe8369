// POST /api/v1/external/:name — the webhook front door (built out by the webhook framework).
import { Router } from "@koa/router";
import type { AppDeps } from "../deps";

export function webhookRouter(_deps: AppDeps): Router {
  return new Router({ prefix: "/api/v1/external" });
}
