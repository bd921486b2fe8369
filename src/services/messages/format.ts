// Message rows → the API's message objects (GET /messages, message events).
import type { Queryable } from "../../db/knex";
import { flagNames, type FetchedMessage } from "../../db/messages";
import type { RealmRow, StreamRow, UserRow } from "../../db/rows";
import { streamNamesByIds } from "../../db/streams";
import { findUsersByIds } from "../../db/users";
import { reactionsByMessage } from "../reactions/reactions";
import { editHistoryByMessage } from "./history";

export interface FormatOptions {
  applyMarkdown: boolean;
  /** Rows the caller already holds (a message being sent): saves the lookups. */
  known?: { users: UserRow[]; streams: Pick<StreamRow, "id" | "name">[]; noReactions: true };
}

function dmRecipientId(dmKey: string): number {
  // A stable positive id per DM conversation (clients only compare it for equality).
  let hash = 5381;
  for (const ch of dmKey) hash = ((hash * 33) ^ ch.charCodeAt(0)) >>> 0;
  return 1_000_000 + (hash % 1_000_000_000);
}

export async function formatMessages(
  q: Queryable,
  realm: RealmRow,
  rows: FetchedMessage[],
  options: FormatOptions,
): Promise<Record<string, unknown>[]> {
  const userIds = new Set<number>();
  const streamIds = new Set<number>();
  for (const row of rows) {
    userIds.add(row.sender_id);
    if (row.dm_key) row.dm_key.split(",").forEach((id) => userIds.add(Number(id)));
    if (row.stream_id !== null) streamIds.add(row.stream_id);
  }
  const known = options.known;
  const userRows = known ? known.users : await findUsersByIds(q, realm.id, [...userIds]);
  const users = new Map<number, UserRow>(userRows.map((u) => [u.id, u]));
  const streams = new Map<number, string>(
    (known ? known.streams : await streamNamesByIds(q, [...streamIds])).map((s) => [s.id, s.name]),
  );
  const reactions = known
    ? new Map<number, unknown[]>()
    : await loadReactions(
        q,
        rows.map((r) => Number(r.id)),
      );
  // A message being sent has no history yet.
  const histories = known ? new Map<number, unknown[]>() : await editHistoryByMessage(q, realm, rows);
  return rows.map((row) => {
    const sender = users.get(row.sender_id);
    const base: Record<string, unknown> = {
      id: Number(row.id),
      sender_id: row.sender_id,
      sender_full_name: sender?.full_name ?? "",
      sender_email: sender?.email ?? "",
      sender_realm_str: realm.string_id,
      avatar_url: null,
      client: row.client,
      content: options.applyMarkdown ? row.rendered_content : row.content,
      content_type: options.applyMarkdown ? "text/html" : "text/x-markdown",
      timestamp: Number(row.date_sent),
      subject: row.topic,
      topic_links: [],
      is_me_message: row.content.startsWith("/me "),
      reactions: reactions.get(Number(row.id)) ?? [],
      submessages: [],
      flags: flagNames(row.flags ?? 128),
      type: row.type,
    };
    if (row.last_edit_time) base.last_edit_timestamp = Number(row.last_edit_time);
    if (row.last_moved_time) base.last_moved_timestamp = Number(row.last_moved_time);
    const history = histories.get(Number(row.id));
    if (history) base.edit_history = history;
    if (row.type === "stream") {
      base.stream_id = row.stream_id;
      base.display_recipient = streams.get(row.stream_id!) ?? "";
      base.recipient_id = row.stream_id;
    } else {
      base.recipient_id = dmRecipientId(row.dm_key ?? "");
      base.display_recipient = (row.dm_key ?? "").split(",").map((id) => {
        const u = users.get(Number(id));
        return { id: Number(id), email: u?.email ?? "", full_name: u?.full_name ?? "", is_mirror_dummy: false };
      });
    }
    return base;
  });
}

/** Reactions per message id; the reactions feature fills this in once its table exists. */
export async function loadReactions(q: Queryable, messageIds: number[]): Promise<Map<number, unknown[]>> {
  return reactionsByMessage(q, messageIds);
}
