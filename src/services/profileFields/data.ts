// A user's own custom profile values: set / clear through /users/me/profile_data, and the
// `profile_data` object on user objects.
import type { Db, Queryable } from "../../db/knex";
import {
  deleteProfileValue,
  findProfileField,
  listProfileFields,
  upsertProfileValue,
  valuesForUsers,
  type ProfileFieldRow,
} from "../../db/profileFields";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { findUsersByIds } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { renderWithLinkifiers } from "../linkifiers/active";
import { fieldNotFound } from "./fields";
import { normalizeValue, RENDERED_TYPES } from "./types";
import { activeRealmUserIds } from "../../db/users";
import { isAdmin } from "../users/users";

export interface ProfileDataItem {
  id: number;
  value: unknown;
}

/** The reference refuses bots here before looking at any parameter. */
export function assertHuman(user: UserRow): void {
  if (bool(user.is_bot)) throw Errors.badRequest("This endpoint does not accept bot requests.");
}

async function editableField(q: Queryable, realm: RealmRow, user: UserRow, id: number): Promise<ProfileFieldRow> {
  const field = await findProfileField(q, realm.id, id);
  if (!field) throw fieldNotFound(id);
  if (!bool(field.editable_by_user) && !isAdmin(user)) {
    throw Errors.badRequest("You are not allowed to change this field. Contact an administrator to update it.");
  }
  return field;
}

function changeEvent(
  realm: RealmRow,
  user: UserRow,
  audience: number[],
  field: ProfileFieldRow,
  value: string | null,
  rendered: string | null,
): Notification {
  const change: Record<string, unknown> = { id: field.id, value };
  if (RENDERED_TYPES.includes(field.field_type)) change.rendered_value = rendered;
  return {
    realmId: realm.id,
    userIds: audience,
    event: { type: "realm_user", op: "update", person: { user_id: user.id, custom_profile_field: change } },
  };
}

export async function updateOwnProfileData(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  items: ProfileDataItem[],
): Promise<Notification[]> {
  assertHuman(user);
  return withTransaction(db, async (trx) => {
    const changed: { field: ProfileFieldRow; value: string | null; rendered: string | null }[] = [];
    // Validate everything first so a bad item leaves nothing half-written.
    for (const item of items) {
      const field = await editableField(trx, realm, user, item.id);
      if (item.value === null || item.value === "") {
        changed.push({ field, value: null, rendered: null });
        continue;
      }
      const value = await normalizeValue(field, item.value, async (ids) => {
        const found = new Set(
          (await findUsersByIds(trx, realm.id, ids)).filter((u) => bool(u.is_active)).map((u) => u.id),
        );
        return ids.find((id) => !found.has(id));
      });
      const rendered = RENDERED_TYPES.includes(field.field_type)
        ? await renderWithLinkifiers(trx, realm.id, value)
        : null;
      changed.push({ field, value, rendered });
    }
    const audience = await activeRealmUserIds(trx, realm.id);
    const notifications: Notification[] = [];
    for (const c of changed) {
      const didChange =
        c.value === null
          ? await deleteProfileValue(trx, user.id, c.field.id)
          : await upsertProfileValue(trx, user.id, c.field.id, c.value, c.rendered);
      if (didChange) notifications.push(changeEvent(realm, user, audience, c.field, c.value, c.rendered));
    }
    return notifications;
  });
}

export async function removeOwnProfileData(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  fieldIds: number[],
): Promise<Notification[]> {
  assertHuman(user);
  return withTransaction(db, async (trx) => {
    const fields = [];
    for (const id of fieldIds) fields.push(await editableField(trx, realm, user, id));
    const audience = await activeRealmUserIds(trx, realm.id);
    const notifications: Notification[] = [];
    for (const field of fields) {
      if (await deleteProfileValue(trx, user.id, field.id))
        notifications.push(changeEvent(realm, user, audience, field, null, null));
    }
    return notifications;
  });
}

/** `profile_data` per user: {field_id: {value, rendered_value?}}, only for fields with a value. */
export async function profileDataByUser(
  q: Queryable,
  realm: RealmRow,
  users: UserRow[],
): Promise<Map<number, Record<string, unknown>>> {
  const fields = new Map((await listProfileFields(q, realm.id)).map((f) => [f.id, f]));
  const out = new Map<number, Record<string, unknown>>(users.map((u) => [u.id, {}]));
  if (fields.size === 0) return out;
  for (const v of await valuesForUsers(
    q,
    users.map((u) => u.id),
  )) {
    const field = fields.get(v.field_id);
    if (!field) continue;
    const entry: Record<string, unknown> = { value: v.value };
    if (RENDERED_TYPES.includes(field.field_type)) entry.rendered_value = v.rendered_value;
    out.get(v.user_id)![String(v.field_id)] = entry;
  }
  return out;
}
