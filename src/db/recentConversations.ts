// The user's most recent direct-message conversations, from their newest DM rows.
import type { Queryable } from "./knex";

/** Of the user's newest `limit` direct messages: each conversation (dm_key) and its newest id. */
export async function recentDmConversations(
  q: Queryable,
  userId: number,
  limit: number,
): Promise<{ dm_key: string; max_id: number }[]> {
  const rows = await q("user_messages as um")
    .join("messages as m", "m.id", "um.message_id")
    .where({ "um.user_id": userId, "m.type": "private" })
    .orderBy("um.message_id", "desc")
    .limit(limit)
    .select("m.dm_key", "m.id");
  const newest = new Map<string, number>();
  for (const r of rows as { dm_key: string; id: number | string }[])
    if (!newest.has(r.dm_key)) newest.set(r.dm_key, Number(r.id));
  return [...newest].map(([dm_key, max_id]) => ({ dm_key, max_id }));
}
