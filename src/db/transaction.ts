// "Do these writes atomically": fn runs in one transaction, committed when it resolves and rolled
// back when it throws. Events are not published here (db/ knows nothing of the bus): a service
// builds its notifications inside fn and returns them, and its caller (a route, the webhook
// service) publishes them once this promise has resolved — so only after the commit; a rollback
// rejects instead, and nothing is published. Never publish from inside fn.
// Cache invalidations recorded by the writes inside fn reach the other processes after the commit,
// before this promise resolves (so a request is answered only once every process forgot the old rows).
import { flushInvalidations } from "./cache";
import type { Db, Trx } from "./knex";

export async function withTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  let opened: Trx | undefined;
  const result = await db.transaction((trx) => {
    opened = trx;
    return fn(trx);
  });
  if (opened) await flushInvalidations(opened, db);
  return result;
}
