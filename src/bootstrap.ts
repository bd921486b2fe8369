// Builds AppDeps from a Config: database, logger, event bus (memory or Redis), rate limits,
// integrations. Shared by main.ts, the CLI and the test harness.
import fs from "node:fs";
import Redis from "ioredis";
import type { DestinationStream } from "pino";
import type { Config } from "./config";
import type { AppDeps } from "./deps";
import { createDb, migrateLatest } from "./db/knex";
import { createMemoryBus, createRedisBus } from "./events/bus";
import { EventQueues } from "./events/queues";
import { createRateLimits } from "./http/rateLimit";
import { createLogger } from "./logger";
import { loadIntegrationsForApp } from "./webhooks/startup";

export async function createDeps(
  config: Config,
  options: { migrate?: boolean; logDestination?: DestinationStream } = {},
): Promise<AppDeps & { close(): Promise<void> }> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.mkdirSync(config.uploadsDir, { recursive: true });
  const logger = createLogger(config.logLevel, options.logDestination);
  // Plugins first: a broken integration stops start-up before anything is opened.
  const integrations = await loadIntegrationsForApp(config);
  const db = createDb(config.databaseUrl, config.dataDir);
  if (options.migrate !== false) await migrateLatest(db);
  const queues = new EventQueues(config.longPollTimeoutSeconds);
  let redis: Redis | undefined;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  }
  const bus = config.redisUrl ? await createRedisBus(config.redisUrl, config.redisPrefix, queues, logger) : createMemoryBus(queues);
  const rateLimits = createRateLimits(config.rateLimit, redis, config.redisPrefix);
  return {
    config,
    db,
    logger,
    bus,
    queues,
    rateLimits,
    integrations,
    async close() {
      queues.close();
      await bus.close();
      redis?.disconnect();
      await db.destroy();
    },
  };
}
