// PATCH /api/v1/bots/{bot_id}/webhook_secret — set (or, with an empty `secret`, clear) the
// secret used to verify signed webhook deliveries. Kept out of the URL on purpose.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { MAX_WEBHOOK_SECRET_LENGTH, setBotWebhookSecret } from "../services/webhooks/secrets";
import { actor, pathInt, type RouteKit } from "./routeKit";

export function webhookSecretRoutes({ router, deps, auth }: RouteKit): void {
  router.patch("/bots/:bot_id/webhook_secret", auth, async (ctx) => {
    const botId = pathInt(ctx, "bot_id");
    const p = parseParams(ctx, { secret: P.string({ maxLength: MAX_WEBHOOK_SECRET_LENGTH }).required() });
    const result = await setBotWebhookSecret(deps.db, actor(ctx), botId, p.secret);
    ok(ctx, { has_webhook_secret: result.hasSecret });
  });
}
