// One webhook delivery once it is authenticated and read: the pure pipeline (on a render thread)
// with the organization's template overrides, then the webhook service (de-duplication, posting). Shared by
// the HTTP route and by replays. `trace` collects what is learnt on the way (event, delivery id,
// message ids) so the delivery log has it even when the delivery fails.
import type { RealmRow, UserRow } from "../../db/rows";
import type { PipelineThreads } from "../../webhooks/pipelineThreads";
import type { Integration } from "../../webhooks/registry";
import type { DeliverWebhook } from "./delivery";
import type { DeliveryOutcome } from "./deliveryLog";
import type { WebhookOverrides } from "./overrides";

export interface IngestInput {
  integration: Integration;
  realm: RealmRow;
  bot: UserRow;
  /** The request path, quoted in the owner's notice about a missing event header. */
  path: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string>;
  body: Buffer;
  /** A replay: no signature check (the caller is authenticated) and no de-duplication. */
  replay?: boolean;
  /** When the delivery arrived (ms since the epoch), for a signed timestamp's tolerance. */
  receivedAt?: number;
}

export interface DeliveryTrace {
  event?: string;
  eventKey?: string;
  deliveryId?: string;
  outcome?: Exclude<DeliveryOutcome, "error">;
  messageIds?: number[];
  ignoredReason?: string;
}

export type Ingest = (input: IngestInput, trace: DeliveryTrace) => Promise<void>;

export function createIngest(
  deliverWebhook: DeliverWebhook,
  overrides: WebhookOverrides,
  pipeline: Pick<PipelineThreads, "run">,
): Ingest {
  return async function ingest(d, trace) {
    const eventOverrides = await overrides.forIntegration(d.realm.id, d.integration.name);
    const request = {
      headers: d.headers,
      query: d.query,
      body: d.body,
      secret: d.replay ? null : d.bot.webhook_secret,
      receivedAt: d.receivedAt,
      overrides: eventOverrides,
    };
    const result = await pipeline.run(d.integration, request);
    if ("outcome" in result) {
      const { outcome } = result;
      trace.event = outcome.event?.eventType;
      trace.eventKey = "eventKey" in outcome ? outcome.eventKey : undefined;
      trace.deliveryId = outcome.kind === "messages" ? outcome.deliveryId : undefined;
    } else {
      trace.event = result.event;
      trace.eventKey = result.eventKey;
    }
    const delivered = await deliverWebhook({
      integration: d.integration,
      realm: d.realm,
      bot: d.bot,
      path: d.path,
      stream: d.query.stream,
      result,
      replay: d.replay,
    });
    if (delivered.kind === "posted") {
      trace.outcome = "message";
      trace.messageIds = delivered.messageIds;
    } else {
      trace.outcome = delivered.kind;
      trace.ignoredReason = delivered.kind === "ignored" ? delivered.reason : "duplicate";
    }
  };
}
