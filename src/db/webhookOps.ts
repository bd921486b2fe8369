// Webhook operations storage: the delivery log, claimed sender delivery ids, template overrides.
import type { Db, Queryable } from "./knex";
import { insertReturningId, insertRows, insertRowsPrepared } from "./knex";
import { isMysql } from "./collation";
import { isUniqueViolation } from "./errors";

export interface WebhookDeliveryRow {
  id: number;
  realm_id: number;
  bot_id: number;
  integration: string;
  event: string | null;
  event_key: string | null;
  delivery_id: string | null;
  time_ms: number;
  status: number;
  code: string | null;
  outcome: string;
  message_ids: string; // JSON list
  ignored_reason: string | null;
  error: string | null;
  duration_ms: number;
  replay_of: number | null;
  headers: string; // JSON object
  query: string; // JSON object
  body: Buffer;
  body_utf8: number | boolean;
  body_size: number;
  body_truncated: number | boolean;
  /** "incoming" (a webhook received) or "outgoing" (a delivery to an outgoing-webhook bot); the column defaults to incoming. */
  direction?: string;
}

export type NewWebhookDelivery = Omit<WebhookDeliveryRow, "id">;

/** Everything but the (possibly large) request. */
const SUMMARY_COLUMNS = [
  "id",
  "realm_id",
  "bot_id",
  "integration",
  "event",
  "event_key",
  "delivery_id",
  "time_ms",
  "status",
  "code",
  "outcome",
  "message_ids",
  "ignored_reason",
  "error",
  "duration_ms",
  "replay_of",
  "direction",
] as const;

export type WebhookDeliverySummaryRow = Pick<WebhookDeliveryRow, (typeof SUMMARY_COLUMNS)[number]>;

/** A batch of log entries (outside any transaction: the log is written after the deliveries). */
export async function insertWebhookDeliveries(db: Db, rows: NewWebhookDelivery[]): Promise<void> {
  // Each row carries the request body: on MySQL as bytes in a prepared statement, not as hex text.
  if (isMysql(db)) await insertRowsPrepared(db, "webhook_deliveries", rows as unknown as Record<string, unknown>[]);
  else await insertRows(db, "webhook_deliveries", rows);
}

export async function insertWebhookDelivery(q: Queryable, row: NewWebhookDelivery): Promise<number> {
  return insertReturningId(q, "webhook_deliveries", row);
}

export interface DeliveryFilter {
  realmId: number;
  /** Only these bots (undefined: every bot of the realm). */
  botIds?: number[];
  integration?: string;
  outcome?: string;
  sinceMs?: number;
  untilMs?: number;
  /** Only ids below this one. */
  beforeId?: number;
  limit: number;
}

/** Newest first. */
export async function listWebhookDeliveries(q: Queryable, f: DeliveryFilter): Promise<WebhookDeliverySummaryRow[]> {
  const query = q<WebhookDeliveryRow>("webhook_deliveries")
    .select(...SUMMARY_COLUMNS)
    .where("realm_id", f.realmId);
  if (f.botIds) query.whereIn("bot_id", f.botIds);
  if (f.integration !== undefined) query.andWhere("integration", f.integration);
  if (f.outcome !== undefined) query.andWhere("outcome", f.outcome);
  if (f.sinceMs !== undefined) query.andWhere("time_ms", ">=", f.sinceMs);
  if (f.untilMs !== undefined) query.andWhere("time_ms", "<=", f.untilMs);
  if (f.beforeId !== undefined) query.andWhere("id", "<", f.beforeId);
  return query.orderBy("id", "desc").limit(f.limit);
}

export async function findWebhookDelivery(
  q: Queryable,
  realmId: number,
  id: number,
): Promise<WebhookDeliveryRow | undefined> {
  return q<WebhookDeliveryRow>("webhook_deliveries").where({ realm_id: realmId, id }).first();
}

/** Deletes deliveries older than `beforeMs`; returns how many. */
export async function deleteWebhookDeliveriesBefore(q: Queryable, beforeMs: number): Promise<number> {
  return q("webhook_deliveries").where("time_ms", "<", beforeMs).delete();
}

/** Bots with more than `keep` logged deliveries. */
export async function botsOverDeliveryCount(q: Queryable, keep: number): Promise<number[]> {
  const rows = await q("webhook_deliveries").select("bot_id").groupBy("bot_id").havingRaw("count(*) > ?", [keep]);
  return rows.map((r: { bot_id: number }) => Number(r.bot_id));
}

/** Keeps a bot's newest `keep` deliveries; returns how many were deleted. */
export async function trimBotDeliveries(q: Queryable, botId: number, keep: number): Promise<number> {
  const boundary = await q("webhook_deliveries")
    .select("id")
    .where("bot_id", botId)
    .orderBy("id", "desc")
    .offset(keep)
    .limit(1)
    .first();
  if (!boundary) return 0;
  return q("webhook_deliveries").where("bot_id", botId).andWhere("id", "<=", boundary.id).delete();
}

// ---- Sender delivery ids (de-duplication) ----

export interface ClaimKey {
  botId: number;
  integration: string;
  deliveryId: string;
}

const claimWhere = (k: ClaimKey) => ({ bot_id: k.botId, integration: k.integration, delivery_id: k.deliveryId });

/**
 * Claims a sender delivery id: true when this call owns it now, false when another delivery
 * within the window already did. The unique key decides between concurrent claimants; a claim
 * older than the window is given up first (a sender may reuse ids eventually).
 */
export async function claimDeliveryId(q: Queryable, key: ClaimKey, nowMs: number, windowMs: number): Promise<boolean> {
  await q("webhook_delivery_claims")
    .where(claimWhere(key))
    .andWhere("time_ms", "<", nowMs - windowMs)
    .delete();
  try {
    await q("webhook_delivery_claims").insert({ ...claimWhere(key), time_ms: nowMs });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** Gives a claim back (the delivery it belonged to failed before posting). */
export async function releaseDeliveryId(q: Queryable, key: ClaimKey, claimedAtMs: number): Promise<void> {
  await q("webhook_delivery_claims").where(claimWhere(key)).andWhere("time_ms", claimedAtMs).delete();
}

export async function deleteClaimsBefore(q: Queryable, beforeMs: number): Promise<number> {
  return q("webhook_delivery_claims").where("time_ms", "<", beforeMs).delete();
}

// ---- Template overrides ----

export interface WebhookOverrideRow {
  id: number;
  realm_id: number;
  integration: string;
  event_key: string;
  template: string | null;
  topic: string | null;
  updated_at: number;
  updated_by: number;
}

export async function listWebhookOverrides(
  q: Queryable,
  realmId: number,
  integration?: string,
): Promise<WebhookOverrideRow[]> {
  const query = q<WebhookOverrideRow>("webhook_overrides").where("realm_id", realmId);
  if (integration !== undefined) query.andWhere("integration", integration);
  return query.orderBy([{ column: "integration" }, { column: "event_key" }]);
}

export async function findWebhookOverride(
  q: Queryable,
  realmId: number,
  integration: string,
  eventKey: string,
): Promise<WebhookOverrideRow | undefined> {
  return q<WebhookOverrideRow>("webhook_overrides")
    .where({ realm_id: realmId, integration, event_key: eventKey })
    .first();
}

export async function upsertWebhookOverride(q: Queryable, row: Omit<WebhookOverrideRow, "id">): Promise<void> {
  const where = { realm_id: row.realm_id, integration: row.integration, event_key: row.event_key };
  const changed = await q("webhook_overrides").where(where).update(row);
  if (changed > 0) return;
  try {
    await q("webhook_overrides").insert(row);
  } catch (err) {
    // Two administrators saving at once: the later write wins, as for an update.
    if (!isUniqueViolation(err)) throw err;
    await q("webhook_overrides").where(where).update(row);
  }
}

export async function deleteWebhookOverride(
  q: Queryable,
  realmId: number,
  integration: string,
  eventKey: string,
): Promise<boolean> {
  const n = await q("webhook_overrides").where({ realm_id: realmId, integration, event_key: eventKey }).delete();
  return n > 0;
}

/** Ids of the bots a user owns (the delivery log's access rule for non-administrators). */
export async function botIdsOwnedBy(q: Queryable, realmId: number, ownerId: number): Promise<number[]> {
  const rows = await q("users").select("id").where({ realm_id: realmId, bot_owner_id: ownerId });
  return rows.map((r: { id: number }) => Number(r.id));
}

/** Any organization's delivery (operator tools only). */
export async function findWebhookDeliveryById(q: Queryable, id: number): Promise<WebhookDeliveryRow | undefined> {
  return q<WebhookDeliveryRow>("webhook_deliveries").where({ id }).first();
}
