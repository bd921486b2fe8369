// Muting users: the muter stops being notified about the muted user's messages, which are
// marked read for them now (existing rows) and at send time (messageHooks.autoReadUserIds).
import type { Db, Queryable } from "../../db/knex";
import { deleteMute, findMute, insertMute, listMutes, markReadFromSender } from "../../db/mutedUsers";
import { nowSeconds, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { findUserById } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";

export async function mutedUsersState(q: Queryable, userId: number): Promise<{ id: number; timestamp: number }[]> {
  return (await listMutes(q, userId)).map((m) => ({ id: m.muted_user_id, timestamp: Number(m.date_muted) }));
}

async function mutedUsersEvent(q: Queryable, realm: RealmRow, user: UserRow): Promise<Notification> {
  return {
    realmId: realm.id,
    userIds: [user.id],
    event: { type: "muted_users", muted_users: await mutedUsersState(q, user.id) },
  };
}

async function targetUser(q: Queryable, realm: RealmRow, id: number): Promise<UserRow> {
  // Deactivated users and bots can be muted and unmuted too.
  const target = await findUserById(q, realm.id, id);
  if (!target) throw Errors.badRequest("No such user");
  return target;
}

export async function muteUser(db: Db, realm: RealmRow, user: UserRow, mutedUserId: number): Promise<Notification[]> {
  if (mutedUserId === user.id) throw Errors.badRequest("Cannot mute self");
  return withTransaction(db, async (trx) => {
    const target = await targetUser(trx, realm, mutedUserId);
    if (await findMute(trx, user.id, target.id)) throw Errors.badRequest("User already muted");
    await insertMute(trx, user.id, target.id, nowSeconds());
    const readIds = await markReadFromSender(trx, user.id, target.id);
    const notifications = [await mutedUsersEvent(trx, realm, user)];
    if (readIds.length > 0) {
      const event = {
        type: "update_message_flags",
        op: "add",
        operation: "add",
        flag: "read",
        messages: readIds,
        all: false,
      };
      notifications.push({ realmId: realm.id, userIds: [user.id], event });
    }
    return notifications;
  });
}

export async function unmuteUser(db: Db, realm: RealmRow, user: UserRow, mutedUserId: number): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const target = await targetUser(trx, realm, mutedUserId);
    if ((await deleteMute(trx, user.id, target.id)) === 0) throw Errors.badRequest("User is not muted");
    return [await mutedUsersEvent(trx, realm, user)];
  });
}
