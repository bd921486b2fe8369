// SQL of soft deactivation (services/users/softDeactivation.ts says what it is for).
import { cachedRead, cacheTag, invalidate } from "./cache";
import { isMysql } from "./collation";
import { ROWS_PER_INSERT, type Queryable } from "./knex";
import type { UserRow } from "./rows";

/** Records a request's time as the user's last activity. */
export async function setLastActiveAt(q: Queryable, userId: number, at: number): Promise<void> {
  // Nothing reads this column from a cached row, so the user's cache entries stay.
  await q("users").where({ id: userId }).update({ last_active_at: at });
}

/**
 * Marks idle the active human users (of every organization) whose last activity, or joining when
 * they never made a request, is before `cutoff` (epoch seconds); their rows are complete up to the
 * newest message now. Returns their ids.
 */
export async function markLongTermIdle(q: Queryable, cutoff: number): Promise<number[]> {
  const ids = (
    await q<UserRow>("users")
      .where({ is_active: true, is_bot: false, long_term_idle: false })
      .whereRaw("COALESCE(last_active_at, date_joined) < ?", [cutoff])
      .select("id")
  ).map((row) => Number(row.id));
  if (ids.length === 0) return [];
  const newest = await q("messages").max<{ m: number | null }[]>({ m: "id" }).first();
  for (let i = 0; i < ids.length; i += 500) {
    await q("users")
      .whereIn("id", ids.slice(i, i + 500))
      .where({ long_term_idle: false })
      .update({ long_term_idle: true, last_active_message_id: Number(newest?.m ?? 0) });
  }
  await invalidate(q, [...ids.map((id) => cacheTag.user(id)), cacheTag.allSubscribers]);
  return ids;
}

/**
 * Clears the user's idle mark, holding their row until the caller's transaction ends (so a send
 * that is checking whether they are idle waits for it, see idleStateOf). Returns the id their
 * rows were complete up to, or undefined when they were not idle.
 */
export async function clearLongTermIdle(q: Queryable, userId: number): Promise<number | undefined> {
  const query = q<UserRow>("users").where({ id: userId }).first("long_term_idle", "last_active_message_id");
  const row = await (isMysql(q) ? query.forUpdate() : query);
  if (!row || !row.long_term_idle) return undefined;
  await q("users").where({ id: userId }).update({ long_term_idle: false });
  await invalidate(q, [cacheTag.user(userId), cacheTag.allSubscribers]);
  return Number(row.last_active_message_id ?? 0);
}

/**
 * Writes the user's missing rows (unread) for the messages after `afterId` in the channels they
 * are subscribed to; the rows they have (mentions…) stay. The messages are found by a plain read,
 * which waits for no one: a send still writing is either seen committed or, since the caller holds
 * the user's row (clearLongTermIdle), finds the user no longer idle and writes the row itself.
 */
export async function writeMissingChannelRows(q: Queryable, userId: number, afterId: number): Promise<void> {
  const found: { id: number }[] = await q("messages as m")
    .join("subscriptions as s", "s.stream_id", "m.stream_id")
    .where({ "s.user_id": userId, "s.active": true })
    .where("m.id", ">", afterId)
    .select("m.id");
  const rows = found.map((m) => ({ user_id: userId, message_id: Number(m.id), flags: 0 }));
  const chunk = isMysql(q) ? ROWS_PER_INSERT.mysql : ROWS_PER_INSERT.sqlite;
  for (let i = 0; i < rows.length; i += chunk)
    await q("user_messages")
      .insert(rows.slice(i, i + chunk))
      .onConflict(["user_id", "message_id"])
      .ignore();
}

/** A channel's active subscribers who are soft-deactivated (cached like the subscriber list). */
export async function idleSubscriberIds(q: Queryable, streamId: number): Promise<ReadonlySet<number>> {
  const ids = await cachedRead(
    q,
    "idleSubscribers",
    String(streamId),
    () => [cacheTag.subscribers(streamId), cacheTag.allSubscribers],
    async () => {
      const rows = await q("subscriptions as s")
        .join("users as u", "u.id", "s.user_id")
        .where({ "s.stream_id": streamId, "s.active": true, "u.is_active": true, "u.long_term_idle": true })
        .select("s.user_id");
      return new Set(rows.map((r: { user_id: number }) => Number(r.user_id))) as ReadonlySet<number>;
    },
  );
  return ids ?? new Set();
}
export interface IdleState {
  idle: boolean;
  /** Their rows are complete up to this id (a message up to it still needs its row). */
  completeUpTo: number;
}

/**
 * Inside a send's transaction, after its messages are inserted: the idle state of users the send
 * left out as idle, read so that it stays until the transaction ends (on MySQL the rows are share-
 * locked: a return in progress, clearLongTermIdle, waits for this send, or this read waits for it;
 * SQLite runs one write transaction at a time).
 */
export async function idleStateOf(q: Queryable, userIds: number[]): Promise<Map<number, IdleState>> {
  const out = new Map<number, IdleState>();
  for (let i = 0; i < userIds.length; i += 1000) {
    const query = q<UserRow>("users")
      .whereIn("id", userIds.slice(i, i + 1000))
      .select("id", "long_term_idle", "last_active_message_id");
    const rows = await (isMysql(q) ? query.forShare() : query);
    for (const row of rows)
      out.set(Number(row.id), {
        idle: Boolean(row.long_term_idle),
        completeUpTo: Number(row.last_active_message_id ?? 0),
      });
  }
  return out;
}
