// People: presence (POST /users/me/presence, GET /realm/presence, GET /users/{user}/presence),
// POST /users (administrators create accounts), GET /user_groups, alert words
// (GET/POST/DELETE /users/me/alert_words) and bot storage (GET/PUT/DELETE /bot_storage).
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { MAX_FULL_NAME_LENGTH } from "../limits";
import { userGroupObjects } from "../services/groups/list";
import { addUserAlertWords, alertWordsState, removeUserAlertWords } from "../services/people/alertWords";
import { getBotStorage, putBotStorageEntries, removeBotStorage } from "../services/people/botStorage";
import { createUserByAdmin } from "../services/people/createUser";
import { presenceState, reportPresence, userPresence } from "../services/people/presence";
import { actor, type RouteKit } from "./routeKit";

const stringList = () => P.json<string[]>({ type: "array", items: { type: "string" } }, "a list of strings");

export function peopleRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/users/me/presence", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      status: P.enum(["active", "idle"] as const).required(),
      ping_only: P.bool().default(false),
      new_user_input: P.bool().default(false),
      slim_presence: P.bool().default(false),
      last_update_id: P.int({ min: -1 }),
      history_limit_days: P.int({ min: 0 }),
    });
    await deps.bus.publish(await reportPresence(deps.db, realm, user, p.status));
    if (p.ping_only) return ok(ctx);
    const state = await presenceState(deps.db, realm, {
      slim: p.slim_presence,
      lastUpdateId: p.last_update_id,
      historyLimitDays: p.history_limit_days,
    });
    ok(ctx, state);
  });

  router.get("/realm/presence", auth, async (ctx) => {
    const { realm } = actor(ctx);
    parseParams(ctx, {});
    const { presences, server_timestamp } = await presenceState(deps.db, realm, { slim: false });
    ok(ctx, { presences, server_timestamp });
  });

  router.get("/users/:user_id_or_email/presence", auth, async (ctx) => {
    const { realm } = actor(ctx);
    parseParams(ctx, {});
    const target = (ctx.params as Record<string, string>).user_id_or_email;
    ok(ctx, { presence: await userPresence(deps.db, realm, decodeURIComponent(target)) });
  });

  router.post("/users", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      email: P.string({ maxLength: 254 }).required(),
      password: P.string().required(),
      full_name: P.name({ minLength: 1, maxLength: MAX_FULL_NAME_LENGTH }).required(),
    });
    const created = await createUserByAdmin(deps.db, realm, user, {
      email: p.email,
      password: p.password,
      fullName: p.full_name,
    });
    await deps.bus.publish(created.notifications);
    ok(ctx, { user_id: created.userId });
  });

  router.get("/user_groups", auth, async (ctx) => {
    const { realm } = actor(ctx);
    const p = parseParams(ctx, { include_deactivated_groups: P.bool().default(false) });
    ok(ctx, {
      user_groups: await userGroupObjects(deps.db, realm, { includeDeactivated: p.include_deactivated_groups }),
    });
  });

  router.get("/users/me/alert_words", auth, async (ctx) => {
    const { user } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { alert_words: await alertWordsState(deps.db, user) });
  });

  router.post("/users/me/alert_words", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, { alert_words: stringList().required() });
    const { words, notifications } = await addUserAlertWords(deps.db, user, p.alert_words);
    await deps.bus.publish(notifications);
    ok(ctx, { alert_words: words });
  });

  router.delete("/users/me/alert_words", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, { alert_words: stringList().required() });
    const { words, notifications } = await removeUserAlertWords(deps.db, user, p.alert_words);
    await deps.bus.publish(notifications);
    ok(ctx, { alert_words: words });
  });

  router.get("/bot_storage", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, { keys: stringList() });
    ok(ctx, { storage: await getBotStorage(deps.db, user, p.keys) });
  });

  router.put("/bot_storage", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, {
      storage: P.json<Record<string, unknown>>({ type: "object" }, "a dict").required(),
    });
    await putBotStorageEntries(deps.db, user, p.storage);
    ok(ctx);
  });

  router.delete("/bot_storage", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, { keys: stringList() });
    await removeBotStorage(deps.db, user, p.keys);
    ok(ctx);
  });
}
