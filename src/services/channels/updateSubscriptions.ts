// PATCH /users/me/subscriptions (the reference's `update-subscriptions`): subscribe and unsubscribe
// oneself in one call. Adds first, then removals, in one transaction (each service's own
// transaction nests as a savepoint), so a refused removal also undoes the additions.
import type { Db } from "../../db/knex";
import type { RealmRow, UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import type { Notification } from "../../events/bus";
import { subscribe } from "./subscribe";
import { unsubscribe } from "./unsubscribe";

export interface UpdateSubscriptionsInput {
  realm: RealmRow;
  user: UserRow;
  add: { name: string; description?: string; color?: string }[];
  remove: string[];
  webPublicEnabled: boolean;
}

export async function updateSubscriptions(
  db: Db,
  input: UpdateSubscriptionsInput,
): Promise<{ body: Record<string, unknown>; notifications: Notification[] }> {
  const { realm, user } = input;
  return withTransaction(db, async (trx) => {
    const notifications: Notification[] = [];
    // The reference answers with both halves even when one list is empty.
    let added: Record<string, unknown> = { subscribed: {}, already_subscribed: {} };
    if (input.add.length > 0) {
      // Adding uses POST's defaults: this operation has no creation options.
      const result = await subscribe(trx, {
        realm,
        user,
        channels: input.add,
        authorizationErrorsFatal: true,
        announce: false,
        sendNewSubscriptionMessages: true,
        webPublicEnabled: input.webPublicEnabled,
        creation: {
          invite_only: false,
          is_web_public: false,
          is_default_stream: false,
          topics_policy: "inherit",
          groupSettings: {},
        },
      });
      added = result.body;
      notifications.push(...result.notifications);
    }
    let removed: { removed: string[]; not_removed: string[] } = { removed: [], not_removed: [] };
    if (input.remove.length > 0) {
      const result = await unsubscribe(trx, realm, user, input.remove, undefined);
      removed = { removed: result.removed, not_removed: result.not_removed };
      notifications.push(...result.notifications);
    }
    return { body: { ...added, ...removed }, notifications };
  });
}
