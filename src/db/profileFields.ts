// custom_profile_fields (a realm's field definitions) and custom_profile_field_values.
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import { nameKey } from "../names";

export interface ProfileFieldRow {
  id: number;
  realm_id: number;
  name: string;
  name_key: string;
  hint: string;
  field_type: number;
  field_data: string;
  sort_order: number;
  display_in_profile_summary: number | boolean;
  required: number | boolean;
  editable_by_user: number | boolean;
}

export interface ProfileValueRow {
  id: number;
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

export type ProfileFieldInput = Omit<ProfileFieldRow, "id" | "realm_id" | "name_key" | "sort_order">;

export async function listProfileFields(q: Queryable, realmId: number): Promise<ProfileFieldRow[]> {
  return q<ProfileFieldRow>("custom_profile_fields")
    .where({ realm_id: realmId })
    .orderBy([{ column: "sort_order" }, { column: "id" }]);
}

export async function findProfileField(
  q: Queryable,
  realmId: number,
  id: number,
): Promise<ProfileFieldRow | undefined> {
  return q<ProfileFieldRow>("custom_profile_fields").where({ realm_id: realmId, id }).first();
}

export async function findProfileFieldByName(
  q: Queryable,
  realmId: number,
  name: string,
): Promise<ProfileFieldRow | undefined> {
  return q<ProfileFieldRow>("custom_profile_fields")
    .where({ realm_id: realmId, name_key: nameKey(name) })
    .first();
}

export async function insertProfileField(q: Queryable, realmId: number, fields: ProfileFieldInput): Promise<number> {
  const row = await q("custom_profile_fields")
    .where({ realm_id: realmId })
    .max<{ m: number | null }[]>({ m: "sort_order" })
    .first();
  return insertReturningId(q, "custom_profile_fields", {
    ...fields,
    realm_id: realmId,
    name_key: nameKey(fields.name),
    sort_order: Number(row?.m ?? -1) + 1,
  });
}

export async function updateProfileField(q: Queryable, id: number, fields: Partial<ProfileFieldRow>): Promise<void> {
  const withKey = fields.name !== undefined ? { ...fields, name_key: nameKey(fields.name) } : fields;
  await q("custom_profile_fields").where({ id }).update(withKey);
}

export async function deleteProfileField(q: Queryable, id: number): Promise<void> {
  await q("custom_profile_field_values").where({ field_id: id }).delete();
  await q("custom_profile_fields").where({ id }).delete();
}

export async function valuesForUsers(q: Queryable, userIds: number[]): Promise<ProfileValueRow[]> {
  if (userIds.length === 0) return [];
  const out: ProfileValueRow[] = [];
  for (let i = 0; i < userIds.length; i += 500) {
    out.push(
      ...(await q<ProfileValueRow>("custom_profile_field_values").whereIn("user_id", userIds.slice(i, i + 500))),
    );
  }
  return out;
}

export async function upsertProfileValue(
  q: Queryable,
  userId: number,
  fieldId: number,
  value: string,
  rendered: string | null,
): Promise<boolean> {
  const existing = await q<ProfileValueRow>("custom_profile_field_values")
    .where({ user_id: userId, field_id: fieldId })
    .first();
  if (existing) {
    if (existing.value === value) return false;
    await q("custom_profile_field_values").where({ id: existing.id }).update({ value, rendered_value: rendered });
  } else {
    await q("custom_profile_field_values").insert({
      user_id: userId,
      field_id: fieldId,
      value,
      rendered_value: rendered,
    });
  }
  return true;
}

export async function deleteProfileValue(q: Queryable, userId: number, fieldId: number): Promise<boolean> {
  return (await q("custom_profile_field_values").where({ user_id: userId, field_id: fieldId }).delete()) > 0;
}

/** Drops values of a list field whose option no longer exists. */
export async function deleteValuesNotIn(q: Queryable, fieldId: number, keepValues: string[]): Promise<void> {
  await q("custom_profile_field_values")
    .where({ field_id: fieldId })
    .whereNotIn("value", keepValues.length ? keepValues : [""])
    .delete();
}
