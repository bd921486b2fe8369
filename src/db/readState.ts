// Queries behind marking a user's messages read in bulk (all of them, a channel's, a topic's).
import type { Queryable } from "./knex";
import { FLAG_BITS } from "./messages";
import { nameKey } from "../names";

/** The user's unread messages, optionally only those of a channel (and topic), oldest first. */
export async function unreadMessageIds(
  q: Queryable,
  userId: number,
  where: { streamId?: number; topic?: string } = {},
): Promise<number[]> {
  const query = q("user_messages as um").where("um.user_id", userId).whereRaw("(um.flags & ?) = 0", [FLAG_BITS.read]);
  if (where.streamId !== undefined) {
    query.join("messages as m", "m.id", "um.message_id").where("m.stream_id", where.streamId);
    if (where.topic !== undefined) query.where("m.topic_key", nameKey(where.topic));
  }
  const rows: { message_id: number }[] = await query.orderBy("um.message_id", "asc").select("um.message_id");
  return rows.map((r) => Number(r.message_id));
}

/** Has the user a row of some message in this topic (read or not)? */
export async function userHasTopic(q: Queryable, userId: number, streamId: number, topic: string): Promise<boolean> {
  const row = await q("user_messages as um")
    .join("messages as m", "m.id", "um.message_id")
    .where({ "um.user_id": userId, "m.stream_id": streamId, "m.topic_key": nameKey(topic) })
    .first("um.message_id");
  return row !== undefined;
}
