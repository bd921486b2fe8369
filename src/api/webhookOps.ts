// Webhook operations (docs/webhook-operations.md): the delivery log and replay, template
// overrides, and preview.
import { ok } from "../http/envelope";
import { P, parseParams } from "../http/params";
import { Errors } from "../errors";
import { parseJson } from "../json";
import { OUTCOMES } from "../services/webhooks/deliveries";
import { MAX_TEMPLATE_LENGTH, MAX_TOPIC_TEMPLATE_LENGTH } from "../services/webhooks/overrides";
import { previewDelivery } from "../services/webhooks/preview";
import { actor, pathInt, type Context, type RouteKit } from "./routeKit";

/** A JSON object, given as an object (JSON body) or as JSON text (form or query). */
const jsonObject = () =>
  P.custom<Record<string, unknown>>((raw, name) => {
    let value = raw;
    if (typeof raw === "string") {
      try {
        value = parseJson(raw);
      } catch {
        throw Errors.invalidJsonParam(name);
      }
    }
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw Errors.invalidParam(name, `${name} is not a JSON object`);
    return value as Record<string, unknown>;
  });

/** Raw text, as given (a webhook body may hold anything, NUL bytes included). */
const rawText = () =>
  P.custom<string>((raw, name) => {
    if (typeof raw !== "string") throw Errors.invalidParam(name, `${name} is not a string`);
    return raw;
  });

function pathText(ctx: Context, name: string): string {
  const value = (ctx.params as Record<string, string>)[name];
  if (!value || value.length > 200) throw Errors.invalidParam(name, `Invalid ${name}`);
  return value;
}

function decodeBody(text: string, encoding: "utf8" | "base64"): Buffer {
  if (encoding === "utf8") return Buffer.from(text, "utf8");
  const compact = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
    throw Errors.invalidParam("body", "body is not valid base64");
  return Buffer.from(compact, "base64");
}

export function webhookOpsRoutes({ router, deps, auth, authWebhookBot }: RouteKit): void {
  const ops = deps.webhookOps;

  router.get("/webhooks/deliveries", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      bot_id: P.int({ min: 1 }),
      integration: P.string({ maxLength: 100 }),
      outcome: P.enum(OUTCOMES),
      since: P.int({ min: 0 }),
      until: P.int({ min: 0 }),
      anchor: P.int({ min: 1 }),
      limit: P.int({ min: 1, max: 200 }).default(50),
    });
    const result = await ops.deliveries.list(realm, user, {
      botId: p.bot_id,
      integration: p.integration,
      outcome: p.outcome,
      since: p.since,
      until: p.until,
      anchor: p.anchor,
      limit: p.limit,
    });
    ok(ctx, result);
  });

  router.get("/webhooks/deliveries/:id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { delivery: await ops.deliveries.get(realm, user, pathInt(ctx, "id")) });
  });

  router.post("/webhooks/deliveries/:id/replay", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { delivery: await ops.deliveries.replay(realm, user, pathInt(ctx, "id")) });
  });

  router.get("/webhooks/overrides", auth, async (ctx) => {
    const { realm } = actor(ctx);
    const p = parseParams(ctx, { integration: P.string({ maxLength: 100 }) });
    ok(ctx, { overrides: await ops.overrides.list(realm, p.integration) });
  });

  router.get("/webhooks/overrides/:integration/:event_key", auth, async (ctx) => {
    const { realm } = actor(ctx);
    parseParams(ctx, {});
    const override = await ops.overrides.get(realm, pathText(ctx, "integration"), pathText(ctx, "event_key"));
    ok(ctx, { override });
  });

  router.put("/webhooks/overrides/:integration/:event_key", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      template: P.string({ maxLength: MAX_TEMPLATE_LENGTH }),
      topic: P.string({ maxLength: MAX_TOPIC_TEMPLATE_LENGTH }),
    });
    const override = await ops.overrides.set(realm, user, pathText(ctx, "integration"), pathText(ctx, "event_key"), {
      template: p.template,
      topic: p.topic,
    });
    ok(ctx, { override });
  });

  router.delete("/webhooks/overrides/:integration/:event_key", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    await ops.overrides.remove(realm, user, pathText(ctx, "integration"), pathText(ctx, "event_key"));
    ok(ctx);
  });

  router.post("/webhooks/preview", authWebhookBot, async (ctx) => {
    const { realm } = actor(ctx);
    const p = parseParams(ctx, {
      integration: P.string({ maxLength: 100 }).required(),
      headers: jsonObject().default({}),
      query: jsonObject().default({}),
      body: rawText().required(),
      body_encoding: P.enum(["utf8", "base64"] as const).default("utf8"),
    });
    const result = await previewDelivery(deps.integrations, ops.overrides, ops.threads, realm, {
      integration: p.integration,
      headers: p.headers,
      query: p.query,
      body: decodeBody(p.body, p.body_encoding),
    });
    ok(ctx, { ...result });
  });
}
