// The webhook operations of one server process: delivery log (writer and pruner), template
// overrides (with their cache), the log's read side and replay, and the ingest step they share.
import path from "node:path";
import type { AppDeps } from "../../deps";
import { integrationsDirFor } from "../../webhooks/startup";
import { WebhookDeliveries } from "./deliveries";
import { DeliveryLog } from "./deliveryLog";
import { createWebhookDelivery } from "./delivery";
import { createIngest, type Ingest } from "./ingest";
import { WebhookOverrides } from "./overrides";

export interface WebhookOps {
  log: DeliveryLog;
  overrides: WebhookOverrides;
  deliveries: WebhookDeliveries;
  ingest: Ingest;
  close(): Promise<void>;
}

export function createWebhookOps(deps: Omit<AppDeps, "webhookOps">): WebhookOps {
  const log = new DeliveryLog(deps.db, deps.config.webhookLog, deps.logger.child({ logger: "webhooks.log" }));
  const fixturesDir = path.join(path.dirname(integrationsDirFor(deps.config)), "fixtures");
  const overrides = new WebhookOverrides(deps.db, deps.bus, deps.integrations, fixturesDir);
  const ingest = createIngest(createWebhookDelivery(deps), overrides);
  const deliveries = new WebhookDeliveries(deps.db, deps.integrations, ingest);
  log.startPruning();
  return { log, overrides, deliveries, ingest, close: () => log.close() };
}
