// Who may subscribe whom to an existing channel, and who gets to hear about a channel's changes.
import type { Queryable } from "../../db/knex";
import { groupIdsContainingUser } from "../../db/groups";
import { bool, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { canSeeChannel } from "./channels";
import { isAdmin, isGuest } from "../users/users";

/**
 * May `user` add subscribers to `stream`? `subscribingOthers` selects the rule: adding other
 * users needs an add-subscribers permission; joining yourself also works through
 * `can_subscribe_group` or plain access to a public channel.
 */
export async function canAddSubscribers(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  stream: StreamRow,
  isSubscribed: boolean,
  subscribingOthers: boolean,
): Promise<boolean> {
  if (isAdmin(user)) return true;
  const groups = await groupIdsContainingUser(q, user.id);
  const inGroup = (id: unknown) => typeof id === "number" && groups.has(id);
  // Channel-level grants work without being subscribed, even for private channels.
  if (inGroup(stream.can_add_subscribers_group) || inGroup(stream.can_administer_channel_group)) return true;
  const hasContentAccess = isSubscribed || (!bool(stream.invite_only) && !isGuest(user)) || bool(stream.is_web_public);
  if (subscribingOthers) return hasContentAccess && !isGuest(user) && inGroup(realm.can_add_subscribers_group);
  return hasContentAccess || inGroup(stream.can_subscribe_group);
}

/** Of `activeUsers`, those who can see the channel exists (see canSeeChannel). */
export function channelObserverIds(activeUsers: UserRow[], stream: StreamRow, subscriberIds: number[]): number[] {
  const subscribers = new Set(subscriberIds);
  return activeUsers.filter((u) => canSeeChannel(u, stream, subscribers.has(u.id))).map((u) => u.id);
}
