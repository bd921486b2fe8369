// Bounded caches for the rows the hot paths read again and again (API key → user, realm, channel,
// subscribers, linkifiers, mutes, custom emoji, users/channels for formatting).
//
// Every entry carries tags naming what it was built from (a CacheTag: `user:7`, `stream:3`, `subs`…).
// The db/ writers of those rows call `invalidate(q, tags)`: the entries go at once in this process and, after
// the transaction commits, in every other process (the wiring in bootstrap.ts carries the tags over the
// event bus; db/ knows nothing of the bus). A load racing with an invalidation is not stored (a
// generation counter), and every entry expires after a while so a change no invalidation announces (the
// CLI or an operator without Redis, Redis down) is seen within that time.
import type { Knex } from "knex";
import type { Queryable } from "./knex";

/**
 * The tags an entry can carry: what it was built from. Writers and readers build them with
 * `cacheTag` below, so a misspelt tag is a type error rather than an invalidation that never hits.
 */
export type CacheTag =
  | `user:${number}`
  | `stream:${number}`
  | `realm:${number}`
  | `subs:${number}`
  | `mutes:${number}`
  | `reactions:${number}`
  | `presence:${number}`
  | "subs"
  | "linkifiers"
  | "emoji"
  | "*";

export const cacheTag = {
  user: (id: number) => `user:${id}` as const,
  stream: (id: number) => `stream:${id}` as const,
  realm: (id: number) => `realm:${id}` as const,
  /** One channel's subscriber lists. */
  subscribers: (streamId: number) => `subs:${streamId}` as const,
  /** Every channel's subscriber lists (a user's activation changes them all). */
  allSubscribers: "subs",
  /** Who muted this user. */
  mutesOf: (mutedUserId: number) => `mutes:${mutedUserId}` as const,
  reactions: (messageId: number) => `reactions:${messageId}` as const,
  presence: (realmId: number) => `presence:${realmId}` as const,
  /** Every realm's linkifiers. */
  linkifiers: "linkifiers",
  /** Every realm's custom emoji. */
  emoji: "emoji",
  /** Everything cached. */
  everything: "*",
} as const satisfies Record<string, CacheTag | ((id: number) => CacheTag)>;

const MAX_ENTRIES_PER_CACHE = 10_000;
/** Lifetime of an entry when no process outside this one can tell us of changes (no Redis). */
export const LOCAL_TTL_MS = 1_000;
/** Lifetime of an entry when other processes send invalidations (a safety net for lost ones). */
export const SHARED_TTL_MS = 60_000;

interface Entry {
  value: unknown;
  tags: readonly CacheTag[];
  expires: number;
}

/** Shallow-freezes rows (and arrays of rows) so a caller cannot alter what others will read. */
function freeze<V>(value: V): V {
  if (Array.isArray(value)) {
    value.forEach((item) => typeof item === "object" && item !== null && Object.freeze(item));
  }
  if (typeof value === "object" && value !== null) Object.freeze(value);
  return value;
}

class CacheRegistry {
  private readonly caches = new Map<string, Map<string, Entry>>();
  private readonly byTag = new Map<CacheTag, Set<string>>();
  private generation = 0;
  /**
   * Without a cross-process bus, writers outside this process (the CLI, an operator's SQL) cannot
   * invalidate: entries then live only a second, which still spares the database all but one read
   * per key and second under load. bootstrap.ts raises it when invalidations travel over Redis.
   */
  ttlMs = LOCAL_TTL_MS;
  /** Sends tags to the other processes; set by bootstrap when a cross-process bus exists. */
  remote?: (tags: CacheTag[]) => Promise<void>;
  /** Tags written inside open transactions, published to the other processes after commit. */
  readonly pending = new WeakMap<object, Set<CacheTag>>();
  /**
   * Loads under way, by cache and key: when an entry expires under load, the concurrent readers
   * share one load instead of each querying (a stampede of ~50 identical reads a second per key).
   * A reader only joins a load begun in the current generation, so nobody after an invalidation is
   * handed a row read before it.
   */
  private readonly loading = new Map<string, { generation: number; promise: Promise<unknown> }>();

  async read<V>(
    cache: string,
    key: string,
    tagsOf: (value: V) => CacheTag[],
    load: () => Promise<V | undefined>,
    /** false: answer with the value but do not keep it (e.g. a deactivated user, so a reactivation is seen at once). */
    keep: (value: V) => boolean = () => true,
    /** Whether concurrent readers may share this load (not for a load inside a transaction: see cachedRead). */
    shareLoad = false,
  ): Promise<V | undefined> {
    const entries = this.entries(cache);
    const hit = entries.get(key);
    if (hit && hit.expires > Date.now()) {
      entries.delete(key); // most recently used goes last
      entries.set(key, hit);
      return hit.value as V;
    }
    const full = `${cache}\u0000${key}`;
    const shared = shareLoad ? this.loading.get(full) : undefined;
    if (shared && shared.generation === this.generation) return shared.promise as Promise<V | undefined>;
    const generation = this.generation;
    const promise = load().then((value) => {
      // Misses are not cached, nor values the caller rules out; a shared value is frozen either way.
      if (value === undefined) return value;
      if (generation === this.generation && keep(value)) this.store(cache, key, freeze(value), tagsOf(value));
      else if (shareLoad) freeze(value);
      return value;
    });
    if (!shareLoad) return promise;
    const loading = { generation, promise };
    this.loading.set(full, loading);
    try {
      return await promise;
    } finally {
      if (this.loading.get(full) === loading) this.loading.delete(full);
    }
  }

  /** Several keys at once: hits from the cache, misses loaded in one call and stored one by one. */
  async readMany<V>(
    cache: string,
    keys: string[],
    tagsOf: (value: V) => CacheTag[],
    load: (missing: string[]) => Promise<Map<string, V>>,
  ): Promise<Map<string, V>> {
    const entries = this.entries(cache);
    const out = new Map<string, V>();
    const missing: string[] = [];
    const now = Date.now();
    for (const key of keys) {
      const hit = entries.get(key);
      if (hit && hit.expires > now) out.set(key, hit.value as V);
      else missing.push(key);
    }
    if (missing.length === 0) return out;
    const generation = this.generation;
    const loaded = await load(missing);
    for (const [key, value] of loaded) {
      if (generation === this.generation) this.store(cache, key, freeze(value), tagsOf(value));
      out.set(key, value);
    }
    return out;
  }

  invalidateLocal(tags: Iterable<CacheTag>): void {
    this.generation++;
    for (const tag of tags) {
      if (tag === cacheTag.everything) {
        this.clear();
        return;
      }
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      this.byTag.delete(tag);
      for (const full of keys) this.drop(full);
    }
  }

  clear(): void {
    this.generation++;
    this.caches.clear();
    this.byTag.clear();
  }

  private entries(cache: string): Map<string, Entry> {
    let entries = this.caches.get(cache);
    if (!entries) this.caches.set(cache, (entries = new Map()));
    return entries;
  }

  private store(cache: string, key: string, value: unknown, tags: CacheTag[]): void {
    const entries = this.entries(cache);
    if (entries.size >= MAX_ENTRIES_PER_CACHE) this.drop(`${cache}\u0000${entries.keys().next().value}`);
    const full = `${cache}\u0000${key}`;
    this.drop(full);
    entries.set(key, { value, tags, expires: Date.now() + this.ttlMs });
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(full);
    }
  }

  private drop(full: string): void {
    const split = full.indexOf("\u0000");
    const entries = this.caches.get(full.slice(0, split));
    const key = full.slice(split + 1);
    const entry = entries?.get(key);
    if (!entry) return;
    entries!.delete(key);
    for (const tag of entry.tags) this.byTag.get(tag)?.delete(full);
  }
}

// One registry per database: keyed by the Knex config object, which transactions share with their pool.
const registries = new WeakMap<object, CacheRegistry>();

export function cachesOf(q: Queryable): CacheRegistry {
  const key = q.client.config as object;
  let registry = registries.get(key);
  if (!registry) registries.set(key, (registry = new CacheRegistry()));
  return registry;
}

export type { CacheRegistry };

/**
 * A cached read through `q`. Readers outside transactions share a load under way; a load inside a
 * transaction is its own (it may see the transaction's uncommitted rows, and on SQLite a reader
 * inside a transaction waiting for a load queued behind that transaction would wait forever).
 */
export function cachedRead<V>(
  q: Queryable,
  cache: string,
  key: string,
  tagsOf: (value: V) => CacheTag[],
  load: () => Promise<V | undefined>,
  keep?: (value: V) => boolean,
): Promise<V | undefined> {
  return cachesOf(q).read(cache, key, tagsOf, load, keep, !(q as Knex.Transaction).isTransaction);
}

/** The bus broadcast that carries invalidated tags to the other processes. */
export const CACHE_INVALIDATION = "cache-invalidation";

/**
 * Called by a db/ writer after its write: the tagged entries go now in this process; the other
 * processes are told at once outside a transaction, or by `flushInvalidations` after the commit.
 */
export async function invalidate(q: Queryable, tags: CacheTag[]): Promise<void> {
  const registry = cachesOf(q);
  registry.invalidateLocal(tags);
  if ((q as Knex.Transaction).isTransaction) {
    let pending = registry.pending.get(q);
    if (!pending) registry.pending.set(q, (pending = new Set()));
    tags.forEach((tag) => pending.add(tag));
    return;
  }
  await registry.remote?.(tags);
}

/**
 * After `trx` committed: drops its tags again here (a read between the write and the commit may have
 * stored the old row) and tells the other processes. `parent` is the outer transaction when nested.
 */
export async function flushInvalidations(trx: Knex.Transaction, parent: Queryable): Promise<void> {
  const registry = cachesOf(trx);
  const tags = registry.pending.get(trx);
  if (!tags) return;
  registry.pending.delete(trx);
  await invalidate(parent, [...tags]);
}

/** For tests and tools that write rows directly, bypassing db/: forget everything cached. */
export function clearCaches(q: Queryable): void {
  cachesOf(q).clear();
}
