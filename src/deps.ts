// What the HTTP layer is built from; created once in main.ts (or by the test harness).
import type { Logger } from "pino";
import type { Config } from "./config";
import type { Db } from "./db/knex";
import type { EventBus } from "./events/bus";
import type { EventQueueStore } from "./events/queues";
import type { RateLimits } from "./http/rateLimit";
import type { IntegrationRegistry } from "./webhooks/registry";
import type { WebhookOps } from "./services/webhooks/ops";
import type { DatabaseHealth } from "./services/health/database";
import type { MessageSender } from "./services/messages/groupCommit";
import type { UserActivity } from "./services/users/softDeactivation";

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  bus: EventBus;
  /** Sends messages with group commit (services/messages/groupCommit.ts) and publishes their events. */
  messageSender: MessageSender;
  /** Records authenticated requests; brings soft-deactivated users back. */
  activity: UserActivity;
  queues: EventQueueStore;
  rateLimits: RateLimits;
  integrations: IntegrationRegistry;
  /** Delivery log, replay, template overrides (docs/webhook-operations.md). */
  webhookOps: WebhookOps;
  /** Logs database outages once (optional: tests may build deps without it). */
  databaseHealth?: DatabaseHealth;
}
