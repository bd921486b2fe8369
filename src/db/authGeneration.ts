// The auth generation (migration 20261201002001): a counter bumped by every write that can refuse an
// API key. Cached key → user entries (and the organizations read with them) are trusted only while the
// counter is where it was when they were read; any other process's change, announced or not, is seen
// by the next request. The read is one primary-key row; requests arriving together share one read,
// but only one begun after they arrived, so none is answered from a read older than itself.
import type { Knex } from "knex";
import { cachesOf } from "./cache";
import type { Queryable } from "./knex";

const ROW = { id: 1 };

async function readGeneration(q: Queryable): Promise<number> {
  const row = await q("auth_generation").where(ROW).first("generation");
  return Number(row?.generation ?? 0);
}

/** Called by the db/ writers of API keys and (de)activations, in their transaction. */
export async function bumpAuthGeneration(q: Queryable): Promise<void> {
  await q("auth_generation").where(ROW).increment("generation", 1);
}

interface Reader {
  seen?: number;
  inFlight?: Promise<number>;
  queued?: Promise<number>;
}

const readers = new WeakMap<object, Reader>();

function readerOf(q: Queryable): Reader {
  const key = q.client.config as object;
  let reader = readers.get(key);
  if (!reader) readers.set(key, (reader = {}));
  return reader;
}

/** A read of the counter begun after this call: joins the next one if one is already under way. */
function freshRead(q: Queryable, reader: Reader): Promise<number> {
  const start = (): Promise<number> => {
    const read: Promise<number> = readGeneration(q).finally(() => {
      if (reader.inFlight === read) reader.inFlight = undefined;
    });
    reader.inFlight = read;
    return read;
  };
  if (!reader.inFlight) return start();
  reader.queued ??= reader.inFlight
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => {
      reader.queued = undefined;
      return start();
    });
  return reader.queued;
}

/**
 * Makes sure the caches hold nothing read before the latest key or activation change: when the
 * counter has moved since this process last looked, every cached entry is dropped.
 */
export async function refreshAuthCaches(q: Queryable): Promise<void> {
  const reader = readerOf(q);
  // Inside a transaction, read through it (on SQLite the pool's one connection is the transaction's).
  const generation = (q as Knex.Transaction).isTransaction ? await readGeneration(q) : await freshRead(q, reader);
  if (reader.seen !== generation) {
    if (reader.seen !== undefined) cachesOf(q).clear();
    reader.seen = generation;
  }
}
