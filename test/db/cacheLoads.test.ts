// Cached reads under concurrency: readers of an expired or missing entry share one load, a reader
// after an invalidation never gets a row read before it, and a read inside a transaction loads alone.
import { clearCaches } from "../../src/db/cache";
import { migrateLatest } from "../../src/db/knex";
import { findRealmById, insertRealm, updateRealm } from "../../src/db/realms";
import { withTransaction } from "../../src/db/transaction";
import { openFreshDatabase } from "../support/database";

let database: Awaited<ReturnType<typeof openFreshDatabase>>;
let realmId: number;

beforeAll(async () => {
  database = await openFreshDatabase();
  await migrateLatest(database.db);
  realmId = await insertRealm(database.db, { string_id: "loads", name: "Loads" });
});
afterAll(async () => {
  await database.close();
});
beforeEach(() => clearCaches(database.db));

/** SELECTs of the realms table while `run` goes. */
async function realmReads(run: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  const count = (query: { sql: string }) => {
    if (/^select .* from [`"]realms[`"]/i.test(query.sql)) reads++;
  };
  database.db.on("query", count);
  try {
    await run();
  } finally {
    database.db.off("query", count);
  }
  return reads;
}

it("twenty concurrent readers of a missing entry share one load", async () => {
  let found: unknown[] = [];
  const reads = await realmReads(async () => {
    found = await Promise.all(Array.from({ length: 20 }, () => findRealmById(database.db, realmId)));
  });
  expect(reads).toBe(1);
  expect(found.every((realm) => realm === found[0])).toBe(true);
  expect(found[0]).toMatchObject({ id: realmId, name: "Loads" });
  expect(Object.isFrozen(found[0])).toBe(true);
});

it("a reader after an invalidation does not join the load begun before it", async () => {
  let before: unknown;
  let after: unknown;
  const reads = await realmReads(async () => {
    const early = findRealmById(database.db, realmId);
    await updateRealm(database.db, realmId, { name: "Renamed" }); // invalidates realm:<id>
    const late = findRealmById(database.db, realmId);
    [before, after] = await Promise.all([early, late]);
  });
  expect(reads).toBe(2);
  expect(after).toMatchObject({ name: "Renamed" });
  expect(before).not.toBe(after);
  await updateRealm(database.db, realmId, { name: "Loads" });
});

it("reads inside a transaction load on their own (they may see its uncommitted writes)", async () => {
  let first: unknown;
  let second: unknown;
  const reads = await realmReads(async () => {
    await withTransaction(database.db, async (trx) => {
      await updateRealm(trx, realmId, { name: "Uncommitted" });
      [first, second] = await Promise.all([findRealmById(trx, realmId), findRealmById(trx, realmId)]);
    });
  });
  expect(reads).toBe(2);
  expect(first).toMatchObject({ name: "Uncommitted" });
  expect(second).toMatchObject({ name: "Uncommitted" });
  await updateRealm(database.db, realmId, { name: "Loads" });
});
