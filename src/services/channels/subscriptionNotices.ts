// Notification Bot messages that follow a subscribe request: a direct message to each user
// someone else subscribed to existing channels, and the new-channel announcement.
import type { Queryable } from "../../db/knex";
import { findStreamById } from "../../db/streams";
import { findUserById } from "../../db/users";
import { bool, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import type { Notification } from "../../events/bus";
import { sendMessageInTransaction } from "../messages/send";

export const NEW_CHANNELS_TOPIC = "new channels";

function mention(user: UserRow): string {
  return `@**${user.full_name}|${user.id}**`;
}

function subscribedYouText(actor: UserRow, names: string[]): string {
  const sorted = [...names].sort();
  if (sorted.length === 1) return `${mention(actor)} added you to the channel #**${sorted[0]}**.`;
  return `${mention(actor)} added you to these channels:\n\n${sorted.map((n) => `* #**${n}**`).join("\n")}\n`;
}

/** DMs for users other than the actor (and not bots), about existing channels only. */
export async function sendSubscribedYouMessages(
  q: Queryable,
  realm: RealmRow,
  actor: UserRow,
  newlySubscribed: Map<UserRow, StreamRow[]>,
  createdIds: Set<number>,
): Promise<Notification[]> {
  const bot =
    realm.notification_bot_id === null ? undefined : await findUserById(q, realm.id, realm.notification_bot_id);
  if (!bot) return [];
  const out: Notification[] = [];
  for (const [user, streams] of newlySubscribed) {
    if (user.id === actor.id || bool(user.is_bot)) continue;
    const names = streams.filter((s) => !createdIds.has(s.id)).map((s) => s.name);
    if (names.length === 0) continue;
    const sent = await sendMessageInTransaction(q, {
      realm,
      sender: bot,
      destination: { type: "private", to: [user.id] },
      content: subscribedYouText(actor, names),
      client: "Internal",
    });
    out.push(...sent.notifications);
  }
  return out;
}

/** Announces newly created public channels in the realm's new-channel announcements channel. */
export async function announceNewChannels(
  q: Queryable,
  realm: RealmRow,
  actor: UserRow,
  created: StreamRow[],
): Promise<Notification[]> {
  // Private channels are not announced: that would reveal their names to everyone.
  const visible = created.filter((s) => !bool(s.invite_only));
  if (visible.length === 0 || realm.new_stream_announcements_stream_id === null || realm.notification_bot_id === null)
    return [];
  const bot = await findUserById(q, realm.id, realm.notification_bot_id);
  const target = await findStreamById(q, realm.id, realm.new_stream_announcements_stream_id);
  if (!bot || !target || bool(target.is_archived)) return [];
  const links = visible.map((s) => `#**${s.name}**`).join(", ");
  const content =
    visible.length === 1
      ? `@_**${actor.full_name}|${actor.id}** created the channel ${links}.`
      : `@_**${actor.full_name}|${actor.id}** created these channels: ${links}.`;
  const sent = await sendMessageInTransaction(q, {
    realm,
    sender: bot,
    destination: { type: "stream", stream: realm.new_stream_announcements_stream_id, topic: NEW_CHANNELS_TOPIC },
    content,
    client: "Internal",
  });
  return sent.notifications;
}
