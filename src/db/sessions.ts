// Web session rows, by the SHA-256 of the cookie value (the raw value is never stored).
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";

export interface SessionRow {
  id: number;
  id_hash: string;
  user_id: number;
  realm_id: number;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export async function insertSession(q: Queryable, row: Omit<SessionRow, "id">): Promise<number> {
  return insertReturningId(q, "sessions", row);
}

export async function findSessionByHash(q: Queryable, idHash: string): Promise<SessionRow | undefined> {
  const row = await q<SessionRow>("sessions").where({ id_hash: idHash }).first();
  return row && { ...row, last_seen_at: Number(row.last_seen_at), expires_at: Number(row.expires_at) };
}

export async function touchSession(q: Queryable, id: number, now: number): Promise<void> {
  await q("sessions").where({ id }).update({ last_seen_at: now });
}

export async function deleteSessionByHash(q: Queryable, idHash: string): Promise<void> {
  await q("sessions").where({ id_hash: idHash }).delete();
}

/** Every session of the user, except (optionally) the one with `exceptHash`. */
export async function deleteUserSessions(q: Queryable, userId: number, exceptHash?: string): Promise<number> {
  const query = q("sessions").where({ user_id: userId });
  if (exceptHash) query.whereNot({ id_hash: exceptHash });
  return query.delete();
}

/** Sessions past their absolute expiry, or idle since before `idleBefore`. */
export async function deleteExpiredSessions(q: Queryable, now: number, idleBefore: number): Promise<number> {
  return q("sessions").where("expires_at", "<=", now).orWhere("last_seen_at", "<", idleBefore).delete();
}
