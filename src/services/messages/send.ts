// Sending messages, in three steps: prepareSend validates and renders (reads only, outside any
// transaction), writeSends stores any number of prepared sends in the caller's transaction, and
// sentNotifications builds their `message` events for the caller to publish after commit.
// groupCommit.ts batches concurrent sends through these steps; sendMessageInTransaction runs them
// for one message inside a transaction someone else owns.
import type { Queryable } from "../../db/knex";
import { FLAG_BITS, flagNames, insertMessage, insertMessages, insertUserMessageRows } from "../../db/messages";
import { bool, nowSeconds, type MessageRow, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { setFirstMessageIdIfUnset } from "../../db/streams";
import { activeSubscriberIds } from "../../db/subscriptions";
import { idleStateOf, idleSubscriberIds } from "../../db/softDeactivation";
import { findUserByEmail, findUsersByIds } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { assertCanPostToChannel, getChannelByNameOrId } from "../channels/channels";
import { formatMessages } from "./format";
import { messageHooks } from "./hooks";
import type { MentionsFound } from "../../markdown/markdown";
import { normalizeName } from "../../names";

import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from "../../limits";

export { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH };
const TRUNCATION_NOTE = "\n[message truncated]";

/** Over-long content is cut (not refused), as the reference server does. */
export function normalizeContent(content: string): string {
  const trimmed = content.trimEnd();
  if (trimmed.trim().length === 0) throw Errors.badRequest("Message must not be empty");
  // Code points are never more than UTF-16 units: text within the limit in units needs no counting.
  if (trimmed.length <= MAX_MESSAGE_LENGTH) return trimmed;
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
  if (trimmed.length <= MAX_TOPIC_LENGTH) return trimmed;
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
  /**
   * An outgoing-webhook bot's reply into the channel that triggered it: the bot needs no
   * subscription there (it was triggered from it), as the reference; the other checks still apply.
   */
  replyToTrigger?: boolean;
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

/** A send that passed validation, rendered, with its recipients' rows decided; nothing written yet. */
export interface PreparedSend {
  input: SendInput;
  /** The message row; date_sent is set when it is written. */
  row: Omit<MessageRow, "id" | "date_sent">;
  stream?: StreamRow;
  participants: UserRow[];
  userRows: { user_id: number; flags: number }[];
  /** Soft-deactivated subscribers given no row (the message gives them no flag); checked again when written. */
  idleLeftOut: number[];
  attachmentIds: number[];
  /** What the content mentions, subscribers or not (outgoing-webhook bots are triggered by it). */
  mentions: MentionsFound;
}

/** Validation, Markdown, mention flags and recipients: reads only, so it needs no transaction. */
export async function prepareSend(q: Queryable, input: SendInput): Promise<PreparedSend> {
  const { realm, sender } = input;
  const content = normalizeContent(input.content);
  let stream: StreamRow | undefined;
  let recipients: number[];
  let participants: UserRow[] = [];
  let topic = "";
  if (input.destination.type === "stream") {
    stream = input.destination.channel ?? (await getChannelByNameOrId(q, realm.id, input.destination.stream));
    recipients = await activeSubscriberIds(q, stream.id);
    await assertCanPostToChannel(q, sender, stream, input.replyToTrigger || recipients.includes(sender.id));
    topic = normalizeTopic(input.destination.topic, realm);
    await messageHooks.checkTopic(q, { realm, sender, stream, topic });
  } else {
    participants = await resolveDmRecipients(q, realm, sender, input.destination.to);
    recipients = participants.map((u) => u.id);
  }
  const { html: rendered, mentions } = await messageHooks.renderWithMentions(q, realm, content);
  const mentionFlags = await messageHooks.mentionFlags(q, {
    sender,
    stream,
    topic,
    recipientIds: recipients,
    mentions,
    content,
  });
  const row: PreparedSend["row"] = {
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
    client: input.client ?? "API",
  };
  const autoRead = new Set(await messageHooks.autoReadUserIds(q, { sender, recipientIds: recipients }));
  const flagsFor = (userId: number) =>
    (userId === sender.id || autoRead.has(userId) ? FLAG_BITS.read : 0) | (mentionFlags.get(userId) ?? 0);
  // Recipients are distinct (subscribers, or the DM's participants); the sender always has a row.
  const idle = stream ? await idleSubscriberIds(q, stream.id) : NOBODY;
  const userRows: PreparedSend["userRows"] = [];
  const idleLeftOut: number[] = [];
  for (const user_id of recipients) {
    const flags = flagsFor(user_id);
    if (flags === 0 && idle.has(user_id)) idleLeftOut.push(user_id);
    else userRows.push({ user_id, flags });
  }
  if (!recipients.includes(sender.id)) userRows.push({ user_id: sender.id, flags: flagsFor(sender.id) });
  const attachmentIds = await messageHooks.attachmentIds(q, { realm, sender, content });
  return { input, row, stream, participants, userRows, idleLeftOut, attachmentIds, mentions };
}

const NOBODY: ReadonlySet<number> = new Set();

export interface WrittenSends {
  /** One id per send, in the order given (increasing). */
  ids: number[];
  dateSent: number;
  /** Per send: users it left out as idle who have come back meanwhile, so got their row after all. */
  returned: number[][];
}

/**
 * Stores prepared sends, in order; must run inside a transaction. The messages go in one multi-row
 * INSERT (measured: 64 single-row INSERTs took 40-70 ms on MariaDB, one 64-row INSERT 5-10 ms;
 * SQLite 10 ms against 1 ms), its ids checked by insertMessages; `rowByRow` is group commit's
 * fallback, one INSERT per message, whose ids every driver reports exactly. The recipient rows, the
 * bulk (one per subscriber), go in multi-row INSERTs for the whole batch: they need no ids back.
 */
export async function writeSends(
  trx: Queryable,
  sends: PreparedSend[],
  options: { rowByRow?: boolean; idOrder?: { begun: Promise<void>; end(): void } } = {},
): Promise<WrittenSends> {
  const ids: number[] = [];
  // Concurrent writers take turns for their message INSERT (group commit's batches: ids in order).
  await options.idOrder?.begun;
  // Taken once the turn has come: a batch's messages are never dated before the previous batch's.
  const dateSent = nowSeconds();
  const rows = sends.map((send) => ({ ...send.row, date_sent: dateSent }));
  try {
    if (options.rowByRow) for (const row of rows) ids.push(await insertMessage(trx, row));
    else ids.push(...(await insertMessages(trx, rows)));
  } finally {
    options.idOrder?.end();
  }
  const returned = await returnedMeanwhile(trx, sends, ids);
  await insertUserMessageRows(trx, [
    ...sends.flatMap((send, i) =>
      send.userRows.map((r) => ({ user_id: r.user_id, message_id: ids[i], flags: r.flags })),
    ),
    ...returned.flatMap((userIds, i) => userIds.map((user_id) => ({ user_id, message_id: ids[i], flags: 0 }))),
  ]);
  const firstInChannel = new Map<number, number>();
  sends.forEach((send, i) => {
    if (send.stream && send.stream.first_message_id === null && !firstInChannel.has(send.stream.id))
      firstInChannel.set(send.stream.id, ids[i]);
  });
  for (const [streamId, id] of firstInChannel) await setFirstMessageIdIfUnset(trx, streamId, id);
  for (const [i, send] of sends.entries())
    await messageHooks.afterInsert(trx, { messageId: ids[i], attachmentIds: send.attachmentIds });
  return { ids, dateSent, returned };
}

/**
 * The users each send left out as idle who need their row after all: they came back since the
 * send was prepared, or the message is older than the point their rows are complete up to.
 */
async function returnedMeanwhile(trx: Queryable, sends: PreparedSend[], ids: number[]): Promise<number[][]> {
  const leftOut = new Set(sends.flatMap((send) => send.idleLeftOut));
  if (leftOut.size === 0) return sends.map(() => []);
  const state = await idleStateOf(trx, [...leftOut]);
  return sends.map((send, i) =>
    send.idleLeftOut.filter((userId) => {
      const now = state.get(userId);
      return now !== undefined && (!now.idle || ids[i] <= now.completeUpTo);
    }),
  );
}

const perUserFlagsByBits = new Map<number, Readonly<{ flags: readonly string[] }>>();
function perUserFlags(bits: number): Readonly<{ flags: readonly string[] }> {
  let fields = perUserFlagsByBits.get(bits);
  if (!fields) perUserFlagsByBits.set(bits, (fields = Object.freeze({ flags: flagNames(bits) })));
  return fields;
}

/** The `message` event of a stored send (`known` rows: formatting makes no query). */
export async function sentNotifications(
  q: Queryable,
  send: PreparedSend,
  id: number,
  dateSent: number,
  returned: number[] = [],
): Promise<Notification[]> {
  const { realm, sender } = send.input;
  const { stream, participants } = send;
  const userRows =
    returned.length === 0 ? send.userRows : [...send.userRows, ...returned.map((user_id) => ({ user_id, flags: 0 }))];
  const [message] = await formatMessages(q, realm, [{ ...send.row, date_sent: dateSent, id, flags: null }], {
    applyMarkdown: true,
    known: { users: stream ? [sender] : participants, streams: stream ? [stream] : [], noReactions: true },
  });
  // One frozen `{flags}` per combination, shared by the recipients who have it (a big channel's are many).
  const perUser: Record<number, Record<string, unknown>> = {};
  for (const r of userRows) perUser[r.user_id] = perUserFlags(r.flags);
  const { flags: _flags, ...eventMessage } = message; // flags travel beside the message, per recipient
  const event = { type: "message", message: { ...eventMessage, raw_content: send.row.content }, flags: [] };
  return [{ realmId: realm.id, userIds: userRows.map((r) => r.user_id), event, perUser }];
}

/** One message inside a transaction the caller owns (e.g. Notification Bot messages of a subscribe). */
export async function sendMessageInTransaction(trx: Queryable, input: SendInput): Promise<SendResult> {
  const prepared = await prepareSend(trx, input);
  const { ids, dateSent, returned } = await writeSends(trx, [prepared]);
  return { id: ids[0], notifications: await sentNotifications(trx, prepared, ids[0], dateSent, returned[0]) };
}
