// Queries behind editing, moving and deleting messages, and their edit history (`message_edits`).
import type { Queryable } from "./knex";
import { insertRows } from "./knex";
import type { MessageRow } from "./rows";
import { nameKey } from "../names";
import { isMysql } from "./collation";

export interface MessageEditRow {
  id: number;
  message_id: number;
  user_id: number | null;
  timestamp: number;
  prev_content: string | null;
  prev_rendered_content: string | null;
  prev_topic: string | null;
  topic: string | null;
  prev_stream_id: number | null;
  stream_id: number | null;
}

/** Ids per `IN (…)` list: well under SQLite's bound on parameters per statement. */
const IDS_PER_STATEMENT = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += IDS_PER_STATEMENT) out.push(items.slice(i, i + IDS_PER_STATEMENT));
  return out;
}

export async function insertMessageEdits(q: Queryable, rows: Omit<MessageEditRow, "id">[]): Promise<void> {
  await insertRows(q, "message_edits", rows);
}

/** The edits of these messages, oldest first. */
export async function editsOfMessages(q: Queryable, messageIds: number[]): Promise<MessageEditRow[]> {
  const rows: MessageEditRow[] = [];
  for (const ids of chunks(messageIds)) {
    rows.push(...(await q<MessageEditRow>("message_edits").whereIn("message_id", ids).orderBy("id", "asc")));
  }
  return rows.map((r) => ({ ...r, message_id: Number(r.message_id), timestamp: Number(r.timestamp) }));
}

/** A content edit of one message. */
export async function updateMessageContent(
  q: Queryable,
  messageId: number,
  fields: { content: string; rendered_content: string; last_edit_time: number },
): Promise<void> {
  await q("messages").where({ id: messageId }).update(fields);
}

/** Moves messages to a channel and/or topic. `movedAt` is null for a resolve-only rename. */
export async function moveMessages(
  q: Queryable,
  messageIds: number[],
  to: { streamId: number; topic: string },
  movedAt: number | null,
): Promise<void> {
  const fields: Record<string, unknown> = { stream_id: to.streamId, topic: to.topic, topic_key: nameKey(to.topic) };
  if (movedAt !== null) fields.last_moved_time = movedAt;
  for (const ids of chunks(messageIds)) await q("messages").whereIn("id", ids).update(fields);
}

/**
 * The messages of a topic from `fromId` on (all of them when undefined), oldest first, with their
 * send times. `onlyWithRowOf`: only those the user has a row for (a channel with protected history).
 */
export async function topicMessages(
  q: Queryable,
  streamId: number,
  topic: string,
  fromId: number | undefined,
  onlyWithRowOf?: number,
): Promise<{ id: number; date_sent: number }[]> {
  const query = q("messages as m").where({ "m.stream_id": streamId, "m.topic_key": nameKey(topic) });
  if (fromId !== undefined) query.where("m.id", ">=", fromId);
  if (onlyWithRowOf !== undefined)
    query.join("user_messages as um", "um.message_id", "m.id").where("um.user_id", onlyWithRowOf);
  const rows: { id: number; date_sent: number }[] = await query.orderBy("m.id", "asc").select("m.id", "m.date_sent");
  return rows.map((r) => ({ id: Number(r.id), date_sent: Number(r.date_sent) }));
}

/** Recipient rows of these messages: message id → (user id → flags). */
export async function recipientRowsOf(q: Queryable, messageIds: number[]): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>(messageIds.map((id) => [id, new Map()]));
  for (const ids of chunks(messageIds)) {
    const rows: { user_id: number; message_id: number; flags: number }[] = await q("user_messages")
      .whereIn("message_id", ids)
      .select("user_id", "message_id", "flags");
    for (const r of rows) out.get(Number(r.message_id))?.set(Number(r.user_id), Number(r.flags));
  }
  return out;
}

/** Sets a recipient row's flags to a new value (mentions recomputed after a content edit). */
export async function setRecipientFlags(q: Queryable, messageId: number, userIds: number[], flags: number) {
  for (const ids of chunks(userIds))
    await q("user_messages").where("message_id", messageId).whereIn("user_id", ids).update({ flags });
}

/** Removes these users' rows of these messages (they lost access by a move to a private channel). */
export async function deleteRecipientRows(q: Queryable, messageIds: number[], userIds: number[]): Promise<void> {
  for (const users of chunks(userIds))
    for (const ids of chunks(messageIds))
      await q("user_messages").whereIn("user_id", users).whereIn("message_id", ids).delete();
}

/**
 * Deletes messages with everything hanging off them. user_messages has no foreign key (see the lean
 * user_messages migration), so its rows go explicitly; the others would cascade, but are deleted here
 * too so both databases do the same whatever their foreign-key settings.
 */
export async function deleteMessages(q: Queryable, messageIds: number[]): Promise<void> {
  for (const ids of chunks(messageIds)) {
    await q("user_messages").whereIn("message_id", ids).delete();
    await q("reactions").whereIn("message_id", ids).delete();
    await q("attachment_messages").whereIn("message_id", ids).delete();
    await q("message_edits").whereIn("message_id", ids).delete();
    await q("messages").whereIn("id", ids).delete();
  }
}

/** The message rows, for update (locked on MySQL until the transaction ends: two edits take turns). */
export async function lockMessage(q: Queryable, realmId: number, id: number): Promise<MessageRow | undefined> {
  const query = q<MessageRow>("messages").where({ realm_id: realmId, id });
  if (isMysql(q)) query.forUpdate();
  return query.first();
}
