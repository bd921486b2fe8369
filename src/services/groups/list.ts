// Reading user groups: GET /user_groups and POST /register's `realm_user_groups`. System groups
// (role:…) and named groups; the anonymous groups that hold setting values are not listed. This
// server has no group management API yet, so every group's own permission settings are fixed:
// nobody manages, joins or leaves them, everyone may mention them.
import type { Queryable } from "../../db/knex";
import { directMemberIdsByGroup, directSubgroupIdsByGroup, listNamedGroups, systemGroupIds } from "../../db/groups";
import { bool, type RealmRow } from "../../db/rows";

export async function userGroupObjects(
  q: Queryable,
  realm: RealmRow,
  options: { includeDeactivated: boolean },
): Promise<Record<string, unknown>[]> {
  const groups = (await listNamedGroups(q, realm.id)).filter((g) => options.includeDeactivated || !bool(g.deactivated));
  const ids = groups.map((g) => g.id);
  const members = await directMemberIdsByGroup(q, ids);
  const subgroups = await directSubgroupIdsByGroup(q, ids);
  const system = await systemGroupIds(q, realm.id);
  const nobody = system["role:nobody"];
  const everyone = system["role:everyone"];
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    members: members.get(g.id) ?? [],
    direct_subgroup_ids: subgroups.get(g.id) ?? [],
    is_system_group: bool(g.is_system_group),
    date_created: g.date_created === null ? null : Number(g.date_created),
    creator_id: g.creator_id,
    deactivated: bool(g.deactivated),
    can_add_members_group: nobody,
    can_join_group: nobody,
    can_leave_group: nobody,
    can_manage_group: nobody,
    can_mention_group: everyone,
    can_remove_members_group: nobody,
  }));
}
