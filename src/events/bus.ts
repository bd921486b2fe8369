// Carries notifications to the event queues (the queue store writes them: in this process's memory,
// or in Redis where every process reads them) and broadcasts between server processes over Redis
// pub/sub when REDIS_URL is set. The bus's subscriber connection also hears the Redis queue
// store's "queue X has new events" wake-ups. During a Redis outage, queues registered meanwhile
// live in their process (redisQueues.ts), a warning is logged once, and ioredis reconnects (and
// resubscribes) by itself when Redis returns.
import crypto from "node:crypto";
import type Redis from "ioredis";
import type { RedisOptions } from "ioredis";
import type { Logger } from "pino";
import type { EventQueueStore } from "./queues";

/** A queue store that hears about new events in queues over Redis pub/sub. */
export interface WakeableStore extends EventQueueStore {
  readonly wakeChannel: string;
  wake(payload: string): void;
  wakeAll(): void;
}

export interface Notification {
  realmId: number;
  userIds: number[];
  event: Record<string, unknown>;
  /** Per-recipient fields merged over `event` (e.g. message flags). */
  perUser?: Record<number, Record<string, unknown>>;
  /** Only queues that declared this client capability at /register receive it. */
  capability?: string;
  /** Only queues that did not declare this capability receive it (the older shape of an event). */
  withoutCapability?: string;
}

/** Delivered locally (never over Redis) after a reconnect: broadcasts may have been missed meanwhile. */
export const RESYNC = "bus-resync";

/** A message for the server processes themselves (e.g. "realm 3's webhook overrides changed"). */
export interface Broadcast {
  kind: string;
  [field: string]: unknown;
}

export interface EventBus {
  publish(notifications: Notification[]): Promise<void>;
  /** Delivers `message` to every process's broadcast handlers, this one's included. */
  broadcast(message: Broadcast): Promise<void>;
  onBroadcast(handler: (message: Broadcast) => void): void;
  close(): Promise<void>;
}

/** Calls every handler; one handler's failure does not stop the others. */
function broadcaster(logger?: Logger) {
  const handlers: ((message: Broadcast) => void)[] = [];
  return {
    add: (handler: (message: Broadcast) => void) => void handlers.push(handler),
    deliver(message: Broadcast) {
      for (const handler of handlers) {
        try {
          handler(message);
        } catch (err) {
          logger?.error({ err, kind: message.kind }, "broadcast handler failed");
        }
      }
    },
  };
}

export function createMemoryBus(queues: EventQueueStore, logger?: Logger): EventBus {
  const handlers = broadcaster(logger);
  return {
    async publish(notifications) {
      await queues.deliverAll(notifications);
    },
    async broadcast(message) {
      handlers.deliver(message);
    },
    onBroadcast: handlers.add,
    async close() {},
  };
}

/** Connection options for every Redis client: fail fast while disconnected, reconnect forever. */
export const REDIS_OPTIONS = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 5_000,
  commandTimeout: 2_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
} as const;

/** A Redis client; ioredis is loaded with the first one, so a process without REDIS_URL never loads it. */
export function newRedisClient(url: string, options: RedisOptions): Redis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
  const RedisClient = require("ioredis") as typeof Redis;
  return new RedisClient(url, options);
}

/** How long start-up waits for Redis before going on without it (it connects later by itself). */
const START_WAIT_MS = 5_000;

/** Resolves when `ready` does, or after the start-up wait, whichever comes first (never rejects). */
export function untilReadyOrTimeout(ready: Promise<unknown>, ms = START_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([
    ready.then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]).finally(() => clearTimeout(timer));
}

/** Logs one warning when Redis becomes unreachable and one line when it is back. */
export function redisHealthLog(logger: Logger, what: string) {
  let down = false;
  let stopped = false;
  return {
    /** Watches a client: a lost connection or a failed (re)connect is an outage; "ready" ends it. */
    watch(client: Redis) {
      client.on("error", (err) => this.failed(err));
      client.on("close", () => this.failed(new Error("connection closed")));
      client.on("ready", () => this.ok());
      return client;
    },
    /** Closing on purpose is not an outage. */
    stop() {
      stopped = true;
    },
    failed(err: unknown) {
      if (down || stopped) return;
      down = true;
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, `Redis unreachable: ${what}`);
    },
    ok() {
      if (!down) return;
      down = false;
      logger.info(`Redis is back: ${what} restored`);
    },
  };
}

export async function createRedisBus(
  redisUrl: string,
  prefix: string,
  queues: WakeableStore,
  logger: Logger,
): Promise<EventBus> {
  const channels = [`${prefix}:broadcasts`, queues.wakeChannel];
  const BROADCASTS = `${prefix}:broadcasts`;
  const handlers = broadcaster(logger);
  const origin = crypto.randomUUID();
  const health = redisHealthLog(logger, "events reach only this process's queues until it returns");
  const pub = newRedisClient(redisUrl, REDIS_OPTIONS);
  const sub = newRedisClient(redisUrl, { ...REDIS_OPTIONS, enableOfflineQueue: true });
  health.watch(pub);
  health.watch(sub);
  sub.on("ready", () => {
    // Subscribed again on every (re)connect: a first connect that failed (a slow start) never
    // subscribed, and ioredis only re-subscribes channels it had. Messages sent meanwhile are lost:
    // this process's handlers hear RESYNC (caches start over), and waiting long-polls look again.
    sub
      .subscribe(...channels)
      .then(() => {
        handlers.deliver({ kind: RESYNC });
        queues.wakeAll();
      })
      .catch((err) => health.failed(err));
  });
  sub.on("message", (channel: string, payload: string) => {
    try {
      if (channel === BROADCASTS) {
        const { origin: from, message } = JSON.parse(payload) as { origin: string; message: Broadcast };
        if (from !== origin) handlers.deliver(message);
        return;
      }
      if (channel === queues.wakeChannel) queues.wake(payload);
    } catch (err) {
      logger.error({ err }, "bad event payload on redis");
    }
  });
  // Waited for a bounded time: a server whose Redis is down at start still starts (ioredis keeps
  // reconnecting, and resubscribes by itself once it is up).
  const pubReady = pub.connect().catch((err) => health.failed(err));
  const subscribed = sub
    .connect()
    .then(() => sub.subscribe(...channels))
    .catch((err) => health.failed(err));
  await untilReadyOrTimeout(Promise.all([pubReady, subscribed]));
  return {
    async publish(notifications) {
      if (notifications.length === 0) return;
      await queues.deliverAll(notifications);
    },
    async broadcast(message) {
      handlers.deliver(message);
      if (pub.status !== "ready") return;
      await pub.publish(BROADCASTS, JSON.stringify({ origin, message })).catch((err) => health.failed(err));
    },
    onBroadcast: handlers.add,
    async close() {
      health.stop();
      sub.disconnect();
      pub.disconnect();
    },
  };
}
