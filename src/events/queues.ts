// Per-client event queues: register, long-poll, expire when idle. `EventQueueStore` is what the
// routes and the bus use; `EventQueues` holds the queues in this process's memory (no REDIS_URL),
// `RedisEventQueues` (redisQueues.ts) holds them in Redis so any process can serve any queue.
import crypto from "node:crypto";
import { ApiError } from "../errors";
import type { Notification } from "./bus";
import { eventMatchesNarrow, type EventNarrowTerm } from "./narrow";

type Awaitable<T> = T | Promise<T>;

export interface EventQueueStore {
  register(options: QueueOptions): Awaitable<{ queueId: string; lastEventId: number }>;
  /** Acknowledge events up to lastEventId, then return what is pending, waiting up to the heartbeat. */
  getEvents(
    queueId: string,
    userId: number,
    lastEventId: number | undefined,
    dontBlock: boolean,
    aborted: () => boolean,
  ): Promise<QueuedEvent[]>;
  delete(queueId: string, userId: number): Awaitable<void>;
  /** Appends each notification's event to the queues of its recipients that asked for it. */
  deliverAll(notifications: Notification[]): Awaitable<void>;
  /** Wakes this process's long-polls (each answers with what is pending, or a heartbeat). */
  close(): void;
}

/** Events a queue may hold unacknowledged; past this the queue is dropped (the client re-registers). */
export const DEFAULT_MAX_EVENTS_PER_QUEUE = 10_000;
/**
 * Queues one user may hold (EVENT_QUEUE_MAX_PER_USER). Registering one more drops that user's least
 * recently polled queue: its next poll gets BAD_EVENT_QUEUE_ID and its client registers again, as
 * after any lost queue. Without it, one key could hold thousands of queues (and their memory).
 */
export const DEFAULT_MAX_QUEUES_PER_USER = 50;

export const badQueue = (queueId: string) =>
  new ApiError("BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${queueId}`, { queue_id: queueId });

export interface QueueOptions {
  userId: number;
  realmId: number;
  eventTypes: string[] | null;
  capabilities: Record<string, boolean>;
  applyMarkdown: boolean;
  idleTimeoutSeconds: number;
  allPublicStreams?: boolean;
  /** POST /register's `narrow`: only matching message events reach the queue. */
  narrow?: EventNarrowTerm[];
}

export interface QueuedEvent {
  id: number;
  [key: string]: unknown;
}

interface Queue extends QueueOptions {
  id: string;
  events: QueuedEvent[];
  nextEventId: number;
  lastAccess: number;
  /** Order of last use (register or poll), for the per-user cap: a counter, so uses never tie. */
  lastUse: number;
  waiter?: () => void;
}

export class EventQueues implements EventQueueStore {
  private readonly queues = new Map<string, Queue>();
  private readonly byUser = new Map<number, Set<Queue>>();
  private readonly gcTimer: NodeJS.Timeout;
  private readonly maxEvents: number;
  private readonly maxPerUser: number;
  private readonly idPrefix: string;
  private closed = false;
  private uses = 0;

  constructor(
    private readonly heartbeatSeconds: number,
    options: { maxEvents?: number; maxPerUser?: number; idPrefix?: string } = {},
  ) {
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS_PER_QUEUE;
    this.maxPerUser = options.maxPerUser ?? DEFAULT_MAX_QUEUES_PER_USER;
    this.idPrefix = options.idPrefix ?? "";
    this.gcTimer = setInterval(() => this.expireIdle(), 30_000);
    this.gcTimer.unref();
  }

  register(options: QueueOptions): { queueId: string; lastEventId: number } {
    const queue: Queue = {
      ...options,
      id: `${this.idPrefix}${Date.now()}:${crypto.randomUUID()}`,
      events: [],
      nextEventId: 0,
      lastAccess: Date.now(),
      lastUse: ++this.uses,
    };
    if (!this.byUser.has(options.userId)) this.byUser.set(options.userId, new Set());
    const own = this.byUser.get(options.userId)!;
    while (own.size >= this.maxPerUser) this.drop(leastRecentlyUsed(own));
    this.queues.set(queue.id, queue);
    own.add(queue);
    return { queueId: queue.id, lastEventId: -1 };
  }

  private find(queueId: string, userId: number): Queue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.userId !== userId) throw badQueue(queueId);
    return queue;
  }

  delete(queueId: string, userId: number): void {
    const queue = this.find(queueId, userId);
    this.drop(queue);
  }

  async getEvents(
    queueId: string,
    userId: number,
    lastEventId: number | undefined,
    dontBlock: boolean,
    aborted: () => boolean,
  ): Promise<QueuedEvent[]> {
    const queue = this.find(queueId, userId);
    queue.lastAccess = Date.now();
    queue.lastUse = ++this.uses;
    if (lastEventId !== undefined) queue.events = queue.events.filter((e) => e.id > lastEventId);
    if (queue.events.length > 0 || dontBlock) return queue.events;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.heartbeatSeconds * 1000);
      function done() {
        clearTimeout(timer);
        if (queue.waiter === done) queue.waiter = undefined;
        resolve();
      }
      queue.waiter?.();
      queue.waiter = done;
    });
    queue.lastAccess = Date.now();
    if (aborted()) return [];
    // Dropped while waiting (deleted, too far behind, or evicted at the per-user cap): say so now.
    if (!this.closed && !this.queues.has(queue.id)) throw badQueue(queue.id);
    if (queue.events.length > 0) return queue.events;
    const heartbeat = { type: "heartbeat", id: queue.nextEventId++ };
    queue.events.push(heartbeat);
    return queue.events;
  }

  deliverAll(notifications: Notification[]): void {
    for (const n of notifications) this.deliver(n);
  }

  deliver(n: Notification): void {
    for (const userId of n.userIds) {
      for (const queue of this.byUser.get(userId) ?? []) {
        const event = eventFor(queue, n, userId);
        if (!event) continue;
        if (queue.events.length >= this.maxEvents) {
          // A client this far behind re-registers (BAD_EVENT_QUEUE_ID) rather than silently missing events.
          this.drop(queue);
          continue;
        }
        queue.events.push({ ...event, id: queue.nextEventId++ });
        queue.waiter?.();
      }
    }
  }

  queueCount(): number {
    return this.queues.size;
  }

  private drop(queue: Queue): void {
    this.queues.delete(queue.id);
    this.byUser.get(queue.userId)?.delete(queue);
    queue.waiter?.();
  }

  /** Drops queues nobody has polled for their idle timeout (runs every 30 s). */
  expireIdle(): void {
    const now = Date.now();
    for (const queue of this.queues.values()) {
      if (!queue.waiter && now - queue.lastAccess > queue.idleTimeoutSeconds * 1000) this.drop(queue);
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.gcTimer);
    for (const queue of [...this.queues.values()]) this.drop(queue);
  }
}

/** The queue registered or polled longest ago (as the Redis store decides, by the start of its last poll). */
function leastRecentlyUsed(queues: Set<Queue>): Queue {
  let oldest: Queue | undefined;
  for (const queue of queues) if (!oldest || queue.lastUse < oldest.lastUse) oldest = queue;
  return oldest!;
}

/** The event `n` puts in `queue` for `userId` (without its id), or undefined if the queue did not ask for it. */
export function eventFor(queue: QueueOptions, n: Notification, userId: number): Record<string, unknown> | undefined {
  if (queue.realmId !== n.realmId) return undefined;
  const type = n.event.type as string;
  if (queue.eventTypes && !queue.eventTypes.includes(type)) return undefined;
  // The legacy `muted_topics` event is not sent to queues that asked for its successor by name.
  if (type === "muted_topics" && queue.eventTypes?.includes("user_topic")) return undefined;
  if (n.capability && !queue.capabilities[n.capability]) return undefined;
  if (n.withoutCapability && queue.capabilities[n.withoutCapability]) return undefined;
  const event = { ...n.event, ...(n.perUser?.[userId] ?? {}) };
  if (type === "message" && queue.narrow && queue.narrow.length > 0) {
    const flags = (event.flags as string[] | undefined) ?? [];
    if (!eventMatchesNarrow(queue.narrow, event.message as Record<string, never>, flags, userId)) return undefined;
  }
  if (type === "message") shapeMessageEvent(event, queue);
  return event;
}

/** Message events carry both renderings; each queue gets the one it asked for at /register. */
function shapeMessageEvent(event: Record<string, unknown>, queue: QueueOptions): void {
  const message = { ...(event.message as Record<string, unknown>) };
  const raw = message.raw_content;
  delete message.raw_content;
  if (!queue.applyMarkdown && typeof raw === "string") {
    message.content = raw;
    message.content_type = "text/x-markdown";
  }
  event.message = message;
}
