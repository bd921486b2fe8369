// POST / DELETE /messages/{message_id}/reactions.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { REACTION_TYPES } from "../services/reactions/emoji";
import { addReaction, removeReaction } from "../services/reactions/reactions";
import { actor, pathInt, type RouteKit } from "./routeKit";

const emojiParams = () => ({
  emoji_code: P.string({ maxLength: 100 }),
  reaction_type: P.enum(REACTION_TYPES),
});

export function reactionsRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/messages/:message_id/reactions", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { emoji_name: P.string({ maxLength: 100 }).required(), ...emojiParams() });
    const input = { emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type };
    await deps.bus.publish(await addReaction(deps.db, realm, user, pathInt(ctx, "message_id"), input));
    ok(ctx);
  });

  router.delete("/messages/:message_id/reactions", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { emoji_name: P.string({ maxLength: 100 }), ...emojiParams() });
    const input = { emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type };
    await deps.bus.publish(await removeReaction(deps.db, realm, user, pathInt(ctx, "message_id"), input));
    ok(ctx);
  });
}
