// GET /realm/emoji, POST /realm/emoji/{emoji_name} (multipart image), DELETE /realm/emoji/{emoji_name}.
import { ok } from "../http/envelope";
import { parseParams } from "../http/params";
import { createFileStore } from "../services/uploads/fileStore";
import { addRealmEmoji, realmEmojiState, removeRealmEmoji } from "../services/uploads/realmEmoji";
import { uploadedFiles } from "./uploadedFiles";
import { actor, type RouteKit } from "./routeKit";

export function realmEmojiRoutes({ router, deps, auth }: RouteKit): void {
  const store = createFileStore(deps.config.uploadsDir);

  router.get("/realm/emoji", auth, async (ctx) => {
    const { realm } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { emoji: await realmEmojiState(deps.db, realm.id) });
  });

  router.post("/realm/emoji/:emoji_name", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    const files = uploadedFiles(ctx).map((f) => ({ tempPath: f.tempPath, size: f.size }));
    const notifications = await addRealmEmoji(deps.db, store, {
      realm,
      user,
      rawName: ctx.params.emoji_name,
      files,
      maxBytes: deps.config.limits.maxEmojiBytes,
    });
    await deps.bus.publish(notifications);
    ok(ctx);
  });

  router.delete("/realm/emoji/:emoji_name", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    await deps.bus.publish(await removeRealmEmoji(deps.db, { realm, user, rawName: ctx.params.emoji_name }));
    ok(ctx);
  });
}
