// DELETE /messages/{id}: deleting a message for good, with the reference's permission rules
// (editPolicy.ts) and its `delete_message` event in both shapes: `message_ids` for clients that
// declared the `bulk_message_deletion` capability, one `message_id` per event for the others.
import type { Db } from "../../db/knex";
import { deleteMessages } from "../../db/messageEdits";
import type { RealmRow, StreamRow, UserRow } from "../../db/rows";
import { findUserById } from "../../db/users";
import { withTransaction } from "../../db/transaction";
import type { Notification } from "../../events/bus";
import { accessMessage, messageAudience } from "./access";
import { checkCanDelete } from "./editPolicy";
import { lockMessage } from "../../db/messageEdits";

export type DeletedFrom = { type: "stream"; stream: StreamRow; topic: string } | { type: "private" };

/** The events telling these users that these messages (all from one place) are gone. */
export function deletedMessageNotifications(
  realmId: number,
  userIds: number[],
  messageIds: number[],
  from: DeletedFrom,
): Notification[] {
  if (userIds.length === 0 || messageIds.length === 0) return [];
  const where =
    from.type === "stream"
      ? { message_type: "stream", stream_id: from.stream.id, topic: from.topic }
      : { message_type: "private" };
  const ids = [...messageIds].sort((a, b) => a - b);
  return [
    {
      realmId,
      userIds,
      event: { type: "delete_message", ...where, message_ids: ids },
      capability: "bulk_message_deletion",
    },
    ...ids.map((id) => ({
      realmId,
      userIds,
      event: { type: "delete_message", ...where, message_id: id },
      withoutCapability: "bulk_message_deletion",
    })),
  ];
}

export async function deleteMessage(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  messageId: number,
): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    // One must be able to read a message to delete it.
    const access = await accessMessage(trx, realm, user, messageId);
    const message = (await lockMessage(trx, realm.id, messageId)) ?? access.message;
    const sender = await findUserById(trx, realm.id, message.sender_id);
    await checkCanDelete(trx, realm, user, message, access.stream, sender);
    const audience = await messageAudience(trx, access);
    await deleteMessages(trx, [messageId]);
    const from: DeletedFrom = access.stream
      ? { type: "stream", stream: access.stream, topic: message.topic }
      : { type: "private" };
    return deletedMessageNotifications(realm.id, audience, [messageId], from);
  });
}
