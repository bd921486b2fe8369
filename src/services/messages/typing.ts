// Typing notifications: stateless — each request becomes one `typing` event for the recipients.
import type { Queryable } from "../../db/knex";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { findStreamById } from "../../db/streams";
import { activeSubscriberIds } from "../../db/subscriptions";
import { findUsersByIds } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { assertCanPostToChannel, canAccessChannel } from "../channels/channels";
import { normalizeTopic } from "./send";
import { MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS } from "../realms/serverInfo";

export type TypingOp = "start" | "stop";

function person(user: UserRow): { user_id: number; email: string } {
  return { user_id: user.id, email: user.email };
}

/** Direct-message typing: the event lists every participant; only active ones receive it. */
export async function directTyping(
  q: Queryable,
  realm: RealmRow,
  sender: UserRow,
  op: TypingOp,
  to: number[],
): Promise<Notification[]> {
  const ids = [...new Set([...to, sender.id])];
  const users = await findUsersByIds(q, realm.id, ids);
  const found = new Set(users.map((u) => u.id));
  const unknown = ids.find((id) => !found.has(id));
  if (unknown !== undefined) throw Errors.badRequest(`Invalid user ID ${unknown}`);
  const ordered = ids.map((id) => users.find((u) => u.id === id)!);
  const event = { type: "typing", message_type: "direct", op, sender: person(sender), recipients: ordered.map(person) };
  const userIds = ordered.filter((u) => bool(u.is_active)).map((u) => u.id);
  return [{ realmId: realm.id, userIds, event }];
}

/**
 * Channel typing goes to the subscribers of channels with at most 100 of them, and only to
 * clients that declared the `stream_typing_notifications` capability.
 */
export async function channelTyping(
  q: Queryable,
  realm: RealmRow,
  sender: UserRow,
  op: TypingOp,
  streamId: number,
  rawTopic: string,
): Promise<Notification[]> {
  const stream = await findStreamById(q, realm.id, streamId);
  if (!stream || !(await canAccessChannel(q, sender, stream))) throw Errors.badRequest("Invalid channel ID");
  await assertCanPostToChannel(q, sender, stream);
  const topic = normalizeTopic(rawTopic, realm);
  const subscribers = await activeSubscriberIds(q, stream.id);
  if (subscribers.length > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS) return [];
  const event = { type: "typing", message_type: "stream", op, sender: person(sender), stream_id: stream.id, topic };
  return [{ realmId: realm.id, userIds: subscribers, event, capability: "stream_typing_notifications" }];
}
