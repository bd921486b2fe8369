// Custom emoji rows. Deactivated emoji are kept: old messages and reactions still show them.
import { cachedRead, cacheTag, invalidate } from "./cache";
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import { bool } from "./rows";

export interface RealmEmojiRow {
  id: number;
  realm_id: number;
  name: string;
  deactivated: number | boolean;
  author_id: number | null;
  file_name: string;
  still_file_name: string | null;
  is_animated: number | boolean;
  date_created: number;
}

export async function insertRealmEmoji(q: Queryable, row: Omit<RealmEmojiRow, "id">): Promise<number> {
  const id = await insertReturningId(q, "realm_emoji", row);
  await invalidate(q, [cacheTag.emoji]);
  return id;
}

export async function listRealmEmoji(q: Queryable, realmId: number): Promise<RealmEmojiRow[]> {
  const rows = await cachedRead(
    q,
    "emoji",
    String(realmId),
    () => [cacheTag.emoji],
    () => q<RealmEmojiRow>("realm_emoji").where({ realm_id: realmId }).orderBy("id"),
  );
  return rows ?? [];
}

export async function findActiveRealmEmojiByName(
  q: Queryable,
  realmId: number,
  name: string,
): Promise<RealmEmojiRow | undefined> {
  return (await listRealmEmoji(q, realmId)).find((row) => row.name === name && !bool(row.deactivated));
}

/** Deactivated ones too: reactions may still name them. */
export async function findRealmEmojiById(
  q: Queryable,
  realmId: number,
  id: number,
): Promise<RealmEmojiRow | undefined> {
  return (await listRealmEmoji(q, realmId)).find((row) => row.id === id);
}

export async function deactivateRealmEmoji(q: Queryable, id: number): Promise<void> {
  await q("realm_emoji").where({ id }).update({ deactivated: true });
  await invalidate(q, [cacheTag.emoji]);
}
