// DELETE /users/me/subscriptions: remove yourself, a bot you own, or (with permission) anyone.
import type { Db, Queryable } from "../../db/knex";
import { isUserInGroup } from "../../db/groups";
import { type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { findStreamByName } from "../../db/streams";
import { deactivateSubscription, isSubscribed } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { canAccessChannel } from "./channels";
import { subscriptionRemoveEvents } from "./subscriptionEvents";
import { resolvePrincipals, returnBeforeSubscriptionsChange } from "./subscribe";
import { isAdmin } from "../users/users";

async function mayRemove(q: Queryable, actor: UserRow, target: UserRow, stream: StreamRow): Promise<boolean> {
  if (target.id === actor.id || isAdmin(actor)) return true;
  if (!(await canAccessChannel(q, actor, stream))) return false;
  if (target.bot_owner_id === actor.id) return true;
  return isUserInGroup(q, actor.id, stream.can_remove_subscribers_group as number);
}

export async function unsubscribe(
  db: Db,
  realm: RealmRow,
  actor: UserRow,
  names: string[],
  principals: (number | string)[] | undefined,
): Promise<{ removed: string[]; not_removed: string[]; notifications: Notification[] }> {
  await returnBeforeSubscriptionsChange(db, realm, principals);
  return withTransaction(db, async (trx) => {
    const streams: StreamRow[] = [];
    for (const name of names) {
      const stream = await findStreamByName(trx, realm.id, name.trim());
      if (!stream) throw Errors.streamNameNotFound(name);
      if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
    }
    const targets = principals && principals.length > 0 ? await resolvePrincipals(trx, realm, principals) : [actor];
    for (const target of targets) {
      for (const stream of streams) {
        if (!(await mayRemove(trx, actor, target, stream))) throw Errors.badRequest("Insufficient permission");
      }
    }
    const removed = new Set<string>();
    const notRemoved = new Set<string>();
    const changed = new Map<number, StreamRow[]>();
    for (const target of targets) {
      for (const stream of streams) {
        if (!(await isSubscribed(trx, target.id, stream.id))) {
          notRemoved.add(stream.name);
          continue;
        }
        await deactivateSubscription(trx, target.id, stream.id);
        removed.add(stream.name);
        changed.set(target.id, [...(changed.get(target.id) ?? []), stream]);
      }
    }
    const notifications = await subscriptionRemoveEvents(trx, realm, changed);
    return { removed: [...removed], not_removed: [...notRemoved], notifications };
  });
}
