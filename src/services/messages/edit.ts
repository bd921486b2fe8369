// PATCH /messages/{id}: editing a message's content, renaming its topic and moving it (with the rest
// of its topic, `propagate_mode`) to another channel, as the reference does: its permission rules
// (editPolicy.ts), re-rendering with mention flags recomputed, an edit-history row per changed
// message, recipient rows following a move, Notification Bot notices in the old and new places, and
// one `update_message` event (plus `delete_message` for users a move took the messages away from).
import crypto from "node:crypto";
import type { Db, Queryable } from "../../db/knex";
import { FLAG_BITS, flagNames, insertUserMessageRows } from "../../db/messages";
import {
  deleteRecipientRows,
  insertMessageEdits,
  lockMessage,
  moveMessages,
  recipientRowsOf,
  setRecipientFlags,
  topicMessages,
  updateMessageContent,
  type MessageEditRow,
} from "../../db/messageEdits";
import { bool, nowSeconds, type MessageRow, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { activeSubscriberIds } from "../../db/subscriptions";
import { findUserById, findUsersByIds } from "../../db/users";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { assertCanPostToChannel, canAccessChannel, getChannelByNameOrId } from "../channels/channels";
import { isGuest } from "../users/users";
import { accessMessage } from "./access";
import {
  checkCanEditContent,
  checkCanMoveOutOfChannel,
  checkCanMoveWithinChannel,
  isResolveOnly,
  isResolvedTopic,
  moveTimeLimit,
} from "./editPolicy";
import { messageHooks } from "./hooks";
import { deletedMessageNotifications } from "./delete";
import { normalizeContent, normalizeTopic, sendMessageInTransaction } from "./send";
import { checkTopicsPolicy } from "./topicsPolicy";

export const PROPAGATE_MODES = ["change_one", "change_later", "change_all"] as const;
export type PropagateMode = (typeof PROPAGATE_MODES)[number];

export interface EditInput {
  messageId: number;
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  prevContentSha256?: string;
}

/** Every flag a message's mentions and alert words set; an edit recomputes them all. */
const MENTION_FLAGS =
  FLAG_BITS.has_alert_word |
  FLAG_BITS.mentioned |
  FLAG_BITS.wildcard_mentioned |
  FLAG_BITS.stream_wildcard_mentioned |
  FLAG_BITS.topic_wildcard_mentioned;

/** The reference stores an edit that empties a message as this text. */
const DELETED_CONTENT = "(deleted)";

interface Plan {
  message: MessageRow;
  stream?: StreamRow;
  content?: { text: string; html: string };
  topic?: string;
  dest?: StreamRow;
  movedIds: number[];
}

/** Validates the request against the message as it is; undefined when nothing would change. */
async function plan(q: Queryable, realm: RealmRow, user: UserRow, input: EditInput): Promise<Plan | undefined> {
  if (input.content === undefined && input.topic === undefined && input.streamId === undefined)
    throw Errors.badRequest("Nothing to change");
  const access = await accessMessage(q, realm, user, input.messageId);
  const message = (await lockMessage(q, realm.id, input.messageId)) ?? access.message;
  const stream = access.stream;
  if (!stream) {
    if (input.streamId !== undefined) throw Errors.badRequest("Direct messages cannot be moved to channels.");
    if (input.topic !== undefined) throw Errors.badRequest("Direct messages cannot have topics.");
  }
  // A topic or channel given as it already is asks for no change (as zulip-terminal sends them).
  let topic = input.topic === undefined ? undefined : normalizeTopic(input.topic, realm);
  if (topic === message.topic) topic = undefined;
  const streamId = input.streamId === message.stream_id ? undefined : input.streamId;
  if (input.propagateMode !== "change_one" && topic === undefined && streamId === undefined)
    throw Errors.badRequest("Invalid propagate_mode without topic edit");
  if (streamId !== undefined && input.content !== undefined)
    throw Errors.badRequest("Cannot change message content while changing channel");
  if (input.prevContentSha256 !== undefined) {
    const actual = crypto.createHash("sha256").update(message.content).digest("hex");
    if (actual !== input.prevContentSha256.toLowerCase())
      throw Errors.badRequest("'prev_content_sha256' value does not match the expected value.");
  }

  let content: Plan["content"];
  if (input.content !== undefined) {
    checkCanEditContent(realm, user, message);
    const text = input.content.trim() === "" ? DELETED_CONTENT : normalizeContent(input.content);
    if (text !== message.content) content = { text, html: "" };
  }
  if (content === undefined && topic === undefined && streamId === undefined) return undefined;

  let dest: StreamRow | undefined;
  if (streamId !== undefined) {
    checkChannelMovable(stream!);
    await checkCanMoveOutOfChannel(q, realm, user, stream!);
    dest = await getChannelByNameOrId(q, realm.id, streamId);
    if (!(await canAccessChannel(q, user, dest))) throw Errors.streamIdNotFound(streamId);
    await assertCanPostToChannel(q, user, dest);
  }
  if (topic !== undefined) {
    checkChannelMovable(stream!);
    await checkCanMoveWithinChannel(
      q,
      realm,
      user,
      stream!,
      streamId === undefined && isResolveOnly(message.topic, topic),
    );
  }
  if (topic !== undefined || dest !== undefined) checkTopicsPolicy(dest ?? stream!, topic ?? message.topic);

  const movedIds = await messagesToMove(q, realm, user, message, stream, input.propagateMode, topic, streamId);
  return { message, stream, content, topic, dest, movedIds };
}

function checkChannelMovable(stream: StreamRow): void {
  if (bool(stream.is_archived)) throw Errors.badRequest("You don't have permission to move this message");
}

/** The ids a move takes along (none for a content edit), checked against the move time limits. */
async function messagesToMove(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  message: MessageRow,
  stream: StreamRow | undefined,
  mode: PropagateMode,
  topic: string | undefined,
  streamId: number | undefined,
): Promise<number[]> {
  if (!stream || (topic === undefined && streamId === undefined)) return [];
  const candidates =
    mode === "change_one"
      ? [{ id: Number(message.id), date_sent: Number(message.date_sent) }]
      : await topicMessages(
          q,
          stream.id,
          message.topic,
          mode === "change_later" ? Number(message.id) : undefined,
          // In a channel with protected history a user moves only what they could read.
          bool(stream.history_public_to_subscribers) ? undefined : user.id,
        );
  const limit = moveTimeLimit(realm, user, topic !== undefined, streamId !== undefined);
  if (limit === null) return candidates.map((m) => m.id);
  const cutoff = nowSeconds() - limit;
  const allowed = candidates.filter((m) => m.date_sent >= cutoff);
  if (allowed.length === candidates.length) return candidates.map((m) => m.id);
  if (allowed.length === 0 || mode === "change_one") {
    throw Errors.badRequest(
      streamId !== undefined
        ? "The time limit for editing this message's channel has passed"
        : "The time limit for editing this message's topic has passed",
    );
  }
  throw Errors.moveTimeLimitExceeded(allowed.length, candidates.length, allowed[0].id);
}

export async function editMessage(db: Db, realm: RealmRow, user: UserRow, input: EditInput): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const planned = await plan(trx, realm, user, input);
    return planned ? apply(trx, realm, user, input, planned) : [];
  });
}

async function apply(
  trx: Queryable,
  realm: RealmRow,
  user: UserRow,
  input: EditInput,
  p: Plan,
): Promise<Notification[]> {
  const { message, stream } = p;
  const now = nowSeconds();
  const messageId = Number(message.id);
  const rows = await recipientRowsOf(trx, [messageId, ...p.movedIds.filter((id) => id !== messageId)]);
  const targetRows = rows.get(messageId)!;
  const out: Notification[] = [];

  if (p.content) {
    const sender = (await findUserById(trx, realm.id, message.sender_id)) ?? user;
    const rendered = await messageHooks.renderWithMentions(trx, realm, p.content.text);
    p.content.html = rendered.html;
    const mentions = await messageHooks.mentionFlags(trx, {
      sender,
      stream,
      topic: message.topic,
      recipientIds: [...targetRows.keys()],
      mentions: rendered.mentions,
      content: p.content.text,
    });
    // Rows whose mention flags change, grouped by their new value: one UPDATE per distinct value.
    const byFlags = new Map<number, number[]>();
    for (const [userId, flags] of targetRows) {
      const next = (flags & ~MENTION_FLAGS) | (mentions.get(userId) ?? 0);
      if (next === flags) continue;
      targetRows.set(userId, next);
      byFlags.set(next, [...(byFlags.get(next) ?? []), userId]);
    }
    for (const [flags, userIds] of byFlags) await setRecipientFlags(trx, messageId, userIds, flags);
    await updateMessageContent(trx, messageId, {
      content: p.content.text,
      rendered_content: rendered.html,
      last_edit_time: now,
    });
  }

  const moved = p.movedIds.length > 0;
  const newStream = p.dest ?? stream;
  const newTopic = p.topic ?? message.topic;
  const resolveOnly = p.dest === undefined && p.topic !== undefined && isResolveOnly(message.topic, p.topic);
  if (moved)
    await moveMessages(trx, p.movedIds, { streamId: newStream!.id, topic: newTopic }, resolveOnly ? null : now);

  const edits: Omit<MessageEditRow, "id">[] = [];
  const editOf = (id: number): Omit<MessageEditRow, "id"> => ({
    message_id: id,
    user_id: user.id,
    timestamp: now,
    prev_content: null,
    prev_rendered_content: null,
    prev_topic: p.topic !== undefined ? message.topic : null,
    topic: p.topic !== undefined ? p.topic : null,
    prev_stream_id: p.dest ? stream!.id : null,
    stream_id: p.dest ? p.dest.id : null,
  });
  if (p.content) {
    edits.push({
      ...editOf(messageId),
      prev_content: message.content,
      prev_rendered_content: message.rendered_content,
      ...(moved ? {} : { prev_topic: null, topic: null, prev_stream_id: null, stream_id: null }),
    });
  }
  for (const id of p.movedIds) if (!(p.content && id === messageId)) edits.push(editOf(id));
  await insertMessageEdits(trx, edits);

  // Recipient rows follow a move to another channel: its subscribers without a row get one (read),
  // and those who may not read the new channel lose theirs.
  let losing: number[] = [];
  if (p.dest) {
    const subscribers = new Set(await activeSubscriberIds(trx, p.dest.id));
    const holders = new Set([...rows.values()].flatMap((m) => [...m.keys()]));
    const outsiders = [...holders].filter((id) => !subscribers.has(id));
    const privateDest = bool(p.dest.invite_only);
    losing = privateDest
      ? outsiders
      : (await findUsersByIds(trx, realm.id, outsiders)).filter((u) => isGuest(u)).map((u) => u.id);
    if (losing.length > 0) await deleteRecipientRows(trx, p.movedIds, losing);
    const gaining = [...rows].flatMap(([id, holdersOf]) =>
      [...subscribers]
        .filter((userId) => !holdersOf.has(userId))
        .map((userId) => ({ user_id: userId, message_id: id, flags: FLAG_BITS.read })),
    );
    await insertUserMessageRows(trx, gaining);
    for (const row of gaining) if (row.message_id === messageId) targetRows.set(row.user_id, row.flags);
    for (const userId of losing) targetRows.delete(userId);
  }

  out.push(await updateEvent(trx, realm, user, input, p, now, targetRows, rows, losing));
  if (losing.length > 0)
    out.push(
      ...deletedMessageNotifications(realm.id, losing, p.movedIds, {
        type: "stream",
        stream: stream!,
        topic: message.topic,
      }),
    );
  if (moved) out.push(...(await moveNotices(trx, realm, user, input, p, resolveOnly)));
  return out;
}

async function updateEvent(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  input: EditInput,
  p: Plan,
  now: number,
  targetRows: Map<number, number>,
  rows: Map<number, Map<number, number>>,
  losing: number[],
): Promise<Notification> {
  const { message, stream } = p;
  const messageId = Number(message.id);
  const event: Record<string, unknown> = {
    type: "update_message",
    user_id: user.id,
    edit_timestamp: now,
    message_id: messageId,
    message_ids: p.movedIds.length > 0 ? [...p.movedIds].sort((a, b) => a - b) : [messageId],
    rendering_only: false,
    flags: [],
  };
  if (stream) Object.assign(event, { stream_name: stream.name, stream_id: stream.id });
  if (p.content) {
    Object.assign(event, {
      orig_content: message.content,
      orig_rendered_content: message.rendered_content,
      content: p.content.text,
      rendered_content: p.content.html,
      is_me_message: p.content.text.startsWith("/me "),
    });
  }
  if (p.movedIds.length > 0) {
    Object.assign(event, { propagate_mode: input.propagateMode, orig_subject: message.topic });
    if (p.topic !== undefined) Object.assign(event, { subject: p.topic, topic_links: [] });
    if (p.dest) event.new_stream_id = p.dest.id;
  }
  // Everyone with a row of one of the messages, and the subscribers of a channel with shared history
  // (old and new), who may have them on screen; minus those the move took them from.
  const audience = new Set<number>([...rows.values()].flatMap((m) => [...m.keys()]));
  for (const channel of [stream, p.dest]) {
    if (channel && bool(channel.history_public_to_subscribers))
      for (const id of await activeSubscriberIds(q, channel.id)) audience.add(id);
  }
  for (const id of losing) audience.delete(id);
  const perUser: Record<number, Record<string, unknown>> = {};
  for (const id of audience) perUser[id] = { flags: flagNames(targetRows.get(id) ?? 0) };
  return { realmId: realm.id, userIds: [...audience], event, perUser };
}

const silentMention = (user: UserRow) => `@_**${user.full_name}|${user.id}**`;
const place = (stream: StreamRow, topic: string) => `#**${stream.name}>${topic}**`;

/** The web client's narrow link to a message (its hash encoding: percent signs become dots). */
function nearLink(stream: StreamRow, topic: string, id: number): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/\./g, "%2E").replace(/%/g, ".");
  return `#narrow/channel/${stream.id}-${encode(stream.name.replace(/ /g, "-"))}/topic/${encode(topic)}/near/${id}`;
}

/** The Notification Bot's notices of a move, with the reference's texts. */
async function moveNotices(
  trx: Queryable,
  realm: RealmRow,
  user: UserRow,
  input: EditInput,
  p: Plan,
  resolveOnly: boolean,
): Promise<Notification[]> {
  const bot =
    realm.notification_bot_id === null ? undefined : await findUserById(trx, realm.id, realm.notification_bot_id);
  if (!bot || !p.stream) return [];
  const oldStream = p.stream;
  const oldTopic = p.message.topic;
  const newStream = p.dest ?? oldStream;
  const newTopic = p.topic ?? oldTopic;
  const send = async (stream: StreamRow, topic: string, content: string) =>
    (
      await sendMessageInTransaction(trx, {
        realm,
        sender: bot,
        destination: { type: "stream", stream: stream.id, topic, channel: stream },
        content,
        client: "Internal",
      })
    ).notifications;
  if (resolveOnly) {
    const verb = isResolvedTopic(newTopic) ? "resolved" : "unresolved";
    return send(newStream, newTopic, `${silentMention(user)} has marked this topic as ${verb}.`);
  }
  const count = p.movedIds.length;
  const remaining = await topicMessages(
    trx,
    oldStream.id,
    oldTopic,
    undefined,
    bool(oldStream.history_public_to_subscribers) ? undefined : user.id,
  );
  const movedAll = input.propagateMode === "change_all" || remaining.length === 0;
  const out: Notification[] = [];
  if (input.notifyOldThread && !bool(oldStream.is_archived)) {
    const to = place(newStream, newTopic);
    const text = movedAll
      ? `This topic was moved to ${to} by ${silentMention(user)}.`
      : count === 1
        ? `A message was moved from this topic to ${to} by ${silentMention(user)}.`
        : `${count} messages were moved from this topic to ${to} by ${silentMention(user)}.`;
    out.push(...(await send(oldStream, oldTopic, text)));
  }
  if (input.notifyNewThread) {
    const from = place(oldStream, oldTopic);
    const text = movedAll
      ? `This topic was moved here from ${from} by ${silentMention(user)}.`
      : count === 1
        ? `[A message](${nearLink(newStream, newTopic, p.movedIds[0])}) was moved here from ${from} by ${silentMention(user)}.`
        : `${count} messages were moved here from ${from} by ${silentMention(user)}.`;
    out.push(...(await send(newStream, newTopic, text)));
  }
  return out;
}
