// A user's personal settings of their subscriptions (POST /users/me/subscriptions/properties and
// /users/me/subscriptions/{stream_id}): colour, muting (is_muted, and its inverse in_home_view, the
// older name), pinning and the per-channel notification settings. All changes of a request are
// checked first and written in one transaction; each sends a `subscription` `update` event.
import type { Db } from "../../db/knex";
import type { RealmRow, UserRow } from "../../db/rows";
import { findStreamById } from "../../db/streams";
import { findSubscription, updateSubscriptionProperties } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";

const BOOLEAN_PROPERTIES = [
  "is_muted",
  "in_home_view",
  "pin_to_top",
  "desktop_notifications",
  "audible_notifications",
  "push_notifications",
  "email_notifications",
  "wildcard_mentions_notify",
] as const;

export const SUBSCRIPTION_PROPERTIES = ["color", ...BOOLEAN_PROPERTIES] as const;

export interface SubscriptionChange {
  stream_id: number;
  property: string;
  value: unknown;
}

const HEX_COLOR = /^#([0-9a-fA-F]{3}){1,2}$/;

/** The stored column and value of one change (in_home_view is stored as is_muted, inverted). */
function checkChange(change: SubscriptionChange): { column: string; value: string | boolean } {
  const { property, value } = change;
  if (property === "color") {
    if (typeof value !== "string" || !HEX_COLOR.test(value))
      throw Errors.invalidParam("value", "color is not a valid hex color code");
    return { column: "color", value };
  }
  if (!(BOOLEAN_PROPERTIES as readonly string[]).includes(property))
    throw Errors.badRequest(`Unknown subscription property: ${property}`);
  const flag = typeof value === "boolean" ? value : value === "true" ? true : value === "false" ? false : undefined;
  if (flag === undefined) throw Errors.invalidParam("value", `${property} is not a boolean`);
  return property === "in_home_view" ? { column: "is_muted", value: !flag } : { column: property, value: flag };
}

export async function updateSubscriptionSettings(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  changes: SubscriptionChange[],
): Promise<Notification[]> {
  const checked = changes.map((change) => ({ change, ...checkChange(change) }));
  return withTransaction(db, async (trx) => {
    const notifications: Notification[] = [];
    for (const { change, column, value } of checked) {
      const stream = await findStreamById(trx, realm.id, change.stream_id);
      if (!stream) throw Errors.badRequest("Invalid channel ID");
      const sub = await findSubscription(trx, user.id, stream.id);
      if (!sub || !sub.active) throw Errors.badRequest(`Not subscribed to channel ID ${stream.id}`);
      await updateSubscriptionProperties(trx, user.id, stream.id, { [column]: value });
      const update = (property: string, v: unknown): Notification => ({
        realmId: realm.id,
        userIds: [user.id],
        event: { type: "subscription", op: "update", stream_id: stream.id, property, value: v },
      });
      if (column === "is_muted") {
        // Both names, as the reference sends since feature level 139.
        notifications.push(update("is_muted", value), update("in_home_view", !value));
      } else notifications.push(update(change.property, value));
    }
    return notifications;
  });
}
