// The unread summary POST /register gives (`unread_msgs`): the user's unread messages grouped
// by conversation, which clients keep current from message and update_message_flags events.
import type { Queryable } from "../../db/knex";
import { dmParticipantIds, MENTION_BITS, unreadMessagesOf } from "../../db/messages";

/** The newest unread messages summarised; older ones are left out and `old_unreads_missing` says so. */
export const MAX_UNREAD_MESSAGES = 50_000;

interface Conversation {
  unread_message_ids: number[];
}

export async function unreadMessagesState(q: Queryable, userId: number): Promise<Record<string, unknown>> {
  const rows = await unreadMessagesOf(q, userId, MAX_UNREAD_MESSAGES + 1);
  const missing = rows.length > MAX_UNREAD_MESSAGES;
  if (missing) rows.length = MAX_UNREAD_MESSAGES;
  rows.reverse(); // oldest first, as each conversation lists its ids
  const streams = new Map<string, Conversation & { stream_id: number; topic: string }>();
  const pms = new Map<number, Conversation & { other_user_id: number; sender_id: number }>();
  const huddles = new Map<string, Conversation & { user_ids_string: string }>();
  const mentions: number[] = [];
  for (const row of rows) {
    if ((row.flags & MENTION_BITS) !== 0) mentions.push(row.id);
    if (row.type === "stream") {
      const key = `${row.stream_id}\n${row.topic}`;
      let entry = streams.get(key);
      if (!entry) streams.set(key, (entry = { stream_id: row.stream_id!, topic: row.topic, unread_message_ids: [] }));
      entry.unread_message_ids.push(row.id);
      continue;
    }
    const participants = dmParticipantIds(row.dm_key);
    if (participants.length <= 2) {
      // One-to-one (or with oneself): keyed by the other person.
      const other = participants.find((id) => id !== userId) ?? userId;
      let entry = pms.get(other);
      if (!entry) pms.set(other, (entry = { other_user_id: other, sender_id: other, unread_message_ids: [] }));
      entry.unread_message_ids.push(row.id);
    } else {
      const key = participants.join(",");
      let entry = huddles.get(key);
      if (!entry) huddles.set(key, (entry = { user_ids_string: key, unread_message_ids: [] }));
      entry.unread_message_ids.push(row.id);
    }
  }
  return {
    count: rows.length,
    pms: [...pms.values()],
    streams: [...streams.values()],
    huddles: [...huddles.values()],
    mentions,
    old_unreads_missing: missing,
  };
}
