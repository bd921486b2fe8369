// bot_storage: a bot's string keys and values (the bot framework's storage).
import type { Queryable } from "./knex";

export interface BotStorageEntry {
  storage_key: string;
  value: string;
}

export async function listBotStorage(q: Queryable, botId: number, keys?: string[]): Promise<BotStorageEntry[]> {
  const query = q("bot_storage").where({ bot_id: botId });
  if (keys) query.whereIn("storage_key", keys);
  return (await query.orderBy("id").select("storage_key", "value")) as BotStorageEntry[];
}

/** Characters stored: the sum of key and value lengths (in the database's own measure of length). */
export async function botStorageSize(q: Queryable, botId: number, exceptKeys: string[]): Promise<number> {
  const rows = await listBotStorage(q, botId);
  const skip = new Set(exceptKeys);
  let size = 0;
  for (const r of rows) if (!skip.has(r.storage_key)) size += [...r.storage_key].length + [...r.value].length;
  return size;
}

export async function putBotStorage(q: Queryable, botId: number, entries: [string, string][]): Promise<void> {
  for (const [key, value] of entries) {
    const updated = await q("bot_storage").where({ bot_id: botId, storage_key: key }).update({ value });
    if (updated === 0) await q("bot_storage").insert({ bot_id: botId, storage_key: key, value });
  }
}

export async function deleteBotStorage(q: Queryable, botId: number, keys?: string[]): Promise<void> {
  const query = q("bot_storage").where({ bot_id: botId });
  if (keys) query.whereIn("storage_key", keys);
  await query.delete();
}
