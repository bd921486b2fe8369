// Processes starting together on one empty database each run the migrations; exactly one migrates
// and the rest wait for it. Knex's lock table must end with its single row, or nobody can migrate.
import fs from "node:fs";
import { MIGRATIONS_DIR, migrateLatest, type Db } from "../../src/db/knex";
import { openFreshDatabase } from "../support/database";
import { usingMysql } from "../support/harness";

jest.setTimeout(60_000);

const MIGRATION_FILES = fs.readdirSync(MIGRATIONS_DIR).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith(".d.ts"));

let opened: Awaited<ReturnType<typeof openFreshDatabase>>;
beforeEach(async () => {
  opened = await openFreshDatabase();
});
afterEach(async () => {
  await opened.close();
});

/** `count` pools on the test's database, the test's own first. */
async function pools(count: number): Promise<Db[]> {
  const all = [opened.db, ...Array.from({ length: count - 1 }, () => opened.openAnother())];
  if (!usingMysql()) {
    // better-sqlite3 waits out a busy database synchronously, which here (one thread for all the
    // pools) also stops the pool holding the lock; separate processes wait without that.
    for (const db of all) await db.raw("PRAGMA busy_timeout = 20");
  }
  return all;
}

async function expectMigratedOnce(db: Db): Promise<void> {
  const lockRows = await db("knex_migrations_lock").select("index", "is_locked");
  expect(lockRows.map((r) => [Number(r.index), Number(r.is_locked)])).toEqual([[1, 0]]);
  const applied = await db("knex_migrations").select("name");
  expect(applied.map((r) => r.name).sort()).toEqual([...MIGRATION_FILES].sort());
}

it("four pools migrating one empty database at once all finish, and each migration runs once", async () => {
  await Promise.all((await pools(4)).map((db) => migrateLatest(db, 30_000)));
  await expectMigratedOnce(opened.db);
});

it("pools arriving together at Knex's empty lock table do not each add a lock row", async () => {
  // Where a starting process is between creating the lock table and inserting its row: every pool
  // that reads the table now finds it empty.
  await opened.db.schema.createTable("knex_migrations", (t) => {
    t.increments();
    t.string("name");
    t.integer("batch");
    t.timestamp("migration_time");
  });
  await opened.db.schema.createTable("knex_migrations_lock", (t) => {
    t.increments("index").primary();
    t.integer("is_locked");
  });
  await Promise.all((await pools(4)).map((db) => migrateLatest(db, 5_000)));
  await expectMigratedOnce(opened.db);
});

it("a lock table left with two rows by an earlier race is repaired instead of locking everyone out", async () => {
  // What two processes racing through Knex's own table set-up could leave behind.
  await opened.db.schema.createTable("knex_migrations_lock", (t) => {
    t.increments("index").primary();
    t.integer("is_locked");
  });
  await opened.db("knex_migrations_lock").insert([{ is_locked: 0 }, { is_locked: 0 }]);
  await migrateLatest(opened.db, 3_000);
  await expectMigratedOnce(opened.db);
});

it("a database migrated before has nothing left to do and keeps its one lock row", async () => {
  await migrateLatest(opened.db);
  await migrateLatest(opened.openAnother());
  await expectMigratedOnce(opened.db);
});
