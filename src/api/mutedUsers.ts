// POST / DELETE /users/me/muted_users/{muted_user_id}.
import { parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { muteUser, unmuteUser } from "../services/users/mutedUsers";
import { actor, pathInt, type RouteKit } from "./routeKit";

export function mutedUsersRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/users/me/muted_users/:muted_user_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    const notifications = await muteUser(deps.db, realm, user, pathInt(ctx, "muted_user_id"));
    await deps.bus.publish(notifications);
    ok(ctx);
  });

  router.delete("/users/me/muted_users/:muted_user_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    const notifications = await unmuteUser(deps.db, realm, user, pathInt(ctx, "muted_user_id"));
    await deps.bus.publish(notifications);
    ok(ctx);
  });
}
