// PATCH /realm: the organization settings administrators may change here (services/realms/settings.ts).
import { ok } from "../http/envelope";
import { P, parseParams } from "../http/params";
import { GROUP_SETTING_SCHEMA } from "../services/channels/groupSettings";
import { updateRealmSettings, type GroupSettingUpdate } from "../services/realms/settings";
import { actor, type RouteKit } from "./routeKit";

/** The reference's GroupSettingValueUpdate: `{"new": value, "old": value}`, `old` optional. */
const groupSettingUpdate = () =>
  P.json<GroupSettingUpdate>(
    {
      type: "object",
      properties: { new: GROUP_SETTING_SCHEMA, old: GROUP_SETTING_SCHEMA },
      required: ["new"],
      additionalProperties: false,
    },
    'an object {"new": <group-setting value>, "old": <group-setting value>}',
  );

export function realmRoutes({ router, deps, auth }: RouteKit): void {
  router.patch("/realm", auth, async (ctx) => {
    const p = parseParams(ctx, {
      can_create_bots_group: groupSettingUpdate(),
      can_create_write_only_bots_group: groupSettingUpdate(),
      bot_creation_policy: P.jsonInt(),
    });
    await deps.bus.publish(await updateRealmSettings(deps.db, actor(ctx), p));
    ok(ctx);
  });
}
