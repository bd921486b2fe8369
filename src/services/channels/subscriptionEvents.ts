// The events a subscription change produces: `stream create` for new channels, `subscription
// add/remove` for the users concerned and `peer_add/peer_remove` for everyone else who can see them.
import type { Queryable } from "../../db/knex";
import { bool, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { listRealmUsers } from "../../db/users";
import { findSubscription, subscriberIdsByStream } from "../../db/subscriptions";
import type { Notification } from "../../events/bus";
import { formatStreams, formatSubscriptions } from "./format";
import { channelObserverIds } from "./subscriptionAccess";

async function activeRealmUsers(q: Queryable, realm: RealmRow): Promise<UserRow[]> {
  return (await listRealmUsers(q, realm.id)).filter((u) => bool(u.is_active));
}

export async function streamCreateEvents(q: Queryable, realm: RealmRow, created: StreamRow[]): Promise<Notification[]> {
  if (created.length === 0) return [];
  const subscribers = await subscriberIdsByStream(
    q,
    created.map((s) => s.id),
  );
  const formatted = await formatStreams(q, realm, created);
  const users = await activeRealmUsers(q, realm);
  return created.map((stream, i) => ({
    realmId: realm.id,
    userIds: channelObserverIds(users, stream, subscribers.get(stream.id) ?? []),
    event: { type: "stream", op: "create", streams: [formatted[i]] },
  }));
}

/** `added` maps each user to the channels they just joined. */
export async function subscriptionAddEvents(
  q: Queryable,
  realm: RealmRow,
  added: Map<number, StreamRow[]>,
): Promise<Notification[]> {
  const out: Notification[] = [];
  for (const [userId, streams] of added) {
    const rows = [];
    for (const stream of streams) rows.push({ stream, sub: (await findSubscription(q, userId, stream.id))! });
    const subscriptions = await formatSubscriptions(q, realm, rows, true);
    out.push({ realmId: realm.id, userIds: [userId], event: { type: "subscription", op: "add", subscriptions } });
  }
  return out.concat(await peerEvents(q, realm, "peer_add", added));
}

export async function subscriptionRemoveEvents(
  q: Queryable,
  realm: RealmRow,
  removed: Map<number, StreamRow[]>,
): Promise<Notification[]> {
  const out: Notification[] = [];
  for (const [userId, streams] of removed) {
    const subscriptions = streams.map((s) => ({ stream_id: s.id, name: s.name }));
    out.push({ realmId: realm.id, userIds: [userId], event: { type: "subscription", op: "remove", subscriptions } });
  }
  return out.concat(await peerEvents(q, realm, "peer_remove", removed));
}

/** One peer event per channel, to observers other than the users who changed. */
async function peerEvents(
  q: Queryable,
  realm: RealmRow,
  op: "peer_add" | "peer_remove",
  changed: Map<number, StreamRow[]>,
): Promise<Notification[]> {
  const byStream = new Map<number, { stream: StreamRow; userIds: number[] }>();
  for (const [userId, streams] of changed) {
    for (const stream of streams) {
      const entry = byStream.get(stream.id) ?? { stream, userIds: [] };
      entry.userIds.push(userId);
      byStream.set(stream.id, entry);
    }
  }
  if (byStream.size === 0) return [];
  const subscribers = await subscriberIdsByStream(q, [...byStream.keys()]);
  const users = await activeRealmUsers(q, realm);
  const out: Notification[] = [];
  for (const { stream, userIds } of byStream.values()) {
    const changedSet = new Set(userIds);
    const observers = channelObserverIds(users, stream, subscribers.get(stream.id) ?? []).filter(
      (id) => !changedSet.has(id),
    );
    if (observers.length === 0) continue;
    out.push({
      realmId: realm.id,
      userIds: observers,
      event: { type: "subscription", op, stream_ids: [stream.id], user_ids: userIds },
    });
  }
  return out;
}
