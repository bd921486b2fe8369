// GET / POST / PATCH / DELETE /users/me/subscriptions.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { ApiError, Errors } from "../errors";
import { userSubscriptions } from "../services/channels/format";
import { TOPICS_POLICIES } from "../services/channels/creation";
import { CHANNEL_GROUP_SETTINGS, GROUP_SETTING_SCHEMA } from "../services/channels/groupSettings";
import type { GroupSettingValue } from "../services/groups/settingValues";
import { subscribe } from "../services/channels/subscribe";
import { unsubscribe } from "../services/channels/unsubscribe";
import { actor, type RouteKit } from "./routeKit";
import { JsonTooDeepError, parseJson } from "../json";
import { updateSubscriptions } from "../services/channels/updateSubscriptions";

const CHANNEL_LIST = {
  type: "array",
  items: {
    type: "object",
    properties: { name: { type: "string" }, description: { type: "string" }, color: { type: "string" } },
    required: ["name"],
    additionalProperties: false,
  },
};
const PRINCIPALS = {
  anyOf: [
    { type: "array", items: { type: "integer" } },
    { type: "array", items: { type: "string" } },
  ],
};

/** `realm_default`, `unlimited` or a positive number of days (sent plainly, not JSON-encoded). */
const retentionDays = P.custom<number | null>((raw, name) => {
  const text = String(raw).replace(/^"(.*)"$/, "$1");
  if (text === "realm_default") return null;
  if (text === "unlimited") return -1;
  if (/^\d+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text))) return Number(text);
  throw new ApiError("REQUEST_VARIABLE_INVALID", `Bad value for '${name}': ${text}`, {
    var_name: name,
    bad_value: text,
  });
});

/** Declared JSON-encoded (`"inherit"`); a bare word is accepted too. */
const topicsPolicy = P.custom((raw, name) => {
  let value: unknown = raw;
  try {
    value = parseJson(String(raw));
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw err;
    /* bare word */
  }
  if (typeof value !== "string" || !(TOPICS_POLICIES as readonly string[]).includes(value))
    throw Errors.invalidParam(name, `Invalid ${name}`);
  return value as (typeof TOPICS_POLICIES)[number];
});

const groupSettingParams = Object.fromEntries(
  CHANNEL_GROUP_SETTINGS.map((name) => [
    name,
    P.json<GroupSettingValue>(GROUP_SETTING_SCHEMA, "a group ID or {direct_members, direct_subgroups}"),
  ]),
) as Record<(typeof CHANNEL_GROUP_SETTINGS)[number], ReturnType<typeof P.json<GroupSettingValue>>>;

export function subscriptionsRoutes({ router, deps, auth }: RouteKit): void {
  router.get("/users/me/subscriptions", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { include_subscribers: P.enum(["true", "false", "partial"] as const).default("false") });
    ok(ctx, { subscriptions: await userSubscriptions(deps.db, realm, user, p.include_subscribers !== "false") });
  });

  router.post("/users/me/subscriptions", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      subscriptions: P.json<{ name: string; description?: string; color?: string }[]>(
        CHANNEL_LIST,
        "a list of {name, description} objects",
      ).required(),
      principals: P.json<(number | string)[]>(PRINCIPALS, "a list of user IDs or a list of emails"),
      authorization_errors_fatal: P.bool().default(true),
      announce: P.bool().default(false),
      invite_only: P.bool().default(false),
      is_web_public: P.bool().default(false),
      is_default_stream: P.bool().default(false),
      history_public_to_subscribers: P.bool(),
      message_retention_days: retentionDays,
      default_push_notifications: P.bool(),
      topics_policy: topicsPolicy.default("inherit"),
      folder_id: P.jsonInt(),
      send_new_subscription_messages: P.bool().default(true),
      ...groupSettingParams,
    });
    const groupSettings = Object.fromEntries(
      CHANNEL_GROUP_SETTINGS.filter((n) => p[n] !== undefined).map((n) => [n, p[n]]),
    );
    const { body, notifications } = await subscribe(deps.db, {
      realm,
      user,
      channels: p.subscriptions,
      principals: p.principals,
      authorizationErrorsFatal: p.authorization_errors_fatal,
      announce: p.announce,
      sendNewSubscriptionMessages: p.send_new_subscription_messages,
      webPublicEnabled: deps.config.webPublicStreamsEnabled,
      creation: {
        invite_only: p.invite_only,
        is_web_public: p.is_web_public,
        is_default_stream: p.is_default_stream,
        history_public_to_subscribers: p.history_public_to_subscribers,
        message_retention_days: p.message_retention_days,
        default_push_notifications: p.default_push_notifications,
        topics_policy: p.topics_policy,
        folder_id: p.folder_id,
        groupSettings,
      },
    });
    await deps.bus.publish(notifications);
    ok(ctx, body);
  });

  // Add and remove in one call (the reference's `update-subscriptions`).
  router.patch("/users/me/subscriptions", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      add: P.json<{ name: string; description?: string; color?: string }[]>(
        CHANNEL_LIST,
        "a list of {name, description, color} objects",
      ).default([]),
      delete: P.json<string[]>({ type: "array", items: { type: "string" } }, "a list of channel names").default([]),
    });
    if (p.add.length === 0 && p.delete.length === 0)
      throw Errors.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
    const { body, notifications } = await updateSubscriptions(deps.db, {
      realm,
      user,
      add: p.add,
      remove: p.delete,
      webPublicEnabled: deps.config.webPublicStreamsEnabled,
    });
    await deps.bus.publish(notifications);
    ok(ctx, body);
  });

  router.delete("/users/me/subscriptions", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      subscriptions: P.json<string[]>(
        { type: "array", items: { type: "string" } },
        "a list of channel names",
      ).required(),
      principals: P.json<(number | string)[]>(PRINCIPALS, "a list of user IDs or a list of emails"),
    });
    const { removed, not_removed, notifications } = await unsubscribe(
      deps.db,
      realm,
      user,
      p.subscriptions,
      p.principals,
    );
    await deps.bus.publish(notifications);
    ok(ctx, { removed, not_removed });
  });
}
