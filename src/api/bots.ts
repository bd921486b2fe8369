// Bots: POST / GET /bots, PATCH / DELETE /bots/{bot_id}, GET /bots/{bot_id}/api_key,
// POST /bots/{bot_id}/api_key/regenerate, and POST /users/{user_id}/reactivate for bots.
import { ok } from "../http/envelope";
import { P, parseParams } from "../http/params";
import {
  addBot,
  deactivateBot,
  isBotOfRealm,
  listOwnBots,
  reactivateBot,
  regenerateBotApiKey,
  showBotApiKey,
  updateBot,
} from "../services/users/bots";
import { actor, pathInt, type RouteKit } from "./routeKit";

/** A URL given JSON-encoded (the reference's Json[str], as its clients send it) or plainly. */
const jsonUrl = () =>
  P.custom((raw, name) => {
    const text = P.string().parse(raw, name) as string;
    if (!text.trimStart().startsWith('"')) return text;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === "string") return value;
    } catch {
      /* not JSON: checked as a URL below */
    }
    return text;
  });

export function botsRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/bots", auth, async (ctx) => {
    const p = parseParams(ctx, {
      full_name: P.string().required(),
      short_name: P.string().required(),
      bot_type: P.jsonInt().default(1),
      default_sending_stream: P.string(),
      default_events_register_stream: P.string(),
      default_all_public_streams: P.bool(),
      payload_url: jsonUrl(),
      interface_type: P.jsonInt(),
      service_name: P.string(),
    });
    const created = await addBot(deps.db, actor(ctx), deps.config.externalUrl, {
      fullName: p.full_name,
      shortName: p.short_name,
      botType: p.bot_type,
      defaultSendingStream: p.default_sending_stream,
      defaultEventsRegisterStream: p.default_events_register_stream,
      defaultAllPublicStreams: p.default_all_public_streams,
      payloadUrl: p.payload_url,
      interfaceType: p.interface_type,
      serviceName: p.service_name,
    });
    await deps.bus.publish(created.notifications);
    ok(ctx, created.response);
  });

  router.get("/bots", auth, async (ctx) => {
    parseParams(ctx, {});
    ok(ctx, { bots: await listOwnBots(deps.db, actor(ctx)) });
  });

  router.patch("/bots/:bot_id", auth, async (ctx) => {
    const botId = pathInt(ctx, "bot_id");
    const p = parseParams(ctx, {
      full_name: P.string(),
      role: P.jsonInt(),
      bot_owner_id: P.jsonInt(),
      default_sending_stream: P.string(),
      default_events_register_stream: P.string(),
      default_all_public_streams: P.bool(),
      service_payload_url: jsonUrl(),
      service_interface: P.jsonInt(),
    });
    const { response, notifications } = await updateBot(deps.db, actor(ctx), botId, {
      fullName: p.full_name,
      role: p.role,
      botOwnerId: p.bot_owner_id,
      defaultSendingStream: p.default_sending_stream,
      defaultEventsRegisterStream: p.default_events_register_stream,
      defaultAllPublicStreams: p.default_all_public_streams,
      servicePayloadUrl: p.service_payload_url,
      serviceInterface: p.service_interface,
    });
    await deps.bus.publish(notifications);
    ok(ctx, response);
  });

  router.delete("/bots/:bot_id", auth, async (ctx) => {
    const botId = pathInt(ctx, "bot_id");
    parseParams(ctx, {});
    await deps.bus.publish(await deactivateBot(deps.db, actor(ctx), botId));
    ok(ctx);
  });

  router.get("/bots/:bot_id/api_key", auth, async (ctx) => {
    const botId = pathInt(ctx, "bot_id");
    parseParams(ctx, {});
    await showBotApiKey(deps.db, actor(ctx), botId);
  });

  router.post("/bots/:bot_id/api_key/regenerate", auth, async (ctx) => {
    const botId = pathInt(ctx, "bot_id");
    parseParams(ctx, {});
    ok(ctx, { api_key: await regenerateBotApiKey(deps.db, actor(ctx), botId) });
  });

  // Only bots are reactivated here; reactivating people is user management's (a later route).
  router.post("/users/:user_id/reactivate", auth, async (ctx, next) => {
    const id = pathInt(ctx, "user_id");
    parseParams(ctx, {});
    if (!(await isBotOfRealm(deps.db, actor(ctx).realm.id, id))) return next();
    await deps.bus.publish(await reactivateBot(deps.db, actor(ctx), id));
    ok(ctx);
  });
}
