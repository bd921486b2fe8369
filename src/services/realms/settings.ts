// PATCH /realm, for the settings this server lets administrators change: who may create bots
// (can_create_bots_group, can_create_write_only_bots_group) and the older bot_creation_policy that
// sets both. Group settings take the reference's `{"new": value, "old": value}` form (`old` optional,
// checked when given); a change sends `realm` `update_dict` to everyone.
import type { Db, Queryable } from "../../db/knex";
import { systemGroupIds } from "../../db/groups";
import { findRealmById, updateRealm } from "../../db/realms";
import type { RealmRow, UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { activeRealmUserIds } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import {
  resolveGroupSettings,
  storeGroupSettings,
  type ChannelGroupSetting,
  type ResolvedGroupSetting,
} from "../channels/groupSettings";
import { groupSettingValues, type GroupSettingValue } from "../groups/settingValues";
import { assertAdmin } from "../users/users";

export const BOT_CREATION_SETTINGS = ["can_create_bots_group", "can_create_write_only_bots_group"] as const;
export type BotCreationSetting = (typeof BOT_CREATION_SETTINGS)[number];

/** The reference's enum before feature level 344: 1 everyone, 2 generic bots admins only, 3 admins only. */
export const BOT_CREATION_POLICY = { everyone: 1, limitGenericBots: 2, adminsOnly: 3 } as const;

export interface GroupSettingUpdate {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/** The realm's bot-creation settings as group-setting values, and the older policy derived from them. */
export async function botCreationState(q: Queryable, realm: RealmRow): Promise<Record<string, unknown>> {
  const ids = BOT_CREATION_SETTINGS.map((name) => realm[name] as number);
  const values = await groupSettingValues(q, realm.id, ids);
  const groups = await systemGroupIds(q, realm.id);
  // Everyone who is a member: role:members, or role:fullmembers (every member is one here).
  const members = (id: number) => id === groups["role:members"] || id === groups["role:fullmembers"];
  const policy = members(ids[0])
    ? BOT_CREATION_POLICY.everyone
    : members(ids[1])
      ? BOT_CREATION_POLICY.limitGenericBots
      : BOT_CREATION_POLICY.adminsOnly;
  return {
    realm_can_create_bots_group: values.get(ids[0]) ?? null,
    realm_can_create_write_only_bots_group: values.get(ids[1]) ?? null,
    realm_bot_creation_policy: policy,
  };
}

function sameValue(a: GroupSettingValue | undefined, b: GroupSettingValue | undefined): boolean {
  if (typeof a === "number" || typeof b === "number" || a === undefined || b === undefined) return a === b;
  const same = (x: number[], y: number[]) => x.length === y.length && [...x].sort().join() === [...y].sort().join();
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}

/** Checks a value: a group of the realm, never role:everyone or role:internet (they would admit guests). */
async function resolveBotSetting(
  q: Queryable,
  realmId: number,
  name: BotCreationSetting,
  value: GroupSettingValue,
): Promise<ResolvedGroupSetting> {
  // The channel settings' resolver checks the ids and members; it is called under a name whose rule
  // also refuses role:everyone, and the error is given under this setting's name.
  const probe = "can_add_subscribers_group" as ChannelGroupSetting;
  try {
    return (await resolveGroupSettings(q, realmId, { [probe]: value }))[probe]!;
  } catch (err) {
    const msg = (err as Error).message;
    if (msg.startsWith(`'${probe}'`)) throw Errors.badRequest(msg.replace(probe, name));
    throw err;
  }
}

export interface RealmSettingChanges {
  can_create_bots_group?: GroupSettingUpdate;
  can_create_write_only_bots_group?: GroupSettingUpdate;
  bot_creation_policy?: number;
}

export async function updateRealmSettings(
  db: Db,
  actor: { realm: RealmRow; user: UserRow },
  changes: RealmSettingChanges,
): Promise<Notification[]> {
  assertAdmin(actor.user);
  if (changes.bot_creation_policy !== undefined && BOT_CREATION_SETTINGS.some((name) => changes[name] !== undefined))
    throw Errors.badRequest(
      "bot_creation_policy cannot be given with can_create_bots_group or can_create_write_only_bots_group",
    );
  return withTransaction(db, async (trx) => {
    // Read inside the transaction: `old` is compared with the value as it stands.
    const realm = (await findRealmById(trx, actor.realm.id)) ?? actor.realm;
    const wanted: Partial<Record<BotCreationSetting, GroupSettingValue>> = {};
    const policy = changes.bot_creation_policy;
    if (policy !== undefined) {
      const groups = await systemGroupIds(trx, realm.id);
      const admins = groups["role:administrators"];
      const members = groups["role:members"];
      if (policy === BOT_CREATION_POLICY.everyone)
        Object.assign(wanted, { can_create_bots_group: members, can_create_write_only_bots_group: members });
      else if (policy === BOT_CREATION_POLICY.limitGenericBots)
        Object.assign(wanted, { can_create_bots_group: admins, can_create_write_only_bots_group: members });
      else if (policy === BOT_CREATION_POLICY.adminsOnly)
        Object.assign(wanted, { can_create_bots_group: admins, can_create_write_only_bots_group: admins });
      else throw Errors.invalidParam("bot_creation_policy", "Invalid bot_creation_policy");
    }
    const current = await groupSettingValues(
      trx,
      realm.id,
      BOT_CREATION_SETTINGS.map((name) => realm[name] as number),
    );
    for (const name of BOT_CREATION_SETTINGS) {
      const change = changes[name];
      if (change === undefined) continue;
      if (change.old !== undefined && !sameValue(change.old, current.get(realm[name] as number)))
        throw Errors.badRequest("'old' value does not match the expected value.");
      wanted[name] = change.new;
    }
    const resolved: Partial<Record<BotCreationSetting, ResolvedGroupSetting>> = {};
    for (const [name, value] of Object.entries(wanted) as [BotCreationSetting, GroupSettingValue][]) {
      resolved[name] = await resolveBotSetting(trx, realm.id, name, value);
    }
    // Unchanged values are left alone (no new anonymous group, no event).
    for (const name of Object.keys(resolved) as BotCreationSetting[]) {
      const value = resolved[name]!;
      if ("groupId" in value && value.groupId === realm[name]) delete resolved[name];
    }
    if (Object.keys(resolved).length === 0) return [];
    const stored = await storeGroupSettings(
      trx,
      realm.id,
      resolved as Partial<Record<ChannelGroupSetting, ResolvedGroupSetting>>,
      actor.user.id,
    );
    await updateRealm(trx, realm.id, stored as Partial<RealmRow>);
    const values = await groupSettingValues(trx, realm.id, Object.values(stored) as number[]);
    const data = Object.fromEntries(
      Object.entries(stored).map(([name, id]) => [name, values.get(id as number) ?? null]),
    );
    return [
      {
        realmId: realm.id,
        userIds: await activeRealmUserIds(trx, realm.id),
        event: { type: "realm", op: "update_dict", property: "default", data },
      },
    ];
  });
}
