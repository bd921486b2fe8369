// GET /users/me, GET /users, GET /users/{id}.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { getUser, listUsers, ownUser } from "../services/users/directory";
import { actor, pathInt, type RouteKit } from "./routeKit";

export function usersRoutes({ router, deps, auth }: RouteKit): void {
  router.get("/users/me", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { include_custom_profile_fields: P.bool().default(false) });
    ok(ctx, await ownUser(deps.db, realm, user, p.include_custom_profile_fields));
  });

  router.get("/users", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      client_gravatar: P.bool().default(true),
      include_custom_profile_fields: P.bool().default(false),
      user_ids: P.json<number[]>({ type: "array", items: { type: "integer" } }, "a list of integers"),
    });
    const members = await listUsers(deps.db, realm, user, {
      userIds: p.user_ids,
      includeCustomProfileFields: p.include_custom_profile_fields,
    });
    ok(ctx, { members });
  });

  router.get("/users/:user_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      client_gravatar: P.bool().default(true),
      include_custom_profile_fields: P.bool().default(false),
    });
    const id = pathInt(ctx, "user_id");
    ok(ctx, { user: await getUser(deps.db, realm, user, id, p.include_custom_profile_fields) });
  });
}
