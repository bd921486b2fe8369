// The webhook delivery log's writer: deliveries are recorded after they were answered, in the
// background and in batches, so the log never fails or slows a delivery (a write error is logged
// and the entry dropped). A background pruner keeps the log within its count and age bounds.
import { isUtf8 } from "node:buffer";
import type { Logger } from "pino";
import type { Config } from "../../config";
import type { Db } from "../../db/knex";
import {
  botsOverDeliveryCount,
  deleteClaimsBefore,
  deleteWebhookDeliveriesBefore,
  insertWebhookDeliveries,
  trimBotDeliveries,
  type NewWebhookDelivery,
} from "../../db/webhookOps";

export type DeliveryOutcome = "message" | "ignored" | "duplicate" | "error";

/** One answered delivery, as the route (or a replay) saw it. */
export interface DeliveryRecord {
  realmId: number;
  botId: number;
  integration: string;
  event?: string;
  eventKey?: string;
  deliveryId?: string;
  startedMs: number;
  finishedMs: number;
  status: number;
  code?: string;
  outcome: DeliveryOutcome;
  messageIds?: number[];
  ignoredReason?: string;
  error?: string;
  replayOf?: number;
  /** Header names in lower case, as received (secrets are removed when the entry is written). */
  headers: Record<string, string | undefined>;
  query: Record<string, string>;
  body: Buffer;
  /** The plugin's signature header, removed like the other secrets. */
  signatureHeader?: string;
}

/** Header names whose values are credentials or secrets (or prove knowledge of one). */
const SECRET_HEADER = /auth|cookie|token|secret|signature|password|passwd|key|session|credential/i;

export function redactHeaders(
  headers: Record<string, string | undefined>,
  signatureHeader?: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  const signature = signatureHeader?.toLowerCase();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SECRET_HEADER.test(name) || name.toLowerCase() === signature) continue;
    out[name.toLowerCase()] = value;
  }
  return out;
}

export function redactQuery(query: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (!SECRET_HEADER.test(name)) out[name] = value;
  return out;
}

/** The first `cap` bytes, cut back to a character boundary when the body is UTF-8 text. */
export function capBody(body: Buffer, cap: number): { bytes: Buffer; utf8: boolean; truncated: boolean } {
  const utf8 = isUtf8(body);
  if (body.length <= cap) return { bytes: body, utf8, truncated: false };
  let end = cap;
  // A UTF-8 continuation byte is 10xxxxxx: back up to the start of the character it belongs to.
  if (utf8) while (end > 0 && (body[end] & 0xc0) === 0x80) end--;
  return { bytes: Buffer.from(body.subarray(0, end)), utf8, truncated: true };
}

export function toRow(r: DeliveryRecord, maxBodyBytes: number): NewWebhookDelivery {
  const body = capBody(r.body, maxBodyBytes);
  return {
    realm_id: r.realmId,
    bot_id: r.botId,
    integration: r.integration,
    event: r.event?.slice(0, 200) ?? null,
    event_key: r.eventKey?.slice(0, 200) ?? null,
    delivery_id: r.deliveryId?.slice(0, 200) ?? null,
    time_ms: r.startedMs,
    status: r.status,
    code: r.code?.slice(0, 64) ?? null,
    outcome: r.outcome,
    message_ids: JSON.stringify(r.messageIds ?? []),
    ignored_reason: r.ignoredReason?.slice(0, 200) ?? null,
    error: r.error?.slice(0, 2000) ?? null,
    duration_ms: Math.max(0, Math.round(r.finishedMs - r.startedMs)),
    replay_of: r.replayOf ?? null,
    headers: JSON.stringify(redactHeaders(r.headers, r.signatureHeader)),
    query: JSON.stringify(redactQuery(r.query)),
    body: body.bytes,
    body_utf8: body.utf8,
    body_size: r.body.length,
    body_truncated: body.truncated,
  };
}

/** Rows per INSERT: well under SQLite's bound-variable limit (22 columns each). */
const BATCH = 40;
/**
 * Logged body bytes per INSERT. SQLite's driver writes synchronously on the event loop, and MySQL's
 * builds the statement's text there: 40 large deliveries (256 KB logged each) made one 10 MB INSERT.
 */
const BATCH_BODY_BYTES = 1024 * 1024;
/** Entries waiting beyond this are dropped (the database is down or far behind): memory stays bounded. */
const MAX_PENDING = 5000;

/** How many of the first pending entries go in one INSERT: at least one, within both bounds. */
export function batchSize(pending: readonly Pick<DeliveryRecord, "body">[], maxBodyBytes: number): number {
  let bytes = 0;
  let n = 0;
  while (n < pending.length && n < BATCH) {
    bytes += Math.min(pending[n].body.length, maxBodyBytes);
    if (n > 0 && bytes > BATCH_BODY_BYTES) break;
    n++;
  }
  return n;
}

export class DeliveryLog {
  private pending: DeliveryRecord[] = [];
  private flushing: Promise<void> | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly config: Config["webhookLog"],
    private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return this.config.enabled;
  }

  /** Queues an entry; never throws, never waits. */
  record(entry: DeliveryRecord): void {
    if (!this.config.enabled) return;
    if (this.pending.length >= MAX_PENDING) {
      if (this.dropped++ === 0) this.logger.warn("webhook delivery log is behind: entries dropped");
      return;
    }
    this.pending.push(entry);
    if (!this.flushing) this.flushing = new Promise((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  /** Resolves once every entry recorded so far is written (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, batchSize(this.pending, this.config.maxBodyBytes));
        try {
          await insertWebhookDeliveries(
            this.db,
            batch.map((r) => toRow(r, this.config.maxBodyBytes)),
          );
        } catch (err) {
          this.logger.warn({ err: (err as Error).message, count: batch.length }, "webhook delivery log write failed");
        }
      }
      this.dropped = 0;
    } finally {
      this.flushing = undefined;
    }
  }

  /** Deletes entries beyond the count and age bounds, and expired de-duplication claims. */
  async prune(now = Date.now()): Promise<{ deleted: number }> {
    const { maxAgeDays, maxPerBot, dedupWindowSeconds } = this.config;
    let deleted = await deleteWebhookDeliveriesBefore(this.db, now - maxAgeDays * 86_400_000);
    for (const botId of await botsOverDeliveryCount(this.db, maxPerBot))
      deleted += await trimBotDeliveries(this.db, botId, maxPerBot);
    await deleteClaimsBefore(this.db, now - dedupWindowSeconds * 1000);
    return { deleted };
  }

  startPruning(): void {
    if (this.pruneTimer || this.config.pruneIntervalSeconds === 0) return;
    this.pruneTimer = setInterval(() => {
      this.prune().catch((err) => this.logger.warn({ err: (err as Error).message }, "webhook log pruning failed"));
    }, this.config.pruneIntervalSeconds * 1000);
    this.pruneTimer.unref();
  }

  async close(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = undefined;
    await this.idle();
  }
}
