// Channel folders: admins create, rename, describe, archive and reorder them; everyone in the
// realm sees them and gets `channel_folder` events.
import type { Db, Queryable } from "../../db/knex";
import {
  countActiveChannelsInFolder,
  findActiveFolderByName,
  findFolder,
  insertFolder,
  listRealmFolders,
  nextFolderOrder,
  updateFolder,
  type ChannelFolderRow,
} from "../../db/channelFolders";
import { bool, nowSeconds, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { activeRealmUserIds } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { renderMarkdown } from "../../markdown/markdown";
import { unprintablePosition } from "./nameChecks";
import { assertAdmin } from "../users/users";
import { nameKey, normalizeName } from "../../names";

export const MAX_FOLDER_NAME_LENGTH = 60;
export const MAX_FOLDER_DESCRIPTION_LENGTH = 1024;

export function formatFolder(row: ChannelFolderRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    order: Number(row.sort_order),
    date_created: row.date_created === null ? null : Number(row.date_created),
    creator_id: row.creator_id,
    description: row.description,
    rendered_description: row.rendered_description,
    is_archived: bool(row.is_archived),
  };
}

async function checkFolderName(q: Queryable, realmId: number, name: string): Promise<void> {
  if (name.trim() === "") throw Errors.badRequest("Channel folder name can't be empty.");
  const bad = unprintablePosition(name);
  if (bad !== undefined) throw Errors.badRequest(`Invalid character in channel folder name, at position ${bad}.`);
  if (await findActiveFolderByName(q, realmId, name)) throw Errors.badRequest("Channel folder name already in use");
}

async function toEveryone(q: Queryable, realm: RealmRow, event: Record<string, unknown>): Promise<Notification> {
  return { realmId: realm.id, userIds: await activeRealmUserIds(q, realm.id), event };
}

/** Looks a folder up in the realm; unknown ids are the reference's "Invalid channel folder ID". */
export async function getFolder(q: Queryable, realmId: number, id: number): Promise<ChannelFolderRow> {
  const folder = await findFolder(q, realmId, id);
  if (!folder) throw Errors.badRequest("Invalid channel folder ID");
  return folder;
}

export async function listFolders(
  q: Queryable,
  realm: RealmRow,
  includeArchived: boolean,
): Promise<Record<string, unknown>[]> {
  const rows = await listRealmFolders(q, realm.id);
  return rows.filter((r) => includeArchived || !bool(r.is_archived)).map(formatFolder);
}

export async function createFolder(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  input: { name: string; description: string },
): Promise<{ id: number; notifications: Notification[] }> {
  assertAdmin(user);
  const name = normalizeName(input.name).trim();
  const description = input.description.trim();
  return withTransaction(db, async (trx) => {
    await checkFolderName(trx, realm.id, name);
    const row = {
      realm_id: realm.id,
      name,
      description,
      rendered_description: description ? renderMarkdown(description) : "",
      sort_order: await nextFolderOrder(trx, realm.id),
      date_created: nowSeconds(),
      creator_id: user.id,
      is_archived: false,
    };
    const id = await insertFolder(trx, row);
    const event = { type: "channel_folder", op: "add", channel_folder: formatFolder({ ...row, id, name_key: "" }) };
    return { id, notifications: [await toEveryone(trx, realm, event)] };
  });
}

export async function updateFolderFields(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  folderId: number,
  input: { name?: string; description?: string; is_archived?: boolean },
): Promise<Notification[]> {
  assertAdmin(user);
  return withTransaction(db, async (trx) => {
    const folder = await getFolder(trx, realm.id, folderId);
    const changes: Record<string, unknown>[] = [];
    const name = input.name === undefined ? undefined : normalizeName(input.name).trim();
    if (name !== undefined && name !== folder.name) {
      // Renaming to a different case of the same name is allowed.
      if (nameKey(name) !== folder.name_key || name === "") await checkFolderName(trx, realm.id, name);
      await updateFolder(trx, folder.id, { name });
      changes.push({ name });
    }
    const description = input.description?.trim();
    if (description !== undefined && description !== folder.description) {
      const rendered = description ? renderMarkdown(description) : "";
      await updateFolder(trx, folder.id, { description, rendered_description: rendered });
      changes.push({ description, rendered_description: rendered });
    }
    if (input.is_archived !== undefined && input.is_archived !== bool(folder.is_archived)) {
      if (input.is_archived && (await countActiveChannelsInFolder(trx, folder.id)) > 0) {
        throw Errors.badRequest("You need to remove all the channels from this folder to archive it.");
      }
      if (!input.is_archived && (await findActiveFolderByName(trx, realm.id, name ?? folder.name))) {
        throw Errors.badRequest("Channel folder name already in use");
      }
      await updateFolder(trx, folder.id, { is_archived: input.is_archived });
      changes.push({ is_archived: input.is_archived });
    }
    const out: Notification[] = [];
    for (const data of changes)
      out.push(
        await toEveryone(trx, realm, { type: "channel_folder", op: "update", channel_folder_id: folder.id, data }),
      );
    return out;
  });
}

/** `order` must list every folder of the realm (archived ones too) exactly once. */
export async function reorderFolders(db: Db, realm: RealmRow, user: UserRow, order: number[]): Promise<Notification[]> {
  assertAdmin(user);
  return withTransaction(db, async (trx) => {
    const folders = await listRealmFolders(trx, realm.id);
    const ids = new Set(folders.map((f) => f.id));
    if (order.length !== ids.size || new Set(order).size !== order.length || order.some((id) => !ids.has(id))) {
      throw Errors.badRequest("Invalid order mapping");
    }
    for (const [index, id] of order.entries()) await updateFolder(trx, id, { sort_order: index });
    return [await toEveryone(trx, realm, { type: "channel_folder", op: "reorder", order })];
  });
}
