// Queries for the channel_folders table.
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import { nameKey } from "../names";

export interface ChannelFolderRow {
  id: number;
  realm_id: number;
  name: string;
  name_key: string;
  description: string;
  rendered_description: string;
  sort_order: number;
  date_created: number | null;
  creator_id: number | null;
  is_archived: number | boolean;
}

export async function listRealmFolders(q: Queryable, realmId: number): Promise<ChannelFolderRow[]> {
  return q<ChannelFolderRow>("channel_folders")
    .where({ realm_id: realmId })
    .orderBy([{ column: "sort_order" }, { column: "id" }]);
}

export async function findFolder(q: Queryable, realmId: number, id: number): Promise<ChannelFolderRow | undefined> {
  return q<ChannelFolderRow>("channel_folders").where({ realm_id: realmId, id }).first();
}

/** A non-archived folder with this name (case-insensitive), if any. */
export async function findActiveFolderByName(
  q: Queryable,
  realmId: number,
  name: string,
): Promise<ChannelFolderRow | undefined> {
  return q<ChannelFolderRow>("channel_folders")
    .where({ realm_id: realmId, name_key: nameKey(name), is_archived: false })
    .first();
}

export async function nextFolderOrder(q: Queryable, realmId: number): Promise<number> {
  const row = await q("channel_folders")
    .where({ realm_id: realmId })
    .max<{ m: number | null }[]>({ m: "sort_order" })
    .first();
  return row?.m === null || row?.m === undefined ? 0 : Number(row.m) + 1;
}

export async function insertFolder(q: Queryable, row: Omit<ChannelFolderRow, "id" | "name_key">): Promise<number> {
  return insertReturningId(q, "channel_folders", { ...row, name_key: nameKey(row.name) });
}

export async function updateFolder(
  q: Queryable,
  id: number,
  fields: Partial<Omit<ChannelFolderRow, "id" | "name_key">>,
): Promise<void> {
  const extra = fields.name !== undefined ? { name_key: nameKey(fields.name) } : {};
  await q("channel_folders")
    .where({ id })
    .update({ ...fields, ...extra });
}

export async function countActiveChannelsInFolder(q: Queryable, folderId: number): Promise<number> {
  const row = await q("streams")
    .where({ folder_id: folderId, is_archived: false })
    .count<{ n: number }[]>({ n: "*" })
    .first();
  return Number(row?.n ?? 0);
}
