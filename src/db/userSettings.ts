// user_settings: the settings a user changed from the defaults, as JSON values by name.
import type { Queryable } from "./knex";

export async function storedUserSettings(q: Queryable, userId: number): Promise<Map<string, unknown>> {
  const rows = await q("user_settings").where({ user_id: userId }).select("name", "value");
  return new Map(rows.map((r: { name: string; value: string }) => [r.name, JSON.parse(r.value)]));
}

export async function storeUserSetting(q: Queryable, userId: number, name: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  const updated = await q("user_settings").where({ user_id: userId, name }).update({ value: json });
  if (updated === 0) await q("user_settings").insert({ user_id: userId, name, value: json });
}

/** Users of the realm whose stored `name` setting is `value`. */
export async function realmUserIdsWithSetting(
  q: Queryable,
  realmId: number,
  name: string,
  value: unknown,
): Promise<Set<number>> {
  const rows = await q("user_settings as s")
    .join("users as u", "u.id", "s.user_id")
    .where({ "u.realm_id": realmId, "s.name": name, "s.value": JSON.stringify(value) })
    .select("s.user_id");
  return new Set(rows.map((r: { user_id: number }) => r.user_id));
}
