// A message's edit history, from its `message_edits` rows: GET /messages/{id}/history (snapshots of
// the message after each edit, oldest first) and the `edit_history` list message objects carry
// (newest first), both as the organization's `message_edit_history_visibility_policy` allows.
import type { Queryable } from "../../db/knex";
import { editsOfMessages, type MessageEditRow } from "../../db/messageEdits";
import type { RealmRow, UserRow } from "../../db/rows";
import { Errors } from "../../errors";
import { accessMessage } from "./access";

type Policy = "all" | "moves" | "none";

function policyOf(realm: RealmRow): Policy {
  const value = String(realm.message_edit_history_visibility_policy ?? "all");
  return value === "none" || value === "moves" ? value : "all";
}

const isMove = (e: MessageEditRow) => e.topic !== null || e.stream_id !== null;

/** `edit_history` entries of one message, newest first (the message object's field). */
function historyEntries(edits: MessageEditRow[], policy: Policy): Record<string, unknown>[] {
  const shown = policy === "moves" ? edits.filter(isMove) : edits;
  return shown
    .map((e) => {
      const entry: Record<string, unknown> = { user_id: e.user_id, timestamp: e.timestamp };
      if (policy === "all" && e.prev_content !== null) {
        entry.prev_content = e.prev_content;
        entry.prev_rendered_content = e.prev_rendered_content;
      }
      if (e.topic !== null) Object.assign(entry, { prev_topic: e.prev_topic, topic: e.topic });
      if (e.stream_id !== null) Object.assign(entry, { prev_stream: e.prev_stream_id, stream: e.stream_id });
      return entry;
    })
    .reverse();
}

/**
 * message id → `edit_history` for the rows that were ever edited or moved; nothing when the
 * organization hides edit history.
 */
export async function editHistoryByMessage(
  q: Queryable,
  realm: RealmRow,
  rows: { id: number; last_edit_time?: unknown; last_moved_time?: unknown }[],
): Promise<Map<number, Record<string, unknown>[]>> {
  const policy = policyOf(realm);
  const out = new Map<number, Record<string, unknown>[]>();
  // Resolving a topic sets neither time, so a row's edits are looked up whenever it has any.
  const ids = rows.map((r) => Number(r.id));
  if (policy === "none" || ids.length === 0) return out;
  const byMessage = new Map<number, MessageEditRow[]>();
  for (const edit of await editsOfMessages(q, ids))
    byMessage.set(edit.message_id, [...(byMessage.get(edit.message_id) ?? []), edit]);
  for (const [id, edits] of byMessage) {
    const entries = historyEntries(edits, policy);
    if (entries.length > 0) out.set(id, entries);
  }
  return out;
}

/** A crude HTML diff: the new rendering marked inserted, the old one deleted. */
function htmlDiff(before: string, after: string): string {
  return (
    `<div><span class="highlight_text_inserted">${after}</span>` +
    ` <span class="highlight_text_deleted">${before}</span></div>`
  );
}

/** GET /messages/{id}/history: the original message, then its state after each edit. */
export async function messageHistory(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  messageId: number,
): Promise<Record<string, unknown>[]> {
  const policy = policyOf(realm);
  if (policy === "none") throw Errors.badRequest("Message edit history is disabled in this organization");
  const { message } = await accessMessage(q, realm, user, messageId);
  const edits = await editsOfMessages(q, [Number(message.id)]);
  // Walk back from the message as it is now to what it was before each edit.
  let state = { content: message.content, rendered: message.rendered_content, topic: message.topic };
  const after: (typeof state)[] = [];
  for (let i = edits.length - 1; i >= 0; i--) {
    after[i] = state;
    const e = edits[i];
    state = {
      content: e.prev_content ?? state.content,
      rendered: e.prev_rendered_content ?? state.rendered,
      topic: e.prev_topic ?? state.topic,
    };
  }
  const original = state;
  const snapshots: Record<string, unknown>[] = [
    {
      topic: original.topic,
      content: policy === "all" ? original.content : message.content,
      rendered_content: policy === "all" ? original.rendered : message.rendered_content,
      timestamp: Number(message.date_sent),
      user_id: message.sender_id,
    },
  ];
  edits.forEach((e, i) => {
    if (policy === "moves" && !isMove(e)) return;
    const now = after[i];
    const snapshot: Record<string, unknown> = {
      topic: now.topic,
      content: policy === "all" ? now.content : message.content,
      rendered_content: policy === "all" ? now.rendered : message.rendered_content,
      timestamp: e.timestamp,
      user_id: e.user_id,
    };
    if (policy === "all" && e.prev_content !== null) {
      snapshot.prev_content = e.prev_content;
      snapshot.prev_rendered_content = e.prev_rendered_content;
      snapshot.content_html_diff = htmlDiff(e.prev_rendered_content ?? "", now.rendered);
    }
    if (e.topic !== null) snapshot.prev_topic = e.prev_topic;
    if (e.stream_id !== null) Object.assign(snapshot, { prev_stream: e.prev_stream_id, stream: e.stream_id });
    snapshots.push(snapshot);
  });
  return snapshots;
}
