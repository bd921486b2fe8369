import { cachedRead, cacheTag, invalidate } from "./cache";
import type { Queryable } from "./knex";

export interface SubscriptionRow {
  id: number;
  user_id: number;
  stream_id: number;
  active: number | boolean;
  color: string;
  is_muted: number | boolean;
  pin_to_top: number | boolean;
  desktop_notifications: number | boolean | null;
  audible_notifications: number | boolean | null;
  push_notifications: number | boolean | null;
  email_notifications: number | boolean | null;
  wildcard_mentions_notify: number | boolean | null;
}

/** Active users with an active subscription; cached (tag `subs` drops every list, e.g. on deactivation). */
export async function activeSubscriberIds(q: Queryable, streamId: number): Promise<number[]> {
  const ids = await cachedRead(
    q,
    "subscribers",
    String(streamId),
    () => [cacheTag.subscribers(streamId), cacheTag.allSubscribers],
    async () => {
      const rows = await q("subscriptions as s")
        .join("users as u", "u.id", "s.user_id")
        .where({ "s.stream_id": streamId, "s.active": true, "u.is_active": true })
        .select("s.user_id");
      return rows.map((r: { user_id: number }) => r.user_id);
    },
  );
  return ids ?? [];
}

export async function subscriberIdsByStream(q: Queryable, streamIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(streamIds.map((id) => [id, []]));
  if (streamIds.length === 0) return out;
  const rows = await q("subscriptions as s")
    .join("users as u", "u.id", "s.user_id")
    .whereIn("s.stream_id", streamIds)
    .where({ "s.active": true, "u.is_active": true })
    .select("s.stream_id", "s.user_id");
  for (const r of rows as { stream_id: number; user_id: number }[]) out.get(r.stream_id)?.push(r.user_id);
  return out;
}

export async function findSubscription(
  q: Queryable,
  userId: number,
  streamId: number,
): Promise<SubscriptionRow | undefined> {
  return q<SubscriptionRow>("subscriptions").where({ user_id: userId, stream_id: streamId }).first();
}

export async function isSubscribed(q: Queryable, userId: number, streamId: number): Promise<boolean> {
  const row = await findSubscription(q, userId, streamId);
  return row !== undefined && Boolean(row.active);
}

export async function listUserSubscriptions(q: Queryable, userId: number): Promise<SubscriptionRow[]> {
  return q<SubscriptionRow>("subscriptions").where({ user_id: userId, active: true }).orderBy("stream_id");
}

/** Subscribes (or re-activates) users; returns nothing, callers computed who is new. */
export async function upsertSubscriptions(
  q: Queryable,
  rows: { user_id: number; stream_id: number; color?: string }[],
): Promise<void> {
  for (const row of rows) {
    const existing = await findSubscription(q, row.user_id, row.stream_id);
    if (existing) await q("subscriptions").where({ id: existing.id }).update({ active: true });
    else await q("subscriptions").insert(row);
  }
  await invalidate(q, [...new Set(rows.map((row) => cacheTag.subscribers(row.stream_id)))]);
}

export async function deactivateSubscription(q: Queryable, userId: number, streamId: number): Promise<void> {
  await q("subscriptions").where({ user_id: userId, stream_id: streamId }).update({ active: false });
  await invalidate(q, [cacheTag.subscribers(streamId)]);
}

/** The user's subscription rows that were deactivated (channels they left or were removed from). */
export async function listInactiveUserSubscriptions(q: Queryable, userId: number): Promise<SubscriptionRow[]> {
  return q<SubscriptionRow>("subscriptions").where({ user_id: userId, active: false }).orderBy("stream_id");
}

/** Sets personal properties of one active subscription (colour, mute, pin, notification settings). */
export async function updateSubscriptionProperties(
  q: Queryable,
  userId: number,
  streamId: number,
  fields: Partial<Omit<SubscriptionRow, "id" | "user_id" | "stream_id" | "active">>,
): Promise<void> {
  await q("subscriptions").where({ user_id: userId, stream_id: streamId }).update(fields);
}
