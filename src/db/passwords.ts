// user_passwords rows: a user's password hash and their API key sealed under it. Never cached.
import type { Queryable } from "./knex";

export interface PasswordRow {
  user_id: number;
  password_hash: string;
  api_key_sealed: string | null;
  changed_at: number;
}

export async function findPassword(q: Queryable, userId: number): Promise<PasswordRow | undefined> {
  return q<PasswordRow>("user_passwords").where({ user_id: userId }).first();
}

/** Inserts or replaces the user's row. */
export async function savePassword(q: Queryable, row: PasswordRow): Promise<void> {
  const updated = await q("user_passwords").where({ user_id: row.user_id }).update(row);
  if (!updated) await q("user_passwords").insert(row);
}

export async function updateSealedApiKey(q: Queryable, userId: number, sealed: string): Promise<void> {
  await q("user_passwords").where({ user_id: userId }).update({ api_key_sealed: sealed });
}

/** The user's current API key hash, read from the table (not the cache), for checks inside a transaction. */
export async function currentApiKeyHash(q: Queryable, userId: number): Promise<string | undefined> {
  const row = await q("users").where({ id: userId }).first("api_key_hash");
  return row?.api_key_hash;
}

/** The row, locked until the transaction ends where the database can (MySQL); SQLite has one writer anyway. */
export async function findPasswordForUpdate(q: Queryable, userId: number): Promise<PasswordRow | undefined> {
  return q<PasswordRow>("user_passwords").where({ user_id: userId }).forUpdate().first();
}
