// createApp(deps) → the Koa app with its middleware and routers. It never listens.
import crypto from "node:crypto";
import Koa from "koa";
import type { AppDeps } from "./deps";
import { apiRouter } from "./api";
import { bodyParser } from "./http/bodyParser";
import { errorHandler } from "./http/errorHandler";
import { redactUrl } from "./logger";
import { webhookRouter } from "./webhooks/route";
import { userFilesRouter } from "./api/userFiles";

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = process.env.TRUST_PROXY === "true";

  // Request id + one access-log line per request, with secrets stripped from the URL.
  app.use(async (ctx, next) => {
    const started = Date.now();
    ctx.state.requestId = ctx.get("x-request-id") || crypto.randomUUID();
    ctx.set("X-Request-Id", ctx.state.requestId);
    ctx.state.log = deps.logger.child({ requestId: ctx.state.requestId });
    try {
      await next();
    } finally {
      ctx.state.log.info({ method: ctx.method, url: redactUrl(ctx.url), status: ctx.status, ms: Date.now() - started }, "request");
    }
  });
  app.use(errorHandler());

  const parseBody = bodyParser({
    maxBodyBytes: deps.config.limits.maxBodyBytes,
    maxUploadBytes: deps.config.limits.maxUploadBytes,
    uploadDir: deps.config.uploadsDir,
  });
  // Webhook routes read their own raw body (signatures are computed over the exact bytes).
  app.use(async (ctx, next) => (ctx.path.startsWith("/api/v1/external/") ? next() : parseBody(ctx, next)));

  const webhooks = webhookRouter(deps);
  app.use(webhooks.routes());
  // Bare /user_uploads/... (the links inside messages) and custom emoji images.
  app.use(userFilesRouter(deps).routes());
  const api = apiRouter(deps);
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: false }));
  return app;
}
