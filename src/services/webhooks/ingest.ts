// One webhook delivery once it is authenticated and read: the pure pipeline (on a render thread)
// with the organization's template overrides, then the webhook service (de-duplication, posting). Shared by
// the HTTP route and by replays. The answer carries the trace of what was learnt on the way (event,
// delivery id, message ids) and the failure, if any, so the delivery log has both.
import type { RealmRow, UserRow } from "../../db/rows";
import type { PipelineThreads } from "../../webhooks/pipelineThreads";
import type { Integration } from "../../webhooks/registry";
import { verifyRequestSignature, type PipelineResult, type ReplyFields } from "../../webhooks/pipeline";
import type { DeliverWebhook, DeliveryResult } from "./delivery";
import type { DeliveryOutcome } from "./deliveryLog";
import type { WebhookOverrides } from "./overrides";
import { lookupApiDetails, lookupToken, type ApiLookupContext } from "./apiLookup";
import { SnsVerifier, verifyDelivery } from "./awsSns";

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
  /** The URL the sender posted to, for a signature that covers it (WebhookRequest.url). */
  url?: string;
}

export interface DeliveryTrace {
  event?: string;
  eventKey?: string;
  deliveryId?: string;
  outcome?: Exclude<DeliveryOutcome, "error">;
  messageIds?: number[];
  ignoredReason?: string;
}

/** What the delivery log records of an ingest; `error` is what was thrown (ApiError or a fault) when it failed. */
export interface IngestResult {
  trace: DeliveryTrace;
  error?: unknown;
  /** Extra fields of the success answer (manifest `reply`), when the plugin has some for this delivery. */
  reply?: ReplyFields;
}

export type Ingest = (input: IngestInput) => Promise<IngestResult>;

export function createIngest(
  deliverWebhook: DeliverWebhook,
  overrides: WebhookOverrides,
  pipeline: Pick<PipelineThreads, "run">,
  sns: SnsVerifier = new SnsVerifier(),
  lookups?: ApiLookupContext,
): Ingest {
  return async function ingest(d) {
    let trace: DeliveryTrace = {};
    try {
      const eventOverrides = await overrides.forIntegration(d.realm.id, d.integration.name);
      const signed = {
        headers: d.headers,
        body: d.body,
        secret: d.replay ? null : d.bot.webhook_secret,
        receivedAt: d.receivedAt,
        url: d.url,
        query: d.query,
      };
      // A delivery its bot's secret refuses makes no lookup with the owner's token (the pipeline
      // then answers the refusal itself, with the event it can read). Only deliveries that would
      // make lookups pay for this early check: the pipeline checks every signature anyway.
      const wantsLookups = lookupToken(d.integration, d.query) !== undefined;
      const api =
        wantsLookups && signatureHolds(d.integration, signed)
          ? await lookupApiDetails(d.integration, d, lookups)
          : undefined;
      const request = {
        ...signed,
        overrides: eventOverrides,
        ...(api ? { api } : {}),
      };
      const read = await pipeline.run(d.integration, request);
      trace = eventTrace(read);
      // A service's own signature scheme (manifest `verification`): checked before anything is posted.
      const result = await verifyDelivery(sns, {
        ...d,
        request,
        result: read,
        render: (again) => pipeline.run(d.integration, again),
      });
      const delivered = await deliverWebhook({
        integration: d.integration,
        realm: d.realm,
        bot: d.bot,
        path: d.path,
        stream: d.query.stream,
        result,
        replay: d.replay,
      });
      const reply = "outcome" in result && result.outcome.kind !== "unsupported" ? result.outcome.reply : undefined;
      return { trace: { ...trace, ...outcomeTrace(delivered) }, ...(reply ? { reply } : {}) };
    } catch (error) {
      return { trace, error };
    }
  };
}

function signatureHolds(integration: Integration, request: Parameters<typeof verifyRequestSignature>[1]): boolean {
  try {
    verifyRequestSignature(integration, request);
    return true;
  } catch {
    return false;
  }
}

/** The event and delivery id the pipeline found (also when it refused the delivery). */
function eventTrace(result: PipelineResult): DeliveryTrace {
  if (!("outcome" in result)) return { event: result.event, eventKey: result.eventKey };
  const { outcome } = result;
  return {
    event: outcome.event?.eventType,
    eventKey: "eventKey" in outcome ? outcome.eventKey : undefined,
    deliveryId: outcome.kind === "messages" ? outcome.deliveryId : undefined,
  };
}

/** What became of the delivery: the messages posted, or why nothing was. */
function outcomeTrace(delivered: DeliveryResult): DeliveryTrace {
  if (delivered.kind === "posted") return { outcome: "message", messageIds: delivered.messageIds };
  return {
    outcome: delivered.kind,
    ignoredReason: delivered.kind === "ignored" ? delivered.reason : "duplicate",
  };
}
