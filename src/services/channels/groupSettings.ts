// A channel's permission settings (each names a user group), and the values given for them when
// creating a channel: a group id, or `{direct_members, direct_subgroups}`, stored as an anonymous group.
import type { Queryable } from "../../db/knex";
import { addGroupMembers, addSubgroups, findGroupsByIds, insertGroup, systemGroupIds } from "../../db/groups";
import { bool } from "../../db/rows";
import { findUsersByIds } from "../../db/users";
import { Errors } from "../../errors";
import type { GroupSettingValue } from "../groups/settingValues";

/** The channel permission settings; each is a column of `streams` holding a user group id. */
export const CHANNEL_GROUP_SETTINGS = [
  "can_add_subscribers_group",
  "can_remove_subscribers_group",
  "can_administer_channel_group",
  "can_delete_any_message_group",
  "can_delete_own_message_group",
  "can_move_messages_out_of_channel_group",
  "can_move_messages_within_channel_group",
  "can_send_message_group",
  "can_subscribe_group",
  "can_resolve_topics_group",
  "can_create_topic_group",
] as const;

export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

/** JSON Schema for one GroupSettingValue parameter. */
export const GROUP_SETTING_SCHEMA = {
  anyOf: [
    { type: "integer" },
    {
      type: "object",
      properties: {
        direct_members: { type: "array", items: { type: "integer" } },
        direct_subgroups: { type: "array", items: { type: "integer" } },
      },
      required: ["direct_members", "direct_subgroups"],
      additionalProperties: false,
    },
  ],
};

/** Settings that may not include everyone (guests): they grant management powers. */
const EVERYONE_NOT_ALLOWED = new Set<ChannelGroupSetting>([
  "can_add_subscribers_group",
  "can_administer_channel_group",
  "can_delete_any_message_group",
  "can_move_messages_out_of_channel_group",
  "can_move_messages_within_channel_group",
  "can_resolve_topics_group",
  "can_subscribe_group",
]);

/** A validated value, ready to store: an existing group id, or an anonymous group to create. */
export type ResolvedGroupSetting = { groupId: number } | { members: number[]; subgroups: number[] };

async function checkGroups(q: Queryable, realmId: number, setting: ChannelGroupSetting, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)];
  const groups = await findGroupsByIds(q, realmId, unique);
  if (groups.length !== unique.length || groups.some((g) => bool(g.deactivated)))
    throw Errors.badRequest("Invalid user group");
  for (const group of groups) {
    if (!bool(group.is_system_group)) continue;
    if (group.name === "role:internet" || (group.name === "role:everyone" && EVERYONE_NOT_ALLOWED.has(setting))) {
      throw Errors.badRequest(`'${setting}' setting cannot be set to '${group.name}' group.`);
    }
  }
}

/** Validates every given value without writing anything. */
export async function resolveGroupSettings(
  q: Queryable,
  realmId: number,
  values: Partial<Record<ChannelGroupSetting, GroupSettingValue>>,
): Promise<Partial<Record<ChannelGroupSetting, ResolvedGroupSetting>>> {
  const out: Partial<Record<ChannelGroupSetting, ResolvedGroupSetting>> = {};
  for (const [name, value] of Object.entries(values) as [ChannelGroupSetting, GroupSettingValue | undefined][]) {
    if (value === undefined) continue;
    if (typeof value === "number") {
      await checkGroups(q, realmId, name, [value]);
      out[name] = { groupId: value };
      continue;
    }
    const members = [...new Set(value.direct_members)];
    const users = await findUsersByIds(q, realmId, members);
    const found = new Set(users.filter((u) => bool(u.is_active)).map((u) => u.id));
    const missing = members.find((id) => !found.has(id));
    if (missing !== undefined) throw Errors.badRequest(`Invalid user ID: ${missing}`);
    const subgroups = [...new Set(value.direct_subgroups)];
    await checkGroups(q, realmId, name, subgroups);
    // A lone subgroup needs no wrapper group.
    out[name] = members.length === 0 && subgroups.length === 1 ? { groupId: subgroups[0] } : { members, subgroups };
  }
  return out;
}

/** Creates the anonymous groups; returns setting → group id. Call inside the transaction. */
export async function storeGroupSettings(
  q: Queryable,
  realmId: number,
  resolved: Partial<Record<ChannelGroupSetting, ResolvedGroupSetting>>,
  creatorId: number,
): Promise<Partial<Record<ChannelGroupSetting, number>>> {
  const out: Partial<Record<ChannelGroupSetting, number>> = {};
  for (const [name, value] of Object.entries(resolved) as [ChannelGroupSetting, ResolvedGroupSetting][]) {
    if ("groupId" in value) {
      out[name] = value.groupId;
      continue;
    }
    const id = await insertGroup(q, { realm_id: realmId, name: null, creator_id: creatorId });
    await addGroupMembers(q, id, value.members);
    await addSubgroups(q, id, value.subgroups);
    out[name] = id;
  }
  return out;
}

/** Is this resolved value exactly the named system group? */
export async function isSystemGroup(
  q: Queryable,
  realmId: number,
  value: ResolvedGroupSetting | undefined,
  name: string,
): Promise<boolean> {
  if (value === undefined || !("groupId" in value)) return false;
  return (await systemGroupIds(q, realmId))[name] === value.groupId;
}
