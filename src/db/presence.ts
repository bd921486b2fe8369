// user_presence: one row per user, when they were last connected and last active. Every write
// takes the next `last_update_id` of the organization (clients fetch what changed since theirs).
import type { Queryable } from "./knex";

export interface PresenceRow {
  user_id: number;
  realm_id: number;
  last_connected_time: number;
  last_active_time: number | null;
  last_update_id: number;
}

export async function findPresence(q: Queryable, userId: number): Promise<PresenceRow | undefined> {
  return q<PresenceRow>("user_presence").where({ user_id: userId }).first();
}

/** Writes the row with the realm's next update id (inside the caller's transaction). */
export async function writePresence(
  q: Queryable,
  row: Omit<PresenceRow, "last_update_id">,
  exists: boolean,
): Promise<number> {
  const top = await q("user_presence").where({ realm_id: row.realm_id }).max({ id: "last_update_id" }).first();
  const updateId = Number(top?.id ?? 0) + 1;
  if (exists)
    await q("user_presence")
      .where({ user_id: row.user_id })
      .update({ ...row, last_update_id: updateId });
  else await q("user_presence").insert({ ...row, last_update_id: updateId });
  return updateId;
}

/** Rows of the realm's users connected since `since` (epoch seconds), changed after `afterUpdateId`. */
export async function listPresence(
  q: Queryable,
  realmId: number,
  since: number,
  afterUpdateId: number,
): Promise<PresenceRow[]> {
  return q<PresenceRow>("user_presence as p")
    .join("users as u", "u.id", "p.user_id")
    .where({ "p.realm_id": realmId, "u.is_active": true })
    .where("p.last_connected_time", ">=", since)
    .where("p.last_update_id", ">", afterUpdateId)
    .select("p.*");
}

export async function latestPresenceUpdateId(q: Queryable, realmId: number): Promise<number> {
  const top = await q("user_presence").where({ realm_id: realmId }).max({ id: "last_update_id" }).first();
  return top?.id === null || top?.id === undefined ? -1 : Number(top.id);
}
