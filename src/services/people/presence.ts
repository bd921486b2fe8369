// Presence, as the reference models it: per user, when they were last connected (any report) and
// last active (a report with status "active"). One row per user in `user_presence`; a report
// writes it only when it changes what others see (at most about once a minute per user), so the
// minute-by-minute pings of every client cost a read, not a write. Other users learn of a user
// coming online, or turning active, by a `presence` event.
import type { Db, Queryable } from "../../db/knex";
import { cachedRead, cacheTag, invalidate } from "../../db/cache";
import { findPresence, latestPresenceUpdateId, listPresence, writePresence, type PresenceRow } from "../../db/presence";
import { nowSeconds, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { activeRealmUserIds, findUserByEmail, findUserById, listRealmUsers } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS } from "../events/realmState";
import { realmUserIdsWithSetting, storedUserSettings } from "../../db/userSettings";

/** A report within this many seconds of the stored one changes nothing (clients ping every 60 s). */
export const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;
/** How far back presence data is answered by default (the reference's 14 days). */
export const PRESENCE_HISTORY_DEFAULT_DAYS = 14;

export type PresenceStatus = "active" | "idle";

/** The modern format: `{active_timestamp, idle_timestamp}` by user id. */
function modern(row: PresenceRow): { active_timestamp: number; idle_timestamp: number } {
  return { active_timestamp: Number(row.last_active_time ?? 0), idle_timestamp: Number(row.last_connected_time) };
}

/** The legacy format: the user's aggregated status, and the same under the one client name, "website". */
function legacy(row: PresenceRow, now: number): Record<string, Record<string, unknown>> {
  const active =
    row.last_active_time !== null && now - Number(row.last_active_time) < PRESENCE_OFFLINE_THRESHOLD_SECONDS;
  const status = active ? "active" : "idle";
  const timestamp = active ? Number(row.last_active_time) : Number(row.last_connected_time);
  return {
    aggregated: { client: "website", status, timestamp },
    website: { client: "website", status, timestamp, pushable: false },
  };
}

/** Users who turned presence sharing off (`presence_enabled: false`) are never shown. */
async function sharing(q: Queryable, realmId: number, rows: PresenceRow[]): Promise<PresenceRow[]> {
  const hidden = await realmUserIdsWithSetting(q, realmId, "presence_enabled", false);
  return rows.filter((row) => !hidden.has(row.user_id));
}

async function realmPresenceRows(q: Queryable, realmId: number, since: number, afterUpdateId: number) {
  // The whole list is cached briefly per realm (tag `presence:<realm>` dropped on every write): every
  // client of every user fetches it each minute.
  const all = await cachedRead(
    q,
    "presence",
    String(realmId),
    () => [cacheTag.presence(realmId)],
    async () => sharing(q, realmId, await listPresence(q, realmId, 0, -1)),
  );
  return (all ?? []).filter((r) => Number(r.last_connected_time) >= since && Number(r.last_update_id) > afterUpdateId);
}

export interface PresenceQuery {
  /** Modern format keyed by user id (slim_presence, or last_update_id given). */
  slim: boolean;
  lastUpdateId?: number;
  historyLimitDays?: number;
}

/** `presences` (and its update id) as POST /register and POST /users/me/presence answer them. */
export async function presenceState(
  q: Queryable,
  realm: RealmRow,
  query: PresenceQuery,
): Promise<{ presences: Record<string, unknown>; presence_last_update_id: number; server_timestamp: number }> {
  const now = nowSeconds();
  const days = query.historyLimitDays ?? PRESENCE_HISTORY_DEFAULT_DAYS;
  const after = query.lastUpdateId !== undefined && query.lastUpdateId > 0 ? query.lastUpdateId : -1;
  const since = after > 0 ? 0 : now - days * 86400;
  const rows = await realmPresenceRows(q, realm.id, since, after);
  const presences: Record<string, unknown> = {};
  if (query.slim || query.lastUpdateId !== undefined) for (const row of rows) presences[row.user_id] = modern(row);
  else {
    const emails = new Map((await listRealmUsers(q, realm.id)).map((u) => [u.id, u.email]));
    for (const row of rows) if (emails.has(row.user_id)) presences[emails.get(row.user_id)!] = legacy(row, now);
  }
  const latest = await latestPresenceUpdateId(q, realm.id);
  return {
    presences,
    presence_last_update_id: query.lastUpdateId !== undefined ? Math.max(latest, query.lastUpdateId) : latest,
    server_timestamp: Date.now() / 1000,
  };
}

/** Records a report; returns the events for the organization when the user came online or turned active. */
export async function reportPresence(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  status: PresenceStatus,
): Promise<Notification[]> {
  const now = nowSeconds();
  const before = await findPresence(db, user.id);
  const connectedAt = before ? Number(before.last_connected_time) : 0;
  const activeAt = before?.last_active_time === null || !before ? null : Number(before.last_active_time);
  const staleConnection = now - connectedAt >= PRESENCE_UPDATE_MIN_FREQ_SECONDS;
  const staleActivity =
    status === "active" && (activeAt === null || now - activeAt >= PRESENCE_UPDATE_MIN_FREQ_SECONDS);
  if (before && !staleConnection && !staleActivity) return [];
  const wasOffline = now - connectedAt >= PRESENCE_OFFLINE_THRESHOLD_SECONDS;
  const wasIdle = activeAt === null || now - activeAt >= PRESENCE_OFFLINE_THRESHOLD_SECONDS;
  const row = {
    user_id: user.id,
    realm_id: realm.id,
    last_connected_time: now,
    last_active_time: status === "active" ? now : activeAt,
  };
  const updateId = await withTransaction(db, async (trx) => {
    const id = await writePresence(trx, row, before !== undefined);
    await invalidate(trx, [cacheTag.presence(realm.id)]);
    return id;
  });
  if (!wasOffline && !(status === "active" && wasIdle)) return [];
  if ((await storedUserSettings(db, user.id)).get("presence_enabled") === false) return [];
  const stored = { ...row, last_update_id: updateId };
  const userIds = (await activeRealmUserIds(db, realm.id)).filter((id) => id !== user.id);
  const legacyData = legacy(stored, now);
  return [
    {
      realmId: realm.id,
      userIds,
      withoutCapability: "simplified_presence_events",
      event: {
        type: "presence",
        user_id: user.id,
        email: user.email,
        server_timestamp: Date.now() / 1000,
        presence: { website: legacyData.website },
      },
    },
    {
      realmId: realm.id,
      userIds,
      capability: "simplified_presence_events",
      event: { type: "presence", presences: { [user.id]: modern(stored) } },
    },
  ];
}

/** GET /users/{user_id_or_email}/presence: the user's presence in the legacy per-client format. */
export async function userPresence(
  q: Queryable,
  realm: RealmRow,
  idOrEmail: string,
): Promise<Record<string, Record<string, unknown>>> {
  const target = /^\d+$/.test(idOrEmail)
    ? await findUserById(q, realm.id, Number(idOrEmail))
    : await findUserByEmail(q, realm.id, idOrEmail);
  if (!target) throw Errors.badRequest("No such user");
  if (target.is_bot) throw Errors.badRequest("Presence is not supported for bot users.");
  const row = await findPresence(q, target.id);
  if (!row || (await storedUserSettings(q, target.id)).get("presence_enabled") === false)
    throw Errors.badRequest(`No presence data for ${target.email}`);
  return legacy(row, nowSeconds());
}
