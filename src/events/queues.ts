// Per-client event queues held in this process: register, long-poll, expire when idle.
import crypto from "node:crypto";
import { ApiError } from "../errors";
import type { Notification } from "./bus";

export interface QueueOptions {
  userId: number;
  realmId: number;
  eventTypes: string[] | null;
  capabilities: Record<string, boolean>;
  applyMarkdown: boolean;
  idleTimeoutSeconds: number;
  allPublicStreams?: boolean;
}

interface QueuedEvent {
  id: number;
  [key: string]: unknown;
}

interface Queue extends QueueOptions {
  id: string;
  events: QueuedEvent[];
  nextEventId: number;
  lastAccess: number;
  waiter?: () => void;
}

export class EventQueues {
  private readonly queues = new Map<string, Queue>();
  private readonly byUser = new Map<number, Set<Queue>>();
  private readonly gcTimer: NodeJS.Timeout;

  constructor(private readonly heartbeatSeconds: number) {
    this.gcTimer = setInterval(() => this.expireIdle(), 30_000);
    this.gcTimer.unref();
  }

  register(options: QueueOptions): { queueId: string; lastEventId: number } {
    const queue: Queue = {
      ...options,
      id: `${Date.now()}:${crypto.randomUUID()}`,
      events: [],
      nextEventId: 0,
      lastAccess: Date.now(),
    };
    this.queues.set(queue.id, queue);
    if (!this.byUser.has(options.userId)) this.byUser.set(options.userId, new Set());
    this.byUser.get(options.userId)!.add(queue);
    return { queueId: queue.id, lastEventId: -1 };
  }

  private find(queueId: string, userId: number): Queue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.userId !== userId) {
      throw new ApiError("BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${queueId}`, { queue_id: queueId });
    }
    return queue;
  }

  delete(queueId: string, userId: number): void {
    const queue = this.find(queueId, userId);
    this.drop(queue);
  }

  /** Acknowledge events up to lastEventId, then return what is pending, waiting up to the heartbeat. */
  async getEvents(
    queueId: string,
    userId: number,
    lastEventId: number | undefined,
    dontBlock: boolean,
    aborted: () => boolean,
  ): Promise<QueuedEvent[]> {
    const queue = this.find(queueId, userId);
    queue.lastAccess = Date.now();
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
    if (queue.events.length > 0) return queue.events;
    const heartbeat = { type: "heartbeat", id: queue.nextEventId++ };
    queue.events.push(heartbeat);
    return queue.events;
  }

  deliver(n: Notification): void {
    for (const userId of n.userIds) {
      for (const queue of this.byUser.get(userId) ?? []) {
        if (queue.realmId !== n.realmId) continue;
        const type = n.event.type as string;
        if (queue.eventTypes && !queue.eventTypes.includes(type)) continue;
        if (n.capability && !queue.capabilities[n.capability]) continue;
        const event: QueuedEvent = { ...n.event, ...(n.perUser?.[userId] ?? {}), id: queue.nextEventId++ };
        if (type === "message") shapeMessageEvent(event, queue);
        queue.events.push(event);
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
    clearInterval(this.gcTimer);
    for (const queue of [...this.queues.values()]) this.drop(queue);
  }
}

/** Message events carry both renderings; each queue gets the one it asked for at /register. */
function shapeMessageEvent(event: QueuedEvent, queue: Queue): void {
  const message = { ...(event.message as Record<string, unknown>) };
  const raw = message.raw_content;
  delete message.raw_content;
  if (!queue.applyMarkdown && typeof raw === "string") {
    message.content = raw;
    message.content_type = "text/x-markdown";
  }
  event.message = message;
}
