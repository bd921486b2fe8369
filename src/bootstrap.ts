// Builds AppDeps from a Config: database, logger, event bus (memory or Redis), rate limits,
// integrations. Shared by main.ts, the CLI and the test harness.
import fs from "node:fs";
import type Redis from "ioredis";
import type { DestinationStream } from "pino";
import type { Config } from "./config";
import type { AppDeps } from "./deps";
import { CACHE_INVALIDATION, cachesOf, SHARED_TTL_MS, type CacheTag } from "./db/cache";
import { createDb, migrateLatest } from "./db/knex";
import { WAL_CHECKPOINTER_DEFAULTS } from "./db/walCheckpointer";
import {
  createMemoryBus,
  createRedisBus,
  newRedisClient,
  REDIS_OPTIONS,
  redisHealthLog,
  RESYNC,
  untilReadyOrTimeout,
} from "./events/bus";
import { EventQueues, type EventQueueStore } from "./events/queues";
import { RedisEventQueues } from "./events/redisQueues";
import { createRateLimits } from "./http/rateLimit";
import { createLogger } from "./logger";
import { createDatabaseHealth } from "./services/health/database";
import { loadIntegrationsForApp } from "./webhooks/startup";
import { emptyRegistry } from "./webhooks/registry";
import { createWebhookOps } from "./services/webhooks/ops";
import { MessageSender } from "./services/messages/groupCommit";
import { scheduleSoftDeactivation, UserActivity } from "./services/users/softDeactivation";

/** Brings the schema up to date and closes the connection (a cluster's primary, before forking). */
export async function migrateDatabase(config: Config): Promise<void> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const db = createDb(config.databaseUrl, config.dataDir);
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
}

export async function createDeps(
  config: Config,
  options: {
    migrate?: boolean;
    logDestination?: DestinationStream;
    /**
     * false: no plugins (operator commands that never handle a webhook start faster); a list of
     * names: only those plugin folders (a test server loads the plugins its test posts to).
     */
    integrations?: boolean | readonly string[];
    /**
     * false: load the plugins without the checks that only find authoring mistakes (loader.ts's
     * LoadOptions). For test servers, whose plugins the pure test tier loads with every check.
     */
    pluginChecks?: boolean;
  } = {},
): Promise<AppDeps & { close(): Promise<void> }> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.mkdirSync(config.uploadsDir, { recursive: true });
  const logger = createLogger(config.logLevel, options.logDestination);
  // Plugins first: a broken integration stops start-up before anything is opened.
  const integrations =
    options.integrations === false
      ? emptyRegistry()
      : await loadIntegrationsForApp(config, Array.isArray(options.integrations) ? options.integrations : undefined, {
          checks: options.pluginChecks !== false,
        });
  const db = createDb(config.databaseUrl, config.dataDir, {
    ...WAL_CHECKPOINTER_DEFAULTS,
    onFailure: (reason) =>
      logger.error({ reason }, "SQLite checkpoint thread failed; SQLite checkpoints inside commits again"),
  });
  if (options.migrate !== false) await migrateLatest(db);
  let redis: Redis | undefined;
  let redisHealth: ReturnType<typeof redisHealthLog> | undefined;
  if (config.redisUrl) {
    // Rate limits fall back to per-process "insurance" limiters while this client is disconnected.
    redis = newRedisClient(config.redisUrl, REDIS_OPTIONS);
    redisHealth = redisHealthLog(logger, "rate limits are per process until it returns");
    redisHealth.watch(redis);
    await untilReadyOrTimeout(redis.connect().catch((err) => redisHealth?.failed(err)));
  }
  // With Redis, queues live there (any process serves any queue); the rate limits' client carries them.
  const maxEvents = config.eventQueueMaxEvents;
  let queues: EventQueueStore;
  let bus;
  if (config.redisUrl && redis) {
    const shared = new RedisEventQueues({
      redis,
      prefix: config.redisPrefix,
      heartbeatSeconds: config.heartbeatSeconds,
      maxEvents,
      maxPerUser: config.eventQueueMaxPerUser,
      logger,
    });
    queues = shared;
    bus = await createRedisBus(config.redisUrl, config.redisPrefix, shared, logger);
  } else {
    queues = new EventQueues(config.heartbeatSeconds, { maxEvents, maxPerUser: config.eventQueueMaxPerUser });
    bus = createMemoryBus(queues, logger);
  }
  // Writers' cache invalidations reach the other processes as broadcasts (db/ knows nothing of the bus).
  const caches = cachesOf(db);
  caches.remote = (tags) => bus.broadcast({ kind: CACHE_INVALIDATION, tags });
  bus.onBroadcast((message) => {
    if (message.kind === CACHE_INVALIDATION) caches.invalidateLocal(message.tags as CacheTag[]);
    if (message.kind === RESYNC) caches.clear();
  });
  if (config.redisUrl) caches.ttlMs = SHARED_TTL_MS;
  const rateLimits = createRateLimits(config.rateLimit, redis, config.redisPrefix);
  const databaseHealth = createDatabaseHealth(db, logger);
  const messageSender = new MessageSender({ db, bus, logger });
  const activity = new UserActivity({ db, logger });
  const base = { config, db, logger, bus, messageSender, activity, queues, rateLimits, integrations, databaseHealth };
  const webhookOps = createWebhookOps(base);
  const stopSoftDeactivation = scheduleSoftDeactivation({ db, logger, config: config.softDeactivation });
  return {
    ...base,
    webhookOps,
    async close() {
      stopSoftDeactivation();
      await webhookOps.close();
      await messageSender.close(); // accepted sends are committed and published before the bus and db close
      databaseHealth.close();
      queues.close();
      await bus.close();
      redisHealth?.stop();
      redis?.disconnect();
      await db.destroy();
    },
  };
}
