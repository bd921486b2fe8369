// The delivery log's read side and replay, for a bot's owner and the organization's
// administrators only. A delivery the caller may not see is "not found", exactly like one that
// does not exist, so ids reveal nothing about other bots or organizations.
import type { Db } from "../../db/knex";
import type { RealmRow, UserRow } from "../../db/rows";
import { findUserById } from "../../db/users";
import {
  botIdsOwnedBy,
  findWebhookDelivery,
  insertWebhookDelivery,
  listWebhookDeliveries,
  type WebhookDeliveryRow,
  type WebhookDeliverySummaryRow,
} from "../../db/webhookOps";
import { ApiError, Errors } from "../../errors";
import type { IntegrationRegistry } from "../../webhooks/registry";
import { isAdmin } from "../users/users";
import { toRow, type DeliveryOutcome } from "./deliveryLog";
import type { Ingest } from "./ingest";

export const OUTCOMES: DeliveryOutcome[] = ["message", "ignored", "duplicate", "error"];

export interface DeliverySummary {
  id: number;
  time: number;
  bot_id: number;
  integration: string;
  event: string | null;
  event_key: string | null;
  delivery_id: string | null;
  status: number;
  code: string | null;
  outcome: DeliveryOutcome;
  message_ids: number[];
  ignored_reason: string | null;
  error: string | null;
  duration_ms: number;
  replay_of: number | null;
  /** "incoming", or "outgoing" for a delivery this server made to an outgoing-webhook bot. */
  direction: string;
}

export interface DeliveryDetail extends DeliverySummary {
  headers: Record<string, string>;
  query: Record<string, string>;
  body: string;
  body_encoding: "utf8" | "base64";
  body_size: number;
  body_truncated: boolean;
}

export function summary(row: WebhookDeliverySummaryRow): DeliverySummary {
  return {
    id: Number(row.id),
    time: Math.floor(Number(row.time_ms) / 1000),
    bot_id: Number(row.bot_id),
    integration: row.integration,
    event: row.event,
    event_key: row.event_key,
    delivery_id: row.delivery_id,
    status: Number(row.status),
    code: row.code,
    outcome: row.outcome as DeliveryOutcome,
    message_ids: JSON.parse(row.message_ids) as number[],
    ignored_reason: row.ignored_reason,
    error: row.error,
    duration_ms: Number(row.duration_ms),
    replay_of: row.replay_of === null ? null : Number(row.replay_of),
    direction: row.direction ?? "incoming",
  };
}

function detail(row: WebhookDeliveryRow): DeliveryDetail {
  const utf8 = Boolean(row.body_utf8);
  const body = Buffer.from(row.body);
  return {
    ...summary(row),
    headers: JSON.parse(row.headers) as Record<string, string>,
    query: JSON.parse(row.query) as Record<string, string>,
    body: utf8 ? body.toString("utf8") : body.toString("base64"),
    body_encoding: utf8 ? "utf8" : "base64",
    body_size: Number(row.body_size),
    body_truncated: Boolean(row.body_truncated),
  };
}

export interface DeliveryQuery {
  botId?: number;
  integration?: string;
  outcome?: DeliveryOutcome;
  since?: number;
  until?: number;
  anchor?: number;
  limit: number;
}

/** Bots cannot read the log (a webhook URL's key must not reveal other deliveries). */
function assertHuman(user: UserRow): void {
  if (user.is_bot)
    throw new ApiError("UNAUTHORIZED_PRINCIPAL", "Bots cannot read the webhook delivery log", {}, { status: 403 });
}

export class WebhookDeliveries {
  constructor(
    private readonly db: Db,
    private readonly integrations: IntegrationRegistry,
    private readonly ingest: Ingest,
  ) {}

  async list(realm: RealmRow, user: UserRow, q: DeliveryQuery) {
    assertHuman(user);
    // Administrators see every bot; anyone else the bots they own (and deliveries made with their own key).
    let botIds = isAdmin(user) ? undefined : [user.id, ...(await botIdsOwnedBy(this.db, realm.id, user.id))];
    if (q.botId !== undefined) botIds = !botIds || botIds.includes(q.botId) ? [q.botId] : [];
    if (botIds?.length === 0) return { deliveries: [], found_oldest: true };
    const rows = await listWebhookDeliveries(this.db, {
      realmId: realm.id,
      botIds,
      integration: q.integration,
      outcome: q.outcome,
      sinceMs: q.since === undefined ? undefined : q.since * 1000,
      untilMs: q.until === undefined ? undefined : q.until * 1000 + 999,
      beforeId: q.anchor,
      limit: q.limit + 1,
    });
    return { deliveries: rows.slice(0, q.limit).map(summary), found_oldest: rows.length <= q.limit };
  }

  private async visible(realm: RealmRow, user: UserRow, id: number): Promise<WebhookDeliveryRow> {
    assertHuman(user);
    const row = await findWebhookDelivery(this.db, realm.id, id);
    if (row && (isAdmin(user) || Number(row.bot_id) === user.id)) return row;
    if (row) {
      const bot = await findUserById(this.db, realm.id, Number(row.bot_id));
      if (bot?.bot_owner_id === user.id) return row;
    }
    throw Errors.notFound("Delivery not found");
  }

  async get(realm: RealmRow, user: UserRow, id: number): Promise<DeliveryDetail> {
    return detail(await this.visible(realm, user, id));
  }

  /** Runs the stored delivery through the current plugin, templates and overrides; posts; logs it. */
  async replay(realm: RealmRow, user: UserRow, id: number): Promise<DeliverySummary> {
    const row = await this.visible(realm, user, id);
    if (row.direction === "outgoing")
      throw Errors.badRequest(
        "This is a delivery to an outgoing-webhook bot: only received deliveries can be replayed",
      );
    if (row.code === "INVALID_SIGNATURE")
      throw Errors.badRequest("This delivery was refused for its signature and cannot be replayed");
    if (row.body_truncated)
      throw Errors.badRequest("This delivery's body was truncated in the log: it cannot be replayed");
    const integration = this.integrations.get(row.integration);
    if (!integration) throw Errors.badRequest(`The integration '${row.integration}' no longer exists`);
    const bot = await findUserById(this.db, realm.id, Number(row.bot_id));
    if (!bot?.is_active) throw Errors.badRequest("The delivery's bot is deactivated");
    const stored = detail(row);
    const headers: Record<string, string> = { ...stored.headers };
    const request = { headers, query: stored.query, body: Buffer.from(row.body) };
    const startedMs = Date.now();
    let status = 200;
    let code: string | undefined;
    let error: string | undefined;
    const { trace, error: err } = await this.ingest({
      integration,
      realm,
      bot,
      path: `/api/v1/external/${integration.name}`,
      ...request,
      replay: true,
    });
    if (err !== undefined) {
      if (!(err instanceof ApiError)) throw err;
      status = err.status;
      code = err.code;
      error = err.message;
    }
    const newRow = toRow(
      {
        realmId: realm.id,
        botId: bot.id,
        integration: integration.name,
        ...trace,
        startedMs,
        finishedMs: Date.now(),
        status,
        code,
        outcome: code ? "error" : (trace.outcome ?? "ignored"),
        error,
        replayOf: Number(row.id),
        ...request,
      },
      Number.MAX_SAFE_INTEGER,
    );
    const newId = await insertWebhookDelivery(this.db, newRow);
    return summary({ ...newRow, id: newId });
  }
}
