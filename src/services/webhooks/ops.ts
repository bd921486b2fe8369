// The webhook operations of one server process: delivery log (writer and pruner), template
// overrides (with their cache), the log's read side and replay, the render threads, and the ingest
// step they share; and the deliveries to outgoing-webhook bots (outgoing.ts).
import type { Config } from "../../config";
import type { EventBus } from "../../events/bus";
import { PipelineThreads } from "../../webhooks/pipelineThreads";
import { WebhookDeliveries } from "./deliveries";
import { DeliveryLog } from "./deliveryLog";
import { createWebhookDelivery, type WebhookDeliveryDeps } from "./delivery";
import { SnsVerifier } from "./awsSns";
import { createIngest, type Ingest } from "./ingest";
import { OutboundPolicy } from "./outboundPolicy";
import { OutgoingWebhooks } from "./outgoing";
import { WebhookOverrides } from "./overrides";

export interface WebhookOps {
  log: DeliveryLog;
  overrides: WebhookOverrides;
  deliveries: WebhookDeliveries;
  ingest: Ingest;
  /** Amazon SNS's signing certificates (cached by URL) and confirmations, for ingest. */
  sns: SnsVerifier;
  /** The render threads: deliveries, replays and previews run the pipeline there. */
  threads: PipelineThreads;
  /** Posts messages that mention (or DM) outgoing-webhook bots to their URLs, after commit. */
  outgoing: OutgoingWebhooks;
  /** Starts the render threads (the server does, once it listens); they load plugins as deliveries need them. */
  warmRenderThreads(): void;
  close(): Promise<void>;
}

/** What the webhook operations are built from (AppDeps has all of it; it holds their result). */
export interface WebhookOpsDeps extends WebhookDeliveryDeps {
  bus: EventBus;
  config: Pick<Config, "webhookLog" | "webhookRender" | "externalUrl" | "apiLookup">;
}

export function createWebhookOps(deps: WebhookOpsDeps): WebhookOps {
  const log = new DeliveryLog(deps.db, deps.config.webhookLog, deps.logger.child({ logger: "webhooks.log" }));
  const overrides = new WebhookOverrides(deps.db, deps.bus, deps.integrations);
  const threads = new PipelineThreads(deps.config.webhookRender, deps.logger.child({ logger: "webhooks.render" }));
  const sns = new SnsVerifier();
  // API lookups reach only public addresses unless the operator allows more (API_LOOKUP_ALLOWED_*).
  const lookups = {
    policy: new OutboundPolicy(deps.config.apiLookup),
    logger: deps.logger.child({ logger: "webhooks.lookups" }),
  };
  const ingest = createIngest(createWebhookDelivery(deps), overrides, threads, sns, lookups);
  const deliveries = new WebhookDeliveries(deps.db, deps.integrations, ingest);
  const outgoing = new OutgoingWebhooks({
    ...deps,
    logger: deps.logger.child({ logger: "webhooks.outgoing" }),
  });
  log.startPruning();
  const close = async () => {
    await Promise.all([log.close(), threads.close(), outgoing.close()]);
  };
  // Threads only: each compiles a plugin on its first delivery (WEBHOOK_RENDER_PLUGINS bounds how many it keeps).
  const warmRenderThreads = () => threads.warm();
  return { log, overrides, deliveries, ingest, sns, threads, outgoing, warmRenderThreads, close };
}
