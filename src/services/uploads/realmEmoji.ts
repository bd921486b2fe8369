// Custom emoji: name rules, who may add and deactivate them, their API shape, and the
// `realm_emoji` event every user of the organization receives when the set changes.
import crypto from "node:crypto";
import type { Db, Queryable } from "../../db/knex";
import { isUserInGroup } from "../../db/groups";
import {
  deactivateRealmEmoji,
  findActiveRealmEmojiByName,
  insertRealmEmoji,
  listRealmEmoji,
  type RealmEmojiRow,
} from "../../db/realmEmoji";
import { bool, nowSeconds, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { activeRealmUserIds } from "../../db/users";
import { ApiError, Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { inspectEmojiImage } from "./emojiImage";
import type { FileStore } from "./fileStore";
import { isAdmin } from "../users/users";
import { isUnicodeEmojiName } from "../reactions/emoji";
import { nameKey } from "../../names";

export const MAX_EMOJI_NAME_LENGTH = 100;

/** Case-insensitive, and `_` means the same as a space: stored as its name key with underscores. */
export function normalizeEmojiName(raw: string): string {
  return nameKey(raw).replace(/ /g, "_");
}

export function checkEmojiName(name: string): void {
  if (name === "") throw Errors.badRequest("Emoji name is missing");
  if (name.length > MAX_EMOJI_NAME_LENGTH)
    throw Errors.badRequest(`Emoji name is too long (limit: ${MAX_EMOJI_NAME_LENGTH} characters)`);
  if (/^[0-9a-z_-]*[0-9a-z]$/.test(name)) return;
  if (/^[0-9a-z_-]+$/.test(name)) throw Errors.badRequest("Emoji names must end with either a letter or digit.");
  throw Errors.badRequest("Invalid characters in emoji name");
}

const imagesDir = (realmId: number) => `user_avatars/${realmId}/emoji/images`;
const stillName = (fileName: string) => `still/${fileName.replace(/\.[a-z]+$/, "")}.png`;

export function formatRealmEmoji(rows: RealmEmojiRow[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const row of rows) {
    out[String(row.id)] = {
      id: String(row.id),
      name: row.name,
      source_url: `/${imagesDir(row.realm_id)}/${row.file_name}`,
      still_url: row.still_file_name ? `/${imagesDir(row.realm_id)}/${row.still_file_name}` : null,
      deactivated: bool(row.deactivated),
      author_id: row.author_id,
    };
  }
  return out;
}

export async function realmEmojiState(q: Queryable, realmId: number) {
  return formatRealmEmoji(await listRealmEmoji(q, realmId));
}

async function realmEmojiEvent(q: Queryable, realmId: number): Promise<Notification> {
  return {
    realmId,
    userIds: await activeRealmUserIds(q, realmId),
    event: { type: "realm_emoji", op: "update", realm_emoji: await realmEmojiState(q, realmId) },
  };
}

export interface EmojiUpload {
  tempPath: string;
  size: number;
}

export async function addRealmEmoji(
  db: Db,
  store: FileStore,
  input: { realm: RealmRow; user: UserRow; rawName: string; files: EmojiUpload[]; maxBytes: number },
): Promise<Notification[]> {
  const { realm, user } = input;
  const name = normalizeEmojiName(input.rawName);
  checkEmojiName(name);
  if (!(await isUserInGroup(db, user.id, realm.can_add_custom_emoji_group as number | null)))
    throw Errors.badRequest("Insufficient permission");
  if (await findActiveRealmEmojiByName(db, realm.id, name))
    throw Errors.badRequest("A custom emoji with this name already exists.");
  if (input.files.length !== 1) throw Errors.badRequest("You must upload exactly one file.");
  if (isUnicodeEmojiName(name) && !isAdmin(user))
    throw Errors.badRequest("Only administrators can override default emoji.");
  const [file] = input.files;
  if (file.size > input.maxBytes) {
    const mib = Math.round((input.maxBytes / (1024 * 1024)) * 100) / 100;
    throw Errors.badRequest(`Uploaded file is larger than the allowed limit of ${mib} MiB`);
  }
  const image = await inspectEmojiImage(file.tempPath);

  const fileName = `${crypto.randomBytes(12).toString("hex")}.${image.extension}`;
  const keys = [`${imagesDir(realm.id)}/${fileName}`];
  await store.putFromTemp(keys[0], file.tempPath);
  try {
    if (image.still) {
      keys.push(`${imagesDir(realm.id)}/${stillName(fileName)}`);
      await store.putBuffer(keys[1], image.still);
    }
    return await withTransaction(db, async (trx) => {
      // Checked again inside the transaction: a concurrent upload may have taken the name.
      if (await findActiveRealmEmojiByName(trx, realm.id, name))
        throw Errors.badRequest("A custom emoji with this name already exists.");
      await insertRealmEmoji(trx, {
        realm_id: realm.id,
        name,
        deactivated: false,
        author_id: user.id,
        file_name: fileName,
        still_file_name: image.still ? stillName(fileName) : null,
        is_animated: image.animated,
        date_created: nowSeconds(),
      });
      return [await realmEmojiEvent(trx, realm.id)];
    });
  } catch (err) {
    await Promise.all(keys.map((key) => store.delete(key))); // no row, so no files either
    throw err;
  }
}

export async function removeRealmEmoji(
  db: Db,
  input: { realm: RealmRow; user: UserRow; rawName: string },
): Promise<Notification[]> {
  const { realm, user } = input;
  return withTransaction(db, async (trx) => {
    const emoji = await findActiveRealmEmojiByName(trx, realm.id, normalizeEmojiName(input.rawName));
    if (!emoji) throw new ApiError("BAD_REQUEST", `Emoji '${input.rawName}' does not exist`, {}, { status: 404 });
    if (!isAdmin(user) && emoji.author_id !== user.id)
      throw Errors.badRequest("Must be an organization administrator or emoji author");
    await deactivateRealmEmoji(trx, emoji.id);
    return [await realmEmojiEvent(trx, realm.id)];
  });
}
