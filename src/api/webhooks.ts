// POST /api/v1/external/:name — the webhook front door, thin on purpose: find the integration,
// authenticate, read the raw body, hand it to the webhook service (pipeline, de-duplication,
// posting), answer, and record the delivery in the log once the answer is written. HEAD/GET answer set-up probes for integrations that declare `setupProbe`.
import type { Context } from "koa";
import { Router } from "@koa/router";
import type { AppDeps } from "../deps";
import { Errors } from "../errors";
import { MAX_SETUP_PROBE_ECHO_CHARS } from "../limits";
import { authenticateWebhook, parseBasicAuth } from "../http/auth";
import { parseUrlencoded, readRawBody } from "../http/bodyParser";
import { ok } from "../http/envelope";
import type { DeliveryTrace } from "../services/webhooks/ingest";
import { realmUrl } from "../services/realms/realms";

function headerMap(ctx: Context): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(ctx.headers))
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

export function webhookRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: "/api/v1/external" });

  // Services that check the URL before saving it (Trello, Intercom…). A key, when given, must be
  // valid; nothing is posted. Other integrations do not answer GET (@koa/router routes HEAD here too).
  // With `echoQuery` the probe's parameter is echoed (Dropbox's `challenge`), as plain text that no
  // browser may read as anything else.
  router.get("/:name", async (ctx, next) => {
    const integration = deps.integrations.get(ctx.params.name);
    const probe = integration?.manifest.setupProbe;
    if (!probe) return next();
    const query = parseUrlencoded(ctx.querystring, "Query string");
    if (query.api_key !== undefined || parseBasicAuth(ctx.get("authorization")))
      await authenticateWebhook(deps, ctx, query);
    const echo = typeof probe === "object" ? probe.echoQuery : undefined;
    const value = echo === undefined ? undefined : query[echo];
    if (echo === undefined || value === undefined) return ok(ctx);
    if ([...value].length > MAX_SETUP_PROBE_ECHO_CHARS)
      throw Errors.invalidParam(
        echo,
        `Invalid '${echo}': longer than ${MAX_SETUP_PROBE_ECHO_CHARS} characters (MAX_SETUP_PROBE_ECHO_CHARS)`,
      );
    ctx.status = 200;
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.type = "text/plain; charset=utf-8";
    ctx.body = value;
  });

  // Senders that append a path to the URL they are given (ntfy's `/<topic>`, Gotify's `/message`):
  // a plugin declaring pathOption reads that one segment as a URL option; others answer 404.
  router.post(["/:name", "/:name/:segment"], async (ctx) => {
    const integration = deps.integrations.get(ctx.params.name);
    if (!integration) throw Errors.notFound(`No integration named '${ctx.params.name}'`);
    const pathOption = integration.manifest.pathOption;
    if (ctx.params.segment !== undefined && !pathOption)
      throw Errors.notFound(
        `${integration.manifest.displayName} takes no path after /api/v1/external/${integration.name}`,
      );
    const query = parseUrlencoded(ctx.querystring, "Query string");
    if (pathOption && ctx.params.segment && query[pathOption] === undefined) query[pathOption] = ctx.params.segment;
    const { user: bot, realm } = await authenticateWebhook(deps, ctx, query);
    const startedMs = Date.now();
    const headers = headerMap(ctx);
    let trace: DeliveryTrace = {};
    let body: Buffer = Buffer.alloc(0);
    // Logged once the answer is written (status and error code final): never in the answer's way.
    ctx.res.once("close", () => {
      const answer = (ctx.body ?? {}) as { result?: string; code?: string; msg?: string };
      const failed = answer.result === "error";
      deps.webhookOps.log.record({
        realmId: realm.id,
        botId: bot.id,
        integration: integration.name,
        ...trace,
        startedMs,
        finishedMs: Date.now(),
        status: ctx.status,
        code: failed ? answer.code : undefined,
        outcome: failed ? "error" : (trace.outcome ?? "ignored"),
        error: failed ? answer.msg : undefined,
        headers,
        query,
        body,
        signatureHeader: integration.manifest.signature?.header,
      });
    });
    body = await readRawBody(ctx, deps.config.limits.maxWebhookBodyBytes);
    const ingested = await deps.webhookOps.ingest({
      integration,
      realm,
      bot,
      path: ctx.path,
      headers,
      query,
      body,
      receivedAt: startedMs,
      // As the sender addressed it, for signatures over the URL (Mandrill's): the organization's
      // public URL, then the path and the raw query string exactly as received.
      url: realmUrl(realm, deps.config.externalUrl) + ctx.originalUrl,
    });
    trace = ingested.trace;
    if (ingested.error !== undefined) throw ingested.error;
    // The plugin's answer fields (manifest `reply`: Slack's challenge, HelloSign's msg).
    ok(ctx, ingested.reply);
  });

  return router;
}
