// Bot rows: the queries behind GET /bots and /register's realm_bots (writes go through db/users.ts).
import type { Queryable } from "./knex";
import { ROLE, type UserRow } from "./rows";

/** The realm's bots (active or not), oldest first; organization system bots are not listed. */
export async function listRealmBots(q: Queryable, realmId: number, ownerId?: number): Promise<UserRow[]> {
  const query = q<UserRow>("users").where({ realm_id: realmId, is_bot: true, is_system_bot: false });
  if (ownerId !== undefined) query.andWhere({ bot_owner_id: ownerId });
  return query.orderBy("date_joined").orderBy("id");
}

/** Active administrators and owners of the realm (humans and bots with such roles). */
export async function activeAdminIds(q: Queryable, realmId: number): Promise<number[]> {
  const rows = await q("users")
    .where({ realm_id: realmId, is_active: true })
    .andWhere("role", "<=", ROLE.administrator)
    .select("id");
  return rows.map((r: { id: number }) => r.id);
}
