// Administering a realm's custom profile fields; every change sends the full list as a
// `custom_profile_fields` event.
import type { Db, Queryable } from "../../db/knex";
import {
  deleteProfileField,
  deleteValuesNotIn,
  findProfileField,
  findProfileFieldByName,
  insertProfileField,
  listProfileFields,
  updateProfileField,
  type ProfileFieldRow,
} from "../../db/profileFields";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { DEFAULT_EXTERNAL_ACCOUNTS, FIELD_TYPE, normalizeFieldData, SUMMARY_TYPES_EXCLUDED } from "./types";
import { activeRealmUserIds } from "../../db/users";
import { assertAdmin } from "../users/users";
import { normalizeName } from "../../names";

const MAX_SUMMARY_FIELDS = 2;

export function formatProfileField(row: ProfileFieldRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    type: row.field_type,
    hint: row.hint,
    field_data: row.field_data,
    order: row.sort_order,
    display_in_profile_summary: bool(row.display_in_profile_summary),
    required: bool(row.required),
    editable_by_user: bool(row.editable_by_user),
  };
}

export async function realmProfileFields(q: Queryable, realmId: number): Promise<Record<string, unknown>[]> {
  return (await listProfileFields(q, realmId)).map(formatProfileField);
}

async function fieldsEvent(q: Queryable, realm: RealmRow): Promise<Notification> {
  return {
    realmId: realm.id,
    userIds: await activeRealmUserIds(q, realm.id),
    event: { type: "custom_profile_fields", fields: await realmProfileFields(q, realm.id) },
  };
}

export const fieldNotFound = (id: number) => Errors.badRequest(`Field id ${id} not found.`);

export interface FieldChanges {
  name?: string;
  hint?: string;
  fieldData?: Record<string, unknown>;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
}

async function checkNameAndSummary(
  q: Queryable,
  realm: RealmRow,
  field: { id?: number; name: string; fieldType: number; summary: boolean },
): Promise<void> {
  if (!field.name.trim()) throw Errors.badRequest("Label cannot be blank.");
  const clash = await findProfileFieldByName(q, realm.id, field.name);
  if (clash && clash.id !== field.id) throw Errors.badRequest("A field with that label already exists.");
  if (!field.summary) return;
  if (SUMMARY_TYPES_EXCLUDED.includes(field.fieldType))
    throw Errors.badRequest("Field type not supported for display in profile summary.");
  const others = (await listProfileFields(q, realm.id)).filter(
    (f) => f.id !== field.id && bool(f.display_in_profile_summary),
  );
  if (others.length >= MAX_SUMMARY_FIELDS) {
    throw Errors.badRequest(
      `Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`,
    );
  }
}

export async function createProfileField(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  input: FieldChanges & { fieldType: number },
): Promise<{ id: number; notifications: Notification[] }> {
  assertAdmin(user);
  if (!(Object.values(FIELD_TYPE) as number[]).includes(input.fieldType))
    throw Errors.badRequest("Invalid field type.");
  const fieldData = normalizeFieldData(input.fieldType, input.fieldData ?? {});
  let name = normalizeName(input.name ?? "").trim();
  let hint = input.hint ?? "";
  const subtype = input.fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT ? String(input.fieldData?.subtype) : "";
  if (subtype in DEFAULT_EXTERNAL_ACCOUNTS) {
    // A well-known external account brings its own label and hint.
    name = name || DEFAULT_EXTERNAL_ACCOUNTS[subtype].name;
    hint = hint || DEFAULT_EXTERNAL_ACCOUNTS[subtype].hint;
  }
  const summary = input.displayInProfileSummary ?? false;
  return withTransaction(db, async (trx) => {
    await checkNameAndSummary(trx, realm, { name, fieldType: input.fieldType, summary });
    const id = await insertProfileField(trx, realm.id, {
      name,
      hint,
      field_type: input.fieldType,
      field_data: fieldData,
      display_in_profile_summary: summary,
      required: input.required ?? false,
      editable_by_user: input.editableByUser ?? true,
    });
    return { id, notifications: [await fieldsEvent(trx, realm)] };
  });
}

export async function updateProfileFieldDefinition(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  id: number,
  changes: FieldChanges,
): Promise<Notification[]> {
  assertAdmin(user);
  return withTransaction(db, async (trx) => {
    const field = await findProfileField(trx, realm.id, id);
    if (!field) throw fieldNotFound(id);
    const name = changes.name !== undefined ? normalizeName(changes.name).trim() : field.name;
    const summary = changes.displayInProfileSummary ?? bool(field.display_in_profile_summary);
    await checkNameAndSummary(trx, realm, {
      id,
      name,
      fieldType: field.field_type,
      summary: changes.displayInProfileSummary === true,
    });
    const update: Partial<ProfileFieldRow> = { name, display_in_profile_summary: summary };
    if (changes.hint !== undefined) update.hint = changes.hint;
    if (changes.required !== undefined) update.required = changes.required;
    if (changes.editableByUser !== undefined) update.editable_by_user = changes.editableByUser;
    if (changes.fieldData !== undefined) {
      update.field_data = normalizeFieldData(field.field_type, changes.fieldData);
      // Values naming a removed option no longer mean anything.
      if (field.field_type === FIELD_TYPE.SELECT) await deleteValuesNotIn(trx, id, Object.keys(changes.fieldData));
    }
    await updateProfileField(trx, id, update);
    return [await fieldsEvent(trx, realm)];
  });
}

export async function deleteProfileFieldDefinition(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  id: number,
): Promise<Notification[]> {
  assertAdmin(user);
  return withTransaction(db, async (trx) => {
    if (!(await findProfileField(trx, realm.id, id))) throw fieldNotFound(id);
    await deleteProfileField(trx, id);
    return [await fieldsEvent(trx, realm)];
  });
}

export async function reorderProfileFields(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  order: number[],
): Promise<Notification[]> {
  assertAdmin(user);
  return withTransaction(db, async (trx) => {
    const existing = new Set((await listProfileFields(trx, realm.id)).map((f) => f.id));
    if (
      order.length !== existing.size ||
      new Set(order).size !== order.length ||
      !order.every((id) => existing.has(id))
    ) {
      throw Errors.badRequest("Invalid order mapping.");
    }
    for (const [index, id] of order.entries()) await updateProfileField(trx, id, { sort_order: index });
    return [await fieldsEvent(trx, realm)];
  });
}
