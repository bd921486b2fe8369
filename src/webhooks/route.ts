// POST /api/v1/external/:name — the webhook front door. Thin on purpose: find the plugin,
// authenticate, rate-limit, read the raw body, run the pure pipeline, deliver, answer.
import type { Context } from "koa";
import { Router } from "@koa/router";
import type { AppDeps } from "../deps";
import { ApiError, Errors } from "../errors";
import { hostSubdomain, parseBasicAuth } from "../http/auth";
import { parseUrlencoded, readRawBody } from "../http/bodyParser";
import { ok } from "../http/envelope";
import { consume } from "../http/rateLimit";
import { authenticateApiKey, type Actor } from "../services/auth";
import { deliverWebhookMessages, findWebhookStream, parseStreamParam } from "./deliver";
import { noticeText, OwnerNotices } from "./notices";
import { runPipeline, type Outcome } from "./pipeline";
import type { Integration } from "./registry";

export const clientName = (integration: Integration) => `Zulip${integration.manifest.displayName.replace(/[^A-Za-z0-9]/g, "")}Webhook`;

function headerMap(ctx: Context): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(ctx.headers)) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

async function authenticate(deps: AppDeps, ctx: Context, query: Record<string, string>): Promise<Actor> {
  const basic = parseBasicAuth(ctx.get("authorization"));
  const apiKey = query.api_key ?? basic?.key;
  if (!apiKey) {
    await consume(ctx, deps.rateLimits.byIp, ctx.ip, deps.rateLimits.enabled);
    throw Errors.missingParam("api_key");
  }
  const email = query.api_key === undefined ? basic?.email : undefined;
  const actor = await authenticateApiKey(deps.db, apiKey, email, hostSubdomain(ctx.host, deps.config.rootDomain));
  await consume(ctx, deps.rateLimits.byUser, `user:${actor.user.id}`, deps.rateLimits.enabled);
  return actor;
}

export function webhookRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: "/api/v1/external" });
  const notices = new OwnerNotices(deps);
  const unsupportedLog = deps.logger.child({ logger: "webhooks.unsupported" });

  router.post("/:name", async (ctx) => {
    const integration = deps.integrations.get(ctx.params.name);
    if (!integration) throw Errors.notFound(`No integration named '${ctx.params.name}'`);
    const { displayName } = integration.manifest;
    const query = parseUrlencoded(ctx.querystring, "Query string");
    const { user: bot, realm } = await authenticate(deps, ctx, query);
    const body = await readRawBody(ctx, deps.config.limits.maxWebhookBodyBytes);

    let outcome: Outcome;
    try {
      outcome = runPipeline(integration, { headers: headerMap(ctx), query, body, secret: bot.webhook_secret });
    } catch (err) {
      // Misconfigurations the bot owner can fix get a (rate-limited) direct message too.
      if (err instanceof ApiError && err.code === "INVALID_JSON") {
        await notices.send(realm, bot, `json:${integration.name}`, noticeText.invalidJson(bot, displayName));
      } else if (err instanceof ApiError && err.code === "MISSING_HTTP_EVENT_HEADER") {
        await notices.send(realm, bot, `header:${integration.name}`, noticeText.missingHeader(bot, displayName, ctx.path, String(err.extra.header)));
      }
      throw err;
    }

    if (outcome.kind === "unsupported") {
      const count = deps.integrations.countUnsupported(integration.name);
      unsupportedLog.info({ integration: integration.name, eventType: outcome.event.eventType, count }, "unsupported webhook event");
      throw new ApiError("UNSUPPORTED_WEBHOOK_EVENT_TYPE", `The '${outcome.event.eventType}' event isn't currently supported by the ${displayName} webhook; ignoring`, {
        webhook_name: displayName,
        event_type: outcome.event.eventType,
      });
    }
    if (outcome.kind === "messages") {
      const streamParam = parseStreamParam(query.stream);
      const stream = streamParam === undefined ? undefined : await findWebhookStream(deps.db, realm.id, streamParam);
      if (streamParam !== undefined && !stream) {
        await notices.send(realm, bot, `stream:${streamParam}`, noticeText.missingChannel(bot, streamParam));
        throw typeof streamParam === "number" ? Errors.streamIdNotFound(streamParam) : Errors.streamNameNotFound(streamParam);
      }
      const result = await deliverWebhookMessages(deps.db, { realm, bot, client: clientName(integration), stream, messages: outcome.messages });
      await deps.bus.publish(result.notifications);
    }
    ok(ctx);
  });

  return router;
}
