// POST /messages/flags: a user sets or clears read, starred or collapsed on messages. Only their
// own rows change; a message reached through a channel's shared history gets a (historical, read)
// row first when the flag is being added and is not `read` (starring a message one never received).
import type { Db } from "../../db/knex";
import {
  dmParticipantIds,
  FLAG_BITS,
  MENTION_BITS,
  findMessagesByIds,
  insertUserMessageRows,
  setUserMessageFlag,
  userMessageFlagsFor,
} from "../../db/messages";
import type { MessageRow, RealmRow, UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { accessMessage } from "./access";

/** The flags a user may change; the others (mentioned, historical, …) are the server's. */
export const EDITABLE_FLAGS = ["read", "starred", "collapsed"] as const;
export type EditableFlag = (typeof EDITABLE_FLAGS)[number];

/** Message ids one request may flag (the reference sets none; a client marks a narrow in pages). */
export const MAX_FLAGGED_MESSAGES = 5000;

export interface FlagUpdate {
  messageIds: number[];
  op: "add" | "remove";
  flag: string;
}

export function checkFlag(flag: string): EditableFlag {
  if ((EDITABLE_FLAGS as readonly string[]).includes(flag)) return flag as EditableFlag;
  if (Object.hasOwn(FLAG_BITS, flag)) throw Errors.badRequest(`Flag not editable: '${flag}'`);
  throw Errors.badRequest(`Invalid flag: '${flag}'`);
}

/** What the web client needs to put a message back among the unread ones. */
function unreadDetails(message: MessageRow, flags: number, userId: number): Record<string, unknown> {
  const mentioned = (flags & MENTION_BITS) !== 0;
  if (message.type === "stream") {
    return {
      type: "stream",
      stream_id: message.stream_id,
      topic: message.topic,
      unmuted_stream_msg: true,
      ...(mentioned ? { mentioned: true } : {}),
    };
  }
  const userIds = dmParticipantIds(message.dm_key).filter((id) => id !== userId);
  return { type: "private", user_ids: userIds, ...(mentioned ? { mentioned: true } : {}) };
}

/** Applies the change; answers with the notification for the user's clients (only ids that changed). */
export async function updateMessageFlags(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  update: FlagUpdate,
): Promise<Notification[]> {
  const flag = checkFlag(update.flag);
  const bit = FLAG_BITS[flag];
  const ids = [...new Set(update.messageIds)];
  if (ids.length > MAX_FLAGGED_MESSAGES)
    throw Errors.badRequest(`Too many messages: at most ${MAX_FLAGGED_MESSAGES} in one request`);
  return withTransaction(db, async (trx) => {
    const own = await userMessageFlagsFor(trx, user.id, ids);
    const withoutRow = ids.filter((id) => !own.has(id));
    // Every id must be a message the user may read, with a row or through shared history.
    for (const id of withoutRow) await accessMessage(trx, realm, user, id);
    if (update.op === "add" && flag !== "read" && withoutRow.length > 0) {
      const historical = FLAG_BITS.historical | FLAG_BITS.read;
      await insertUserMessageRows(
        trx,
        withoutRow.map((id) => ({ user_id: user.id, message_id: id, flags: historical })),
      );
      for (const id of withoutRow) own.set(id, historical);
    }
    const on = update.op === "add";
    const changed = ids.filter((id) => own.has(id) && ((own.get(id)! & bit) !== 0) !== on).sort((a, b) => a - b);
    if (changed.length === 0) return [];
    await setUserMessageFlag(trx, user.id, changed, bit, on);
    const event: Record<string, unknown> = {
      type: "update_message_flags",
      op: update.op,
      operation: update.op,
      flag,
      messages: changed,
      all: false,
    };
    if (flag === "read" && !on) {
      const details: Record<string, unknown> = {};
      for (const message of await findMessagesByIds(trx, realm.id, changed))
        details[String(message.id)] = unreadDetails(message, own.get(Number(message.id))!, user.id);
      event.message_details = details;
    }
    return [{ realmId: realm.id, userIds: [user.id], event }];
  });
}
