// Carries notifications to the event queues of every server process: directly in memory, or
// over Redis pub/sub when REDIS_URL is set (each process delivers to the queues it holds).
import Redis from "ioredis";
import type { Logger } from "pino";
import type { EventQueues } from "./queues";

export interface Notification {
  realmId: number;
  userIds: number[];
  event: Record<string, unknown>;
  /** Per-recipient fields merged over `event` (e.g. message flags). */
  perUser?: Record<number, Record<string, unknown>>;
  /** Only queues that declared this client capability at /register receive it. */
  capability?: string;
}

export interface EventBus {
  publish(notifications: Notification[]): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryBus(queues: EventQueues): EventBus {
  return {
    async publish(notifications) {
      for (const n of notifications) queues.deliver(n);
    },
    async close() {},
  };
}

export async function createRedisBus(redisUrl: string, prefix: string, queues: EventQueues, logger: Logger): Promise<EventBus> {
  const CHANNEL = `${prefix}:events`;
  const pub = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const sub = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await pub.connect();
  await sub.connect();
  await sub.subscribe(CHANNEL);
  sub.on("message", (_channel: string, payload: string) => {
    try {
      for (const n of JSON.parse(payload) as Notification[]) queues.deliver(n);
    } catch (err) {
      logger.error({ err }, "bad event payload on redis");
    }
  });
  return {
    async publish(notifications) {
      if (notifications.length > 0) await pub.publish(CHANNEL, JSON.stringify(notifications));
    },
    async close() {
      sub.disconnect();
      pub.disconnect();
    },
  };
}
