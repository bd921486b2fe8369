// Marking messages read in bulk: POST /mark_all_as_read, /mark_stream_as_read, /mark_topic_as_read
// (the reference's deprecated endpoints, still used by its Python client) and
// POST /messages/flags/narrow (a range of a narrow, any editable flag). Each sends the user's
// clients one `update_message_flags` event, so unread counts stay right everywhere.
import type { Db } from "../../db/knex";
import { FLAG_BITS, setUserMessageFlag } from "../../db/messages";
import { unreadMessageIds, userHasTopic } from "../../db/readState";
import type { RealmRow, UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { findAccessibleChannel } from "../channels/channels";
import { checkFlag, MAX_FLAGGED_MESSAGES, updateMessageFlags } from "./flags";
import { ownMessageIdsInRange, type Anchor } from "./queries";
import { normalizeTopic } from "./send";

function readEvent(realmId: number, userId: number, ids: number[], all: boolean): Notification {
  return {
    realmId,
    userIds: [userId],
    event: { type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: ids, all },
  };
}

async function markRead(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  where: { streamId?: number; topic?: string },
): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const ids = await unreadMessageIds(trx, user.id, where);
    if (ids.length === 0) return [];
    await setUserMessageFlag(trx, user.id, ids, FLAG_BITS.read, true);
    // As the reference: "everything is read" carries no ids (clients start over from their state).
    const all = where.streamId === undefined;
    return [readEvent(realm.id, user.id, all ? [] : ids, all)];
  });
}

export function markAllAsRead(db: Db, realm: RealmRow, user: UserRow): Promise<Notification[]> {
  return markRead(db, realm, user, {});
}

export async function markStreamAsRead(db: Db, realm: RealmRow, user: UserRow, streamId: number) {
  const stream = await findAccessibleChannel(db, user, streamId);
  if (!stream) throw Errors.badRequest("Invalid channel ID");
  return markRead(db, realm, user, { streamId: stream.id });
}

export async function markTopicAsRead(db: Db, realm: RealmRow, user: UserRow, streamId: number, topicName: string) {
  const stream = await findAccessibleChannel(db, user, streamId);
  if (!stream) throw Errors.badRequest("Invalid channel ID");
  const topic = normalizeTopic(topicName, realm);
  if (!(await userHasTopic(db, user.id, stream.id, topic))) throw Errors.badRequest(`No such topic '${topicName}'`);
  return markRead(db, realm, user, { streamId: stream.id, topic });
}

export interface NarrowFlagsInput {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: string;
  op: "add" | "remove";
  flag: string;
}

/** POST /messages/flags/narrow: the answer's counts and the notifications to publish. */
export async function updateFlagsForNarrow(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  input: NarrowFlagsInput,
): Promise<{ answer: Record<string, unknown>; notifications: Notification[] }> {
  checkFlag(input.flag);
  // The range is cut to what one flags request may change (the reference also bounds it).
  const numAfter = Math.min(input.numAfter, MAX_FLAGGED_MESSAGES - 1);
  const numBefore = Math.min(input.numBefore, MAX_FLAGGED_MESSAGES - 1 - numAfter);
  const range = await ownMessageIdsInRange(db, realm, user, { ...input, numBefore, numAfter });
  const notifications =
    range.ids.length === 0
      ? []
      : await updateMessageFlags(db, realm, user, { messageIds: range.ids, op: input.op, flag: input.flag });
  const changed = notifications.length === 0 ? [] : (notifications[0].event.messages as number[]);
  const answer: Record<string, unknown> = {
    processed_count: range.ids.length,
    updated_count: changed.length,
    first_processed_id: range.ids[0] ?? null,
    last_processed_id: range.ids.at(-1) ?? null,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
  };
  if (input.flag === "read" && input.op === "remove") answer.ignored_because_not_subscribed_channels = [];
  return { answer, notifications };
}
