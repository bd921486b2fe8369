// Everyone in a realm who should receive realm-wide events (active users and bots).
import type { Queryable } from "../db/knex";

export async function activeRealmUserIds(q: Queryable, realmId: number): Promise<number[]> {
  const rows = await q("users").where({ realm_id: realmId, is_active: true }).select("id");
  return rows.map((r: { id: number }) => r.id);
}
