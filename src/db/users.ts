import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import type { UserRow } from "./rows";

export async function findUserByApiKeyHash(q: Queryable, hash: string): Promise<UserRow | undefined> {
  return q<UserRow>("users").where({ api_key_hash: hash }).first();
}

export async function findUserById(q: Queryable, realmId: number, id: number): Promise<UserRow | undefined> {
  return q<UserRow>("users").where({ realm_id: realmId, id }).first();
}

export async function findUserByEmail(q: Queryable, realmId: number, email: string): Promise<UserRow | undefined> {
  return q<UserRow>("users").where({ realm_id: realmId }).whereRaw("LOWER(email) = ?", [email.toLowerCase()]).first();
}

export async function findUsersByIds(q: Queryable, realmId: number, ids: number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return q<UserRow>("users").where({ realm_id: realmId }).whereIn("id", ids);
}

export async function listRealmUsers(q: Queryable, realmId: number): Promise<UserRow[]> {
  return q<UserRow>("users").where({ realm_id: realmId }).orderBy("id");
}

export async function insertUser(q: Queryable, row: Omit<UserRow, "id">): Promise<number> {
  return insertReturningId(q, "users", row as unknown as Record<string, unknown>);
}

export async function updateUser(q: Queryable, id: number, fields: Partial<UserRow>): Promise<void> {
  await q("users").where({ id }).update(fields);
}

/** Everyone in a realm who should receive realm-wide events (active users and bots). */
export async function activeRealmUserIds(q: Queryable, realmId: number): Promise<number[]> {
  const rows = await q("users").where({ realm_id: realmId, is_active: true }).select("id");
  return rows.map((r: { id: number }) => r.id);
}
