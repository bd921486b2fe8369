// "Can this user act on this message?" — the rule reactions (and similar per-message actions)
// share with reading a single message: one's own row, or a channel with shared history.
import type { Queryable } from "../../db/knex";
import {
  findMessage,
  findUserMessageFlags,
  insertUserMessages,
  FLAG_BITS,
  userMessageRecipients,
} from "../../db/messages";
import { bool, type MessageRow, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { findStreamById } from "../../db/streams";
import { activeSubscriberIds, isSubscribed } from "../../db/subscriptions";
import { Errors } from "../../errors";
import { isGuest } from "../users/users";

export interface AccessibleMessage {
  message: MessageRow;
  stream?: StreamRow;
  /** False when the user reads it through channel history and has no row of their own yet. */
  hasRow: boolean;
}

export async function accessMessage(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  messageId: number,
): Promise<AccessibleMessage> {
  const message = await findMessage(q, realm.id, messageId);
  if (!message) throw Errors.invalidMessage();
  const stream = message.stream_id !== null ? await findStreamById(q, realm.id, message.stream_id) : undefined;
  if ((await findUserMessageFlags(q, user.id, messageId)) !== undefined) return { message, stream, hasRow: true };
  if (!stream || !(await canReadChannelHistory(q, user, stream))) throw Errors.invalidMessage();
  return { message, stream, hasRow: false };
}

/**
 * May the user read a channel's messages that they have no row for? Only where the history is
 * shared with subscribers, and then as a subscriber, or in a public channel as a member (a guest
 * only if it is web-public). Reading a message and downloading a file it links (uploads) share it.
 */
export async function canReadChannelHistory(q: Queryable, user: UserRow, stream: StreamRow): Promise<boolean> {
  if (!bool(stream.history_public_to_subscribers)) return false;
  const subscribed = await isSubscribed(q, user.id, stream.id);
  return bool(stream.invite_only) ? subscribed : subscribed || !isGuest(user) || bool(stream.is_web_public);
}

/** Gives the user a (historical, read) row for a message they reached through channel history. */
export async function ensureHistoricalRow(q: Queryable, access: AccessibleMessage, userId: number): Promise<void> {
  if (!access.hasRow)
    await insertUserMessages(q, access.message.id, [{ user_id: userId, flags: FLAG_BITS.historical | FLAG_BITS.read }]);
}

/** Who hears about changes to a message: everyone with a row, plus subscribers of a shared-history channel. */
export async function messageAudience(q: Queryable, access: AccessibleMessage): Promise<number[]> {
  const ids = new Set((await userMessageRecipients(q, access.message.id)).map((r) => r.user_id));
  if (access.stream && bool(access.stream.history_public_to_subscribers)) {
    for (const id of await activeSubscriberIds(q, access.stream.id)) ids.add(id);
  }
  return [...ids];
}
