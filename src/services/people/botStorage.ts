// Bot storage (the bot framework's `bot_handler.storage`): each bot's own string keys and values,
// as the reference: only bots may use it; a size limit over keys and values together; a missing
// key refuses the whole request.
import type { Db } from "../../db/knex";
import { botStorageSize, deleteBotStorage, listBotStorage, putBotStorage } from "../../db/botStorage";
import { bool, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";

/** Characters (keys plus values) one bot may store: the reference's USER_STATE_SIZE_LIMIT. */
export const BOT_STORAGE_SIZE_LIMIT = 10_000_000;
/** The longest key, in characters (the column's width: keys are indexed). */
export const BOT_STORAGE_MAX_KEY_LENGTH = 190;

function assertBot(user: UserRow): void {
  if (!bool(user.is_bot)) throw Errors.permissionDenied("Must be a bot user");
}

const keyMissing = () => Errors.badRequest("Key does not exist.");

export async function getBotStorage(db: Db, bot: UserRow, keys?: string[]): Promise<Record<string, string>> {
  assertBot(bot);
  const wanted = keys && keys.length > 0 ? [...new Set(keys)] : undefined;
  const rows = await listBotStorage(db, bot.id, wanted);
  if (wanted && rows.length !== wanted.length) throw keyMissing();
  return Object.fromEntries(rows.map((r) => [r.storage_key, r.value]));
}

export async function putBotStorageEntries(db: Db, bot: UserRow, storage: Record<string, unknown>): Promise<void> {
  assertBot(bot);
  const entries = Object.entries(storage);
  for (const [key, value] of entries) {
    if (typeof value !== "string") throw Errors.invalidParam("storage", `storage["${key}"] is not a string`);
    if ([...key].length > BOT_STORAGE_MAX_KEY_LENGTH)
      throw Errors.invalidParam(
        "storage",
        `Key is too long (limit: ${BOT_STORAGE_MAX_KEY_LENGTH} characters, BOT_STORAGE_MAX_KEY_LENGTH)`,
      );
  }
  await withTransaction(db, async (trx) => {
    const others = await botStorageSize(
      trx,
      bot.id,
      entries.map(([key]) => key),
    );
    const added = entries.reduce((n, [key, value]) => n + [...key].length + [...(value as string)].length, 0);
    const excess = others + added - BOT_STORAGE_SIZE_LIMIT;
    if (excess > 0)
      throw Errors.badRequest(
        `Request exceeds storage limit by ${excess} characters. The limit is ${BOT_STORAGE_SIZE_LIMIT} characters.`,
      );
    await putBotStorage(trx, bot.id, entries as [string, string][]);
  });
}

export async function removeBotStorage(db: Db, bot: UserRow, keys?: string[]): Promise<void> {
  assertBot(bot);
  const wanted = keys && keys.length > 0 ? [...new Set(keys)] : undefined;
  await withTransaction(db, async (trx) => {
    if (wanted && (await listBotStorage(trx, bot.id, wanted)).length !== wanted.length) throw keyMissing();
    await deleteBotStorage(trx, bot.id, wanted);
  });
}
