// Sending messages: validation, Markdown, the message row and its per-recipient rows in one
// transaction; `message` events are returned for the caller to publish after commit.
import type { Db, Queryable } from "../../db/knex";
import { FLAG_BITS, flagsToNames, insertMessage, insertUserMessages } from "../../db/messages";
import { bool, nowSeconds, type MessageRow, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { updateStream } from "../../db/streams";
import { activeSubscriberIds } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import { findUserByEmail, findUsersByIds } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { assertCanPostToChannel, getChannelByNameOrId } from "../channels/channels";
import { formatMessages } from "./format";
import { messageHooks } from "./hooks";
import { normalizeName } from "../../names";

import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from "../../limits";

export { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH };
const TRUNCATION_NOTE = "\n[message truncated]";

/** Over-long content is cut (not refused), as the reference server does. */
export function normalizeContent(content: string): string {
  const trimmed = content.replace(/\s+$/, "");
  if (trimmed.trim().length === 0) throw Errors.badRequest("Message must not be empty");
  const chars = [...trimmed];
  if (chars.length <= MAX_MESSAGE_LENGTH) return trimmed;
  return chars.slice(0, MAX_MESSAGE_LENGTH - TRUNCATION_NOTE.length).join("") + TRUNCATION_NOTE;
}

// eslint-disable-next-line no-control-regex -- control characters are what topics may not contain
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * The topic as stored: NFC (names compare as src/names.ts says). `(no topic)` and the realm's
 * display name for the empty topic both mean the empty topic.
 */
export function normalizeTopic(topic: string, realm: Pick<RealmRow, "empty_topic_display_name">): string {
  const trimmed = normalizeName(topic).trim();
  if (trimmed === "(no topic)" || trimmed === realm.empty_topic_display_name) return "";
  const badPosition = trimmed.search(CONTROL_CHARACTER);
  if (badPosition !== -1) throw Errors.badRequest(`Invalid character in topic, at position ${badPosition + 1}!`);
  const chars = [...trimmed];
  return chars.length > MAX_TOPIC_LENGTH ? chars.slice(0, MAX_TOPIC_LENGTH - 3).join("") + "..." : trimmed;
}

export type Destination =
  | {
      type: "stream";
      stream: string | number;
      topic: string;
      /** The channel row when the caller has already looked it up (webhooks: once per delivery). */
      channel?: StreamRow;
    }
  | { type: "private"; to: (string | number)[] };

export interface SendInput {
  realm: RealmRow;
  sender: UserRow;
  destination: Destination;
  content: string;
  client?: string;
}

export interface SendResult {
  id: number;
  notifications: Notification[];
}

async function resolveDmRecipients(
  q: Queryable,
  realm: RealmRow,
  sender: UserRow,
  to: (string | number)[],
): Promise<UserRow[]> {
  if (to.length === 0) throw Errors.badRequest("Message must have recipients");
  const ids = to.filter((x): x is number => typeof x === "number");
  const emails = to.filter((x): x is string => typeof x === "string");
  const users = await findUsersByIds(q, realm.id, ids);
  if (users.length !== new Set(ids).size) {
    const found = new Set(users.map((u) => u.id));
    throw Errors.badRequest(`Invalid user ID ${ids.find((id) => !found.has(id))}`);
  }
  for (const email of emails) {
    const user = await findUserByEmail(q, realm.id, email);
    if (!user) throw Errors.badRequest(`Invalid email '${email}'`);
    users.push(user);
  }
  for (const user of users) {
    if (!bool(user.is_active) && user.id !== sender.id)
      throw Errors.badRequest(`'${user.email}' is no longer using Zulip.`);
  }
  const byId = new Map<number, UserRow>([[sender.id, sender]]);
  for (const user of users) byId.set(user.id, user);
  return [...byId.values()];
}

/** Writes the message and everyone's row; must run inside a transaction. */
export async function sendMessageInTransaction(trx: Queryable, input: SendInput): Promise<SendResult> {
  const { realm, sender } = input;
  const content = normalizeContent(input.content);
  let stream: StreamRow | undefined;
  let recipients: number[];
  let participants: UserRow[] = [];
  let topic = "";
  if (input.destination.type === "stream") {
    stream = input.destination.channel ?? (await getChannelByNameOrId(trx, realm.id, input.destination.stream));
    recipients = await activeSubscriberIds(trx, stream.id);
    await assertCanPostToChannel(trx, sender, stream, recipients.includes(sender.id));
    topic = normalizeTopic(input.destination.topic, realm);
    await messageHooks.checkTopic(trx, { realm, sender, stream, topic });
  } else {
    participants = await resolveDmRecipients(trx, realm, sender, input.destination.to);
    recipients = participants.map((u) => u.id);
  }
  const { html: rendered, mentions } = await messageHooks.renderWithMentions(trx, realm, content);
  const mentionFlags = await messageHooks.mentionFlags(trx, {
    sender,
    stream,
    topic,
    recipientIds: recipients,
    mentions,
  });
  const row: Omit<MessageRow, "id"> = {
    realm_id: realm.id,
    sender_id: sender.id,
    type: stream ? "stream" : "private",
    stream_id: stream?.id ?? null,
    topic,
    dm_key: stream
      ? null
      : participants
          .map((u) => u.id)
          .sort((a, b) => a - b)
          .join(","),
    content,
    rendered_content: rendered,
    date_sent: nowSeconds(),
    client: input.client ?? "API",
  };
  const id = await insertMessage(trx, row);
  const autoRead = new Set(await messageHooks.autoReadUserIds(trx, { sender, recipientIds: recipients }));
  const flagsFor = (userId: number) =>
    (userId === sender.id || autoRead.has(userId) ? FLAG_BITS.read : 0) | (mentionFlags.get(userId) ?? 0);
  const userRows = [...new Set([...recipients, sender.id])].map((user_id) => ({ user_id, flags: flagsFor(user_id) }));
  await insertUserMessages(trx, id, userRows);
  if (stream && stream.first_message_id === null) await updateStream(trx, stream.id, { first_message_id: id });
  await messageHooks.afterInsert(trx, { realm, sender, messageId: id, content });

  const [message] = await formatMessages(trx, realm, [{ ...row, id, flags: null }], {
    applyMarkdown: true,
    known: { users: stream ? [sender] : participants, streams: stream ? [stream] : [], noReactions: true },
  });
  const perUser: Record<number, Record<string, unknown>> = {};
  for (const r of userRows) perUser[r.user_id] = { flags: flagsToNames(r.flags) };
  const { flags: _flags, ...eventMessage } = message; // flags travel beside the message, per recipient
  const event = { type: "message", message: { ...eventMessage, raw_content: content }, flags: [] };
  return { id, notifications: [{ realmId: realm.id, userIds: userRows.map((r) => r.user_id), event, perUser }] };
}

export async function sendMessage(db: Db, input: SendInput): Promise<SendResult> {
  return withTransaction(db, (trx) => sendMessageInTransaction(trx, input));
}
