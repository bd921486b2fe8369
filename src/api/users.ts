// GET /users/me, GET /users, GET /users/{id}.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { Errors } from "../errors";
import { latestMessageId } from "../db/messages";
import { findUserById, listRealmUsers } from "../db/users";
import { formatUser } from "../services/userFormat";
import { isAdmin } from "../services/users";
import { userProfileExtras } from "../services/userProfileExtras";
import { actor, pathInt, type RouteKit } from "./routeKit";

export function usersRoutes({ router, deps, auth }: RouteKit): void {
  router.get("/users/me", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { include_custom_profile_fields: P.bool().default(false) });
    const extras = await userProfileExtras(deps.db, realm, [user], p.include_custom_profile_fields);
    ok(ctx, {
      ...formatUser(user, { viewerIsAdmin: true }),
      ...(extras.get(user.id) ?? {}),
      max_message_id: await latestMessageId(deps.db, realm.id),
    });
  });

  router.get("/users", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      client_gravatar: P.bool().default(true),
      include_custom_profile_fields: P.bool().default(false),
      user_ids: P.json<number[]>({ type: "array", items: { type: "integer" } }, "a list of integers"),
    });
    let users = await listRealmUsers(deps.db, realm.id);
    if (p.user_ids) users = users.filter((u) => p.user_ids!.includes(u.id));
    const extras = await userProfileExtras(deps.db, realm, users, p.include_custom_profile_fields);
    const admin = isAdmin(user);
    ok(ctx, { members: users.map((u) => ({ ...formatUser(u, { viewerIsAdmin: admin }), ...(extras.get(u.id) ?? {}) })) });
  });

  router.get("/users/:user_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      client_gravatar: P.bool().default(true),
      include_custom_profile_fields: P.bool().default(false),
    });
    const target = await findUserById(deps.db, realm.id, pathInt(ctx, "user_id"));
    if (!target) throw Errors.badRequest("No such user");
    const extras = await userProfileExtras(deps.db, realm, [target], p.include_custom_profile_fields);
    ok(ctx, { user: { ...formatUser(target, { viewerIsAdmin: isAdmin(user) }), ...(extras.get(target.id) ?? {}) } });
  });
}
