// User groups: system groups per realm (kept in step with roles), named groups and the anonymous
// groups that store `{direct_members, direct_subgroups}` setting values. Membership is recursive.
import type { Queryable } from "./knex";
import { insertReturningId, insertRows } from "./knex";
import { nowSeconds } from "./rows";
import { nameKey } from "../names";

export interface UserGroupRow {
  id: number;
  realm_id: number;
  name: string | null;
  description: string;
  is_system_group: number | boolean;
  deactivated: number | boolean;
  creator_id: number | null;
  date_created: number | null;
}

export async function insertGroup(
  q: Queryable,
  fields: {
    realm_id: number;
    name: string | null;
    description?: string;
    is_system_group?: boolean;
    creator_id?: number | null;
  },
): Promise<number> {
  const name_key = fields.name === null ? null : nameKey(fields.name);
  return insertReturningId(q, "user_groups", { description: "", date_created: nowSeconds(), ...fields, name_key });
}

export async function addGroupMembers(q: Queryable, groupId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await insertRows(
    q,
    "user_group_members",
    userIds.map((user_id) => ({ group_id: groupId, user_id })),
  );
}

export async function addSubgroups(q: Queryable, groupId: number, subgroupIds: number[]): Promise<void> {
  if (subgroupIds.length === 0) return;
  await insertRows(
    q,
    "user_group_subgroups",
    subgroupIds.map((subgroup_id) => ({ group_id: groupId, subgroup_id })),
  );
}

export async function removeUserFromGroups(q: Queryable, userId: number, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return;
  await q("user_group_members").where({ user_id: userId }).whereIn("group_id", groupIds).delete();
}

export async function findGroup(q: Queryable, realmId: number, id: number): Promise<UserGroupRow | undefined> {
  return q<UserGroupRow>("user_groups").where({ realm_id: realmId, id }).first();
}

/** A named group (system or not) whose name compares equal to `name` (src/names.ts). */
export async function findGroupByName(q: Queryable, realmId: number, name: string): Promise<UserGroupRow | undefined> {
  return q<UserGroupRow>("user_groups").where({ realm_id: realmId }).where("name_key", nameKey(name)).first();
}

export async function findGroupsByIds(q: Queryable, realmId: number, ids: number[]): Promise<UserGroupRow[]> {
  if (ids.length === 0) return [];
  return q<UserGroupRow>("user_groups").where({ realm_id: realmId }).whereIn("id", ids);
}

export async function systemGroupIds(q: Queryable, realmId: number): Promise<Record<string, number>> {
  const rows = await q<UserGroupRow>("user_groups").where({ realm_id: realmId, is_system_group: true });
  return Object.fromEntries(rows.map((r) => [r.name as string, r.id]));
}

/** For each group, the ids in `column` of its rows in `table` (one query, ordered). */
async function idsByGroup(
  q: Queryable,
  table: string,
  column: string,
  groupIds: number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows: Record<string, number>[] = await q(table)
    .whereIn("group_id", groupIds)
    .orderBy(["group_id", column])
    .select("group_id", column);
  for (const r of rows) out.get(r.group_id)?.push(r[column]);
  return out;
}

/** Direct members of each group (no subgroups followed), in one query. */
export function directMemberIdsByGroup(q: Queryable, groupIds: number[]): Promise<Map<number, number[]>> {
  return idsByGroup(q, "user_group_members", "user_id", groupIds);
}

/** Direct subgroups of each group, in one query. */
export function directSubgroupIdsByGroup(q: Queryable, groupIds: number[]): Promise<Map<number, number[]>> {
  return idsByGroup(q, "user_group_subgroups", "subgroup_id", groupIds);
}

/** Follows subgroup edges breadth-first from `start` (one query per level) and returns every group reached. */
async function followSubgroupEdges(q: Queryable, start: number[], direction: "up" | "down"): Promise<Set<number>> {
  const [from, to] = direction === "up" ? ["subgroup_id", "group_id"] : ["group_id", "subgroup_id"];
  const found = new Set<number>(start);
  let frontier = [...found];
  while (frontier.length > 0) {
    const rows: Record<string, number>[] = await q("user_group_subgroups").whereIn(from, frontier).select(to);
    frontier = rows.map((r) => r[to]).filter((id) => !found.has(id));
    frontier.forEach((id) => found.add(id));
  }
  return found;
}

/** Ids of every group the user belongs to, directly or through subgroups. */
export async function groupIdsContainingUser(q: Queryable, userId: number): Promise<Set<number>> {
  const direct = await q("user_group_members").where({ user_id: userId }).select("group_id");
  return followSubgroupEdges(
    q,
    direct.map((r: { group_id: number }) => r.group_id),
    "up",
  );
}

/** Highest (least privileged) role in each system group; membership follows from the role. */
const SYSTEM_GROUP_MAX_ROLE: Record<string, number> = {
  "role:nobody": 0,
  "role:owners": 100,
  "role:administrators": 200,
  "role:moderators": 300,
  "role:fullmembers": 400,
  "role:members": 400,
  "role:everyone": 600,
  "role:internet": 600,
};

// System groups never change name or meaning, so their id → name is cached per database
// (keyed by the Knex config object, which transactions share with their pool).
const systemGroupNamesByDb = new WeakMap<object, Map<number, string>>();

async function systemGroupName(q: Queryable, groupId: number): Promise<string | undefined> {
  const dbKey = q.client.config as object;
  if (!systemGroupNamesByDb.has(dbKey)) systemGroupNamesByDb.set(dbKey, new Map());
  const systemGroupNames = systemGroupNamesByDb.get(dbKey)!;
  const cached = systemGroupNames.get(groupId);
  if (cached !== undefined) return cached;
  const row = await q<UserGroupRow>("user_groups").where({ id: groupId }).first("name", "is_system_group");
  if (
    row &&
    row.name &&
    (row.is_system_group === true || row.is_system_group === 1) &&
    row.name in SYSTEM_GROUP_MAX_ROLE
  ) {
    systemGroupNames.set(groupId, row.name);
    return row.name;
  }
  return undefined;
}

export async function isUserInGroup(
  q: Queryable,
  userId: number,
  groupId: number | null | undefined,
  knownRole?: number,
): Promise<boolean> {
  if (groupId === null || groupId === undefined) return false;
  // Fast path: system-group membership is the user's role (kept in step by services/users/users.ts).
  const system = await systemGroupName(q, groupId);
  if (system !== undefined) {
    const role = knownRole ?? (await q("users").where({ id: userId }).first("role"))?.role;
    return role !== undefined && role <= SYSTEM_GROUP_MAX_ROLE[system];
  }
  return (await groupIdsContainingUser(q, userId)).has(groupId);
}

/** The realm's active, non-system groups with one of these names (by name key). */
export async function findMentionableGroupsByNames(
  q: Queryable,
  realmId: number,
  names: string[],
): Promise<UserGroupRow[]> {
  if (names.length === 0) return [];
  return q<UserGroupRow>("user_groups")
    .where({ realm_id: realmId, is_system_group: false, deactivated: false })
    .whereIn("name_key", [...new Set(names.map(nameKey))]);
}

/** Every user in these groups, directly or through subgroups. */
export async function memberIdsOfGroups(q: Queryable, groupIds: number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const groups = await followSubgroupEdges(q, groupIds, "down");
  const members = await directMemberIdsByGroup(q, [...groups]);
  return new Set([...members.values()].flat());
}

/** The realm's system and named groups (anonymous setting-value groups have no name), by id. */
export async function listNamedGroups(q: Queryable, realmId: number): Promise<UserGroupRow[]> {
  return q<UserGroupRow>("user_groups").where({ realm_id: realmId }).whereNotNull("name").orderBy("id");
}
