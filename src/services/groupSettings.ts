// Group-setting values as the API shows them: a named/system group id, or for anonymous groups
// `{direct_members, direct_subgroups}`.
import type { Queryable } from "../db/knex";
import { directMemberIds, directSubgroupIds, findGroupsByIds } from "../db/groups";

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export async function groupSettingValues(q: Queryable, realmId: number, groupIds: number[]): Promise<Map<number, GroupSettingValue>> {
  const unique = [...new Set(groupIds.filter((id) => id !== null && id !== undefined))];
  const out = new Map<number, GroupSettingValue>();
  for (const group of await findGroupsByIds(q, realmId, unique)) {
    if (group.name !== null) out.set(group.id, group.id);
    else out.set(group.id, { direct_members: await directMemberIds(q, group.id), direct_subgroups: await directSubgroupIds(q, group.id) });
  }
  return out;
}
