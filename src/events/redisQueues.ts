// Event queues in Redis (REDIS_URL set): any process answers any queue's GET /events, and a
// restarted process loses no queue and no event.
//
// Layout, under the deployment's prefix P:
//   P:eq:<id>        hash: the queue's owner, realm, event types, capabilities, Markdown choice,
//                    idle timeout, next event id, last access, epoch. Expires (PEXPIRE) after its
//                    idle timeout plus one long-poll without a poll: Redis itself garbage-collects.
//   P:eq:<id>:ev     a Stream of the unacknowledged events. Why a Stream and not a list: an entry's
//                    stream id carries the event id (`<event id>-1`), so acknowledging is one
//                    XTRIM MINID, reading is one XRANGE, and the length (the cap) is XLEN.
//   P:equ:<user>     set of the user's queue ids (delivery looks queues up by recipient);
//                    dead ids are pruned on register and on delivery.
//   P:eq-epoch       bumped when a process failed to write events (Redis unreachable): every queue
//                    registered before is then answered BAD_EVENT_QUEUE_ID, so its client
//                    re-registers and re-fetches state instead of silently missing those events.
//   P:eq-wake        pub/sub channel: "these queues have new events". One subscriber connection
//                    per process (the bus's) wakes its waiting long-polls, which then XRANGE. A
//                    blocking XREAD would hold a Redis connection per waiting client.
// Every multi-step change is one Lua script, so concurrent processes see each queue consistently.
//
// While Redis is unreachable, /register falls back to a queue in this process's memory (an id
// starting with "local:"), which only this process's events reach, as before queues were shared.
import crypto from "node:crypto";
import type Redis from "ioredis";
import type { Logger } from "pino";
import { ApiError } from "../errors";
import type { Notification } from "./bus";
import {
  badQueue,
  DEFAULT_MAX_EVENTS_PER_QUEUE,
  DEFAULT_MAX_QUEUES_PER_USER,
  eventFor,
  EventQueues,
  type EventQueueStore,
  type QueuedEvent,
  type QueueOptions,
} from "./queues";
import type { EventNarrowTerm } from "./narrow";

const LOCAL_PREFIX = "local:";

/**
 * When a queue was last registered or polled, for the per-user cap: Redis's own clock in
 * microseconds (scripts run one at a time, so two uses never tie as milliseconds from two
 * processes could).
 */
const USED_NOW = `(function() local t = redis.call('TIME') return t[1] .. string.format('%06d', tonumber(t[2])) end)()`;

/**
 * KEYS: meta, user set, epoch. ARGV: queue id, meta fields…, ttl ms, meta key prefix, queues per user, narrow.
 * → the ids of the user's queues dropped to stay within the cap (least recently polled first).
 */
const REGISTER = `
local live = {}
for _, qid in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local used = redis.call('HGET', ARGV[10] .. qid, 'used')
  if used then table.insert(live, {qid, tonumber(used)}) else redis.call('SREM', KEYS[2], qid) end
end
local dropped = {}
local excess = #live - tonumber(ARGV[11]) + 1
if excess > 0 then
  table.sort(live, function(a, b) return a[2] < b[2] end)
  for i = 1, excess do
    redis.call('DEL', ARGV[10] .. live[i][1], ARGV[10] .. live[i][1] .. ':ev')
    redis.call('SREM', KEYS[2], live[i][1])
    table.insert(dropped, live[i][1])
  end
end
local epoch = redis.call('GET', KEYS[3]) or '0'
redis.call('HSET', KEYS[1], 'user', ARGV[2], 'realm', ARGV[3], 'types', ARGV[4], 'caps', ARGV[5],
  'md', ARGV[6], 'idle', ARGV[7], 'next', 0, 'access', ARGV[8], 'epoch', epoch, 'used', ${USED_NOW},
  'narrow', ARGV[12])
redis.call('PEXPIRE', KEYS[1], ARGV[9])
redis.call('SADD', KEYS[2], ARGV[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[9]) then redis.call('PEXPIRE', KEYS[2], ARGV[9]) end
return dropped
`;

/** KEYS: meta, stream, user set. ARGV: queue id, event JSON, max events. → event id, -1 gone, -2 full. */
const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SREM', KEYS[3], ARGV[1])
  redis.call('DEL', KEYS[2])
  return -1
end
if redis.call('XLEN', KEYS[2]) >= tonumber(ARGV[3]) then
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[1])
  return -2
end
local id = redis.call('HINCRBY', KEYS[1], 'next', 1) - 1
redis.call('XADD', KEYS[2], id .. '-1', 'e', ARGV[2])
redis.call('PEXPIRE', KEYS[2], redis.call('PTTL', KEYS[1]))
return id
`;

/**
 * KEYS: meta, stream, user set, epoch. ARGV: user id, acknowledged id or '', now, long-poll ms.
 * → the pending entries, or nil for an unknown, another user's or a stale (old epoch) queue.
 */
const READ = `
local meta = redis.call('HMGET', KEYS[1], 'user', 'epoch', 'idle')
if not meta[1] or meta[1] ~= ARGV[1] then return false end
if tonumber(meta[2]) < tonumber(redis.call('GET', KEYS[4]) or '0') then
  redis.call('DEL', KEYS[1], KEYS[2])
  return false
end
local ttl = tonumber(meta[3]) * 1000 + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'access', ARGV[3], 'used', ${USED_NOW})
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
if redis.call('PTTL', KEYS[3]) < ttl then redis.call('PEXPIRE', KEYS[3], ttl) end
if ARGV[2] ~= '' then redis.call('XTRIM', KEYS[2], 'MINID', (tonumber(ARGV[2]) + 1) .. '-0') end
return redis.call('XRANGE', KEYS[2], '-', '+')
`;

/** KEYS: meta, stream, user set. ARGV: user id, queue id. → 1 deleted, 0 not this user's queue. */
const DELETE = `
if redis.call('HGET', KEYS[1], 'user') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[2])
return 1
`;

type Entries = [string, string[]][];

interface Scripts {
  sbQueueRegister(...args: (string | number)[]): Promise<string[]>;
  sbQueueAppend(...args: (string | number)[]): Promise<number>;
  sbQueueRead(...args: (string | number)[]): Promise<Entries | null>;
  sbQueueDelete(...args: (string | number)[]): Promise<number>;
}

/** A queue's fixed settings, cached per process (they never change after /register). */
type Meta = QueueOptions;
const META_CACHE_MAX = 50_000;

export interface RedisQueueOptions {
  redis: Redis;
  prefix: string;
  heartbeatSeconds: number;
  maxEvents?: number;
  maxPerUser?: number;
  logger: Logger;
}

export class RedisEventQueues implements EventQueueStore {
  readonly wakeChannel: string;
  private readonly redis: Redis & Scripts;
  private readonly prefix: string;
  private readonly heartbeatSeconds: number;
  private readonly maxEvents: number;
  private readonly maxPerUser: number;
  private readonly logger: Logger;
  /** Queues registered while Redis was unreachable. */
  private readonly local: EventQueues;
  private readonly waiters = new Map<string, () => void>();
  private readonly metas = new Map<string, Meta>();
  /** Deliveries waiting their turn: one batch at a time keeps this process's events in order. */
  private pending: { notifications: Notification[]; done: () => void }[] = [];
  private draining = false;
  /** Set when events could not be written; the epoch is bumped once Redis answers again. */
  private lost = false;
  private closed = false;

  constructor(options: RedisQueueOptions) {
    this.prefix = options.prefix;
    this.heartbeatSeconds = options.heartbeatSeconds;
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS_PER_QUEUE;
    this.maxPerUser = options.maxPerUser ?? DEFAULT_MAX_QUEUES_PER_USER;
    this.logger = options.logger;
    this.wakeChannel = `${this.prefix}:eq-wake`;
    this.local = new EventQueues(options.heartbeatSeconds, {
      maxEvents: this.maxEvents,
      maxPerUser: this.maxPerUser,
      idPrefix: LOCAL_PREFIX,
    });
    const redis = options.redis;
    redis.defineCommand("sbQueueRegister", { numberOfKeys: 3, lua: REGISTER });
    redis.defineCommand("sbQueueAppend", { numberOfKeys: 3, lua: APPEND });
    redis.defineCommand("sbQueueRead", { numberOfKeys: 4, lua: READ });
    redis.defineCommand("sbQueueDelete", { numberOfKeys: 3, lua: DELETE });
    this.redis = redis as Redis & Scripts;
    redis.on("ready", () => this.bumpEpochIfLost());
  }

  private metaKey = (queueId: string) => `${this.prefix}:eq:${queueId}`;
  private streamKey = (queueId: string) => `${this.prefix}:eq:${queueId}:ev`;
  private userKey = (userId: number) => `${this.prefix}:equ:${userId}`;
  private get epochKey() {
    return `${this.prefix}:eq-epoch`;
  }
  private get available() {
    return this.redis.status === "ready";
  }

  async register(options: QueueOptions): Promise<{ queueId: string; lastEventId: number }> {
    if (!this.available) return this.local.register(options);
    const queueId = `${Date.now()}:${crypto.randomUUID()}`;
    const ttlMs = (options.idleTimeoutSeconds + this.heartbeatSeconds) * 1000;
    let dropped: string[];
    try {
      dropped = await this.redis.sbQueueRegister(
        this.metaKey(queueId),
        this.userKey(options.userId),
        this.epochKey,
        queueId,
        options.userId,
        options.realmId,
        options.eventTypes ? JSON.stringify(options.eventTypes) : "",
        JSON.stringify(options.capabilities),
        options.applyMarkdown ? 1 : 0,
        options.idleTimeoutSeconds,
        Date.now(),
        ttlMs,
        `${this.prefix}:eq:`,
        this.maxPerUser,
        options.narrow && options.narrow.length > 0 ? JSON.stringify(options.narrow) : "",
      );
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, "queue registration fell back to this process");
      return this.local.register(options);
    }
    this.remember(queueId, options);
    if (dropped.length > 0) {
      // A poll waiting on a dropped queue (on any process) answers BAD_EVENT_QUEUE_ID at once.
      for (const id of dropped) this.metas.delete(id);
      await this.redis.publish(this.wakeChannel, JSON.stringify(dropped)).catch(() => undefined);
    }
    return { queueId, lastEventId: -1 };
  }

  async getEvents(
    queueId: string,
    userId: number,
    lastEventId: number | undefined,
    dontBlock: boolean,
    aborted: () => boolean,
  ): Promise<QueuedEvent[]> {
    if (queueId.startsWith(LOCAL_PREFIX)) {
      return this.local.getEvents(queueId, userId, lastEventId, dontBlock, aborted);
    }
    // The waiter is in place before the read: an event appended after the read publishes its
    // wake-up after the append, so it reaches this waiter and is not missed.
    let wake = () => {};
    const woken = new Promise<void>((resolve) => (wake = resolve));
    if (!dontBlock) {
      this.waiters.get(queueId)?.(); // a newer poll of the same queue answers the older one
      this.waiters.set(queueId, wake);
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const events = await this.read(queueId, userId, lastEventId);
      if (events.length > 0 || dontBlock) return events;
      if (!this.closed) {
        await Promise.race([
          woken,
          new Promise((resolve) => (timer = setTimeout(resolve, this.heartbeatSeconds * 1000))),
        ]);
      }
    } finally {
      clearTimeout(timer);
      if (this.waiters.get(queueId) === wake) this.waiters.delete(queueId);
    }
    if (aborted()) return [];
    const events = await this.read(queueId, userId, undefined);
    if (events.length > 0) return events;
    // The heartbeat is a queued event like any other (its id is acknowledged by the next poll).
    const id = await this.command(() =>
      this.redis.sbQueueAppend(
        this.metaKey(queueId),
        this.streamKey(queueId),
        this.userKey(userId),
        queueId,
        JSON.stringify({ type: "heartbeat" }),
        this.maxEvents,
      ),
    );
    if (id < 0) throw badQueue(queueId);
    return this.read(queueId, userId, undefined);
  }

  async delete(queueId: string, userId: number): Promise<void> {
    if (queueId.startsWith(LOCAL_PREFIX)) return this.local.delete(queueId, userId);
    const deleted = await this.command(() =>
      this.redis.sbQueueDelete(this.metaKey(queueId), this.streamKey(queueId), this.userKey(userId), userId, queueId),
    );
    if (!deleted) throw badQueue(queueId);
    this.metas.delete(queueId);
    // A poll waiting on the deleted queue (on any process) answers at once.
    await this.redis.publish(this.wakeChannel, JSON.stringify([queueId])).catch(() => undefined);
  }

  deliverAll(notifications: Notification[]): Promise<void> {
    this.local.deliverAll(notifications);
    if (notifications.length === 0) return Promise.resolve();
    return new Promise((done) => {
      this.pending.push({ notifications, done });
      if (!this.draining) void this.drain();
    });
  }

  /** Called with each message on the wake channel: a JSON list of queue ids. */
  wake(payload: string): void {
    let ids: unknown;
    try {
      ids = JSON.parse(payload);
    } catch {
      return;
    }
    if (!Array.isArray(ids)) return;
    for (const id of ids) if (typeof id === "string") this.waiters.get(id)?.();
  }

  /** After the subscriber reconnects, wake-ups may have been missed: every waiting poll looks again. */
  wakeAll(): void {
    for (const wake of [...this.waiters.values()]) wake();
  }

  /** Whether a long-poll of this queue is waiting in this process. */
  isWaiting(queueId: string): boolean {
    return this.waiters.has(queueId);
  }

  close(): void {
    this.closed = true;
    this.wakeAll();
    this.local.close();
  }

  private async read(queueId: string, userId: number, lastEventId: number | undefined): Promise<QueuedEvent[]> {
    const entries = await this.command(() =>
      this.redis.sbQueueRead(
        this.metaKey(queueId),
        this.streamKey(queueId),
        this.userKey(userId),
        this.epochKey,
        userId,
        lastEventId === undefined ? "" : lastEventId,
        Date.now(),
        this.heartbeatSeconds * 1000,
      ),
    );
    if (!entries) throw badQueue(queueId);
    return entries.map(([streamId, fields]) => ({
      ...(JSON.parse(fields[1]) as Record<string, unknown>),
      id: Number(streamId.slice(0, streamId.indexOf("-"))),
    }));
  }

  /** Redis failures while serving a queue are a 503 (clients retry), not a 500. */
  private async command<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError(
        "SERVICE_UNAVAILABLE",
        "The event queue store is unreachable; try again shortly",
        { "retry-after": 5 },
        { headers: { "Retry-After": "5" } },
      );
    }
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await this.deliverBatch(batch.flatMap((b) => b.notifications));
      } catch (err) {
        if (!this.lost) {
          this.logger.warn({ err: (err as Error).message }, "event delivery to the shared queues failed");
        }
        this.lost = true;
      }
      for (const b of batch) b.done();
    }
    this.draining = false;
  }

  private async deliverBatch(notifications: Notification[]): Promise<void> {
    if (!this.available) throw new Error("Redis is not connected");
    const userIds = [...new Set(notifications.flatMap((n) => n.userIds))];
    const lookup = this.redis.pipeline();
    for (const userId of userIds) lookup.smembers(this.userKey(userId));
    const queuesOf = new Map<number, string[]>();
    for (const [i, [err, ids]] of ((await lookup.exec()) ?? []).entries()) {
      if (err) throw err;
      if ((ids as string[]).length > 0) queuesOf.set(userIds[i], ids as string[]);
    }
    if (queuesOf.size === 0) return;
    await this.loadMetas([...queuesOf.values()].flat());
    const append = this.redis.pipeline() as ReturnType<Redis["pipeline"]> & Scripts;
    const touched = new Set<string>();
    for (const n of notifications) {
      for (const userId of n.userIds) {
        for (const queueId of queuesOf.get(userId) ?? []) {
          const meta = this.metas.get(queueId);
          if (!meta || meta.userId !== userId) continue;
          const event = eventFor(meta, n, userId);
          if (!event) continue;
          append.sbQueueAppend(
            this.metaKey(queueId),
            this.streamKey(queueId),
            this.userKey(userId),
            queueId,
            JSON.stringify(event),
            this.maxEvents,
          );
          touched.add(queueId);
        }
      }
    }
    if (touched.size === 0) return;
    append.publish(this.wakeChannel, JSON.stringify([...touched]));
    for (const [err] of (await append.exec()) ?? []) if (err) throw err;
  }

  /** Fetches the settings of the queues not cached yet; queues that are gone stay unknown. */
  private async loadMetas(queueIds: string[]): Promise<void> {
    const missing = queueIds.filter((id) => !this.metas.has(id));
    if (missing.length === 0) return;
    const fetch = this.redis.pipeline();
    for (const id of missing) fetch.hmget(this.metaKey(id), "user", "realm", "types", "caps", "md", "idle", "narrow");
    for (const [i, [err, values]] of ((await fetch.exec()) ?? []).entries()) {
      if (err) throw err;
      const [user, realm, types, caps, md, idle, narrow] = values as (string | null)[];
      if (user === null) continue;
      this.remember(missing[i], {
        userId: Number(user),
        realmId: Number(realm),
        eventTypes: types ? (JSON.parse(types) as string[]) : null,
        capabilities: JSON.parse(caps ?? "{}") as Record<string, boolean>,
        applyMarkdown: md === "1",
        idleTimeoutSeconds: Number(idle),
        narrow: narrow ? (JSON.parse(narrow) as EventNarrowTerm[]) : undefined,
      });
    }
  }

  private remember(queueId: string, meta: Meta): void {
    if (this.metas.size >= META_CACHE_MAX) this.metas.clear(); // crude bound; entries reload on demand
    this.metas.set(queueId, meta);
  }

  private bumpEpochIfLost(): void {
    if (!this.lost) return;
    this.lost = false;
    this.redis.incr(this.epochKey).then(
      () => this.logger.warn("events were lost while Redis was unreachable: open queues must re-register"),
      () => (this.lost = true),
    );
  }
}
