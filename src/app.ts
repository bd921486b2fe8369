// createApp(deps) → the Koa app with its middleware and routers. It never listens.
import crypto from "node:crypto";
import Koa from "koa";
import type { Logger } from "pino";
import type { AppDeps } from "./deps";
import { apiRouter } from "./api";
import { errorHandler } from "./http/errorHandler";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnreachable } from "./services/health/database";
import { redactUrl } from "./logger";
import { webhookRouter } from "./api/webhooks";
import { userFilesRouter } from "./api/userFiles";
import { realmIconRouter } from "./api/realmIcon";
import { webRouter } from "./web/router";
import { joinPageRouter } from "./web/joinPage";
import { accountPagesRouter } from "./web/accountPages";
import { botPagesRouter } from "./web/botPages";
import { refuseCrossSite } from "./http/crossSite";

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = deps.config.trustProxy;

  // Request id + one access-log line per request, with secrets stripped from the URL.
  app.use(async (ctx, next) => {
    const started = Date.now();
    ctx.state.requestId = ctx.get("x-request-id") || crypto.randomUUID();
    ctx.set("X-Request-Id", ctx.state.requestId);
    // The request's logger is made only when something logs through it (an error): a child logger per
    // request costs more than the access line itself. The access line names the request and user directly.
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, "log", {
      get: () => (log ??= deps.logger.child({ requestId: ctx.state.requestId, userId: ctx.state.user?.id })),
      set: (value: Logger) => (log = value),
      configurable: true,
      enumerable: true,
    });
    try {
      await next();
    } finally {
      if (deps.logger.isLevelEnabled("info")) {
        deps.logger.info(
          {
            requestId: ctx.state.requestId,
            ...(ctx.state.user ? { userId: ctx.state.user.id } : {}),
            method: ctx.method,
            url: redactUrl(ctx.url),
            status: ctx.status,
            ms: Date.now() - started,
          },
          "request",
        );
      }
    }
  });
  app.use(
    errorHandler({
      isDatabaseUnreachable,
      onDatabaseUnreachable: (err) => deps.databaseHealth?.failed(err),
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    }),
  );

  // A browser's state-changing request from another site is refused before anything else (http/crossSite.ts).
  app.use(refuseCrossSite(deps));

  // Bodies are read per route, after authentication (api/index.ts; the webhook route reads its own
  // raw body, as signatures are computed over the exact bytes): a refused request is never read.
  const webhooks = webhookRouter(deps);
  app.use(webhooks.routes());
  // Bare /user_uploads/... (the links inside messages) and custom emoji images.
  app.use(userFilesRouter(deps).routes());
  // The default organization icon (`realm_icon`).
  app.use(realmIconRouter().routes());
  // Sign-in and sign-out pages (/login/, /logout/).
  app.use(accountPagesRouter(deps).routes());
  // A bot owner's bots (/bots/).
  app.use(botPagesRouter(deps).routes());
  // Accepting invitations (/join/<key>/).
  app.use(joinPageRouter(deps).routes());
  // The integrations catalogue page (/integrations/).
  app.use(webRouter(deps).routes());
  const api = apiRouter(deps);
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: false }));
  return app;
}
