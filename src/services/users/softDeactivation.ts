// Soft deactivation, the reference's answer to big channels: most members of a large organization
// have not been around for weeks, yet a send to a channel wrote a user_messages row for every
// subscriber. A human user with no authenticated request for `inactiveDays` is marked long-term
// idle (softDeactivateIdleUsers, run periodically and by `npm run cli -- soft-deactivate-users`);
// sends to channels then skip their rows, unless the message gives them a flag (a mention, a
// wildcard, a muted sender's message starts out read). Direct messages always write theirs. Their
// next authenticated request brings them back first (UserActivity.noteRequest): the rows they
// missed are written, unread, before the request is handled, so nothing they read differs.
//
// A send decides whom it skips when it is prepared, from a cached list; inside its transaction it
// checks again those it skipped (db/softDeactivation.ts idleStateOf: a return in progress and the
// check wait for each other), so a user coming back while a send is under way never misses it.
import type { Logger } from "pino";
import type { Db } from "../../db/knex";
import { bool, nowSeconds, type UserRow } from "../../db/rows";
import {
  clearLongTermIdle,
  markLongTermIdle,
  setLastActiveAt,
  writeMissingChannelRows,
} from "../../db/softDeactivation";
import { withTransaction } from "../../db/transaction";

/** Activity is recorded at most this often per user and process (a write per request would cost). */
export const ACTIVITY_RESOLUTION_SECONDS = 3600;
/** Users whose last write this process remembers; past it the memory starts over. */
const MAX_REMEMBERED = 100_000;

/** Marks idle the users inactive for `inactiveDays` days; their ids. */
export async function softDeactivateIdleUsers(
  db: Db,
  options: { inactiveDays: number; now?: number },
): Promise<number[]> {
  const cutoff = (options.now ?? nowSeconds()) - options.inactiveDays * 86_400;
  return withTransaction(db, (trx) => markLongTermIdle(trx, cutoff));
}

/** Runs softDeactivateIdleUsers every `intervalSeconds` (0 days or 0 seconds: never); returns the stop. */
export function scheduleSoftDeactivation(deps: {
  db: Db;
  logger: Logger;
  config: { inactiveDays: number; intervalSeconds: number };
}): () => void {
  const { inactiveDays, intervalSeconds } = deps.config;
  if (inactiveDays === 0 || intervalSeconds === 0) return () => {};
  const timer = setInterval(() => {
    softDeactivateIdleUsers(deps.db, { inactiveDays })
      .then((ids) => ids.length > 0 && deps.logger.info({ users: ids.length }, "soft-deactivated idle users"))
      // A deadlock with a send, or the database away: the next run catches up.
      .catch((err) => deps.logger.warn({ err: (err as Error).message }, "soft deactivation failed"));
  }, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Brings an idle user back: writes the rows they missed, then they are like everyone else. */
export async function reactivateIdleUser(db: Db, userId: number): Promise<boolean> {
  return withTransaction(db, async (trx) => {
    const completeUpTo = await clearLongTermIdle(trx, userId);
    if (completeUpTo === undefined) return false;
    await writeMissingChannelRows(trx, userId, completeUpTo);
    return true;
  });
}

/** The users among `users` who are idle, brought back (before someone else changes their subscriptions). */
export async function reactivateIdleUsers(db: Db, users: readonly UserRow[]): Promise<void> {
  for (const user of users) if (bool(user.long_term_idle)) await reactivateIdleUser(db, user.id);
}

/** Authenticated requests → activity, and an idle user's return. One per process. */
export class UserActivity {
  /** User id → epoch seconds this process last recorded their activity. */
  private readonly recorded = new Map<number, number>();

  constructor(private readonly deps: { db: Db; logger: Logger }) {}

  /** Called before an authenticated request is handled; the user's row as the request should see it. */
  async noteRequest(user: UserRow): Promise<UserRow> {
    if (bool(user.long_term_idle)) {
      await reactivateIdleUser(this.deps.db, user.id);
      user = { ...user, long_term_idle: false };
    }
    const now = nowSeconds();
    const last = Math.max(this.recorded.get(user.id) ?? 0, Number(user.last_active_at ?? 0));
    if (now - last < ACTIVITY_RESOLUTION_SECONDS) return user;
    if (this.recorded.size >= MAX_REMEMBERED) this.recorded.clear();
    this.recorded.set(user.id, now);
    // Losing one activity record only makes the user look idle an hour early: never fail the request for it.
    await setLastActiveAt(this.deps.db, user.id, now).catch((err) =>
      this.deps.logger.warn({ err: (err as Error).message }, "could not record user activity"),
    );
    return user;
  }
}
