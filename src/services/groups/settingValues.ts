// Group-setting values as the API shows them: a named/system group id, or for anonymous groups
// `{direct_members, direct_subgroups}`.
import type { Queryable } from "../../db/knex";
import { directMemberIdsByGroup, directSubgroupIdsByGroup, findGroupsByIds } from "../../db/groups";

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export async function groupSettingValues(
  q: Queryable,
  realmId: number,
  groupIds: number[],
): Promise<Map<number, GroupSettingValue>> {
  const unique = [...new Set(groupIds.filter((id) => id !== null && id !== undefined))];
  const groups = await findGroupsByIds(q, realmId, unique);
  // Anonymous groups (one per channel at least) are read in two queries, not two per group.
  const anonymous = groups.filter((g) => g.name === null).map((g) => g.id);
  const members = await directMemberIdsByGroup(q, anonymous);
  const subgroups = await directSubgroupIdsByGroup(q, anonymous);
  const out = new Map<number, GroupSettingValue>();
  for (const group of groups) {
    if (group.name !== null) out.set(group.id, group.id);
    else out.set(group.id, { direct_members: members.get(group.id)!, direct_subgroups: subgroups.get(group.id)! });
  }
  return out;
}
