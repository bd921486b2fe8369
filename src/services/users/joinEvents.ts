// The realm_user "add" events for a person who just joined: administrators see the fields only
// they may see (formatUser's viewerIsAdmin), everyone else the public ones.
import type { Queryable } from "../../db/knex";
import { bool } from "../../db/rows";
import type { RealmRow, UserRow } from "../../db/rows";
import { activeRealmUserIds, findUserById } from "../../db/users";
import type { Notification } from "../../events/bus";
import { formatUser } from "./format";
import { isAdmin } from "./users";

/** The events, and the active human administrators they were split by (callers tell them more). */
export async function realmUserAddEvents(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
): Promise<{ events: Notification[]; admins: Set<number> }> {
  const everyone = await activeRealmUserIds(q, realm.id);
  const admins = new Set<number>();
  for (const id of everyone) {
    const other = await findUserById(q, realm.id, id);
    if (other && isAdmin(other) && !bool(other.is_bot)) admins.add(id);
  }
  const notifications: Notification[] = [];
  for (const viewerIsAdmin of [true, false]) {
    const userIds = everyone.filter((id) => admins.has(id) === viewerIsAdmin);
    if (userIds.length > 0)
      notifications.push({
        realmId: realm.id,
        userIds,
        event: { type: "realm_user", op: "add", person: formatUser(user, { viewerIsAdmin }) },
      });
  }
  return { events: notifications, admins };
}
