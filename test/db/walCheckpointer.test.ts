// A SQLite file's checkpoints run on a worker thread (src/db/walCheckpointer.ts), never inside a
// commit on the event loop: the log is copied back while the pool goes on, starts over once copied,
// stays bounded under a steady stream of commits, and a failed thread hands checkpoints back to SQLite.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import knex from "knex";
import { createDb, walCheckpointerOf, type Db } from "../../src/db/knex";
import { startWalCheckpointer, type WalCheckpointer } from "../../src/db/walCheckpointer";

jest.setTimeout(60_000);

let dir: string;
const cleanups: (() => Promise<void> | void)[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-wal-"));
});
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(options: Parameters<typeof createDb>[2]): { db: Db; checkpointer: WalCheckpointer; file: string } {
  const db = createDb(undefined, dir, options);
  cleanups.push(() => db.destroy());
  return { db, checkpointer: walCheckpointerOf(db)!, file: path.join(dir, "switchboard.sqlite3") };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

async function createTable(db: Db): Promise<void> {
  await db.schema.createTable("rows", (t) => {
    t.increments("id");
    t.text("body");
  });
}

/** Rows counted through a connection of the test's own, straight from the file. */
async function countRows(file: string): Promise<number> {
  const reader = knex({ client: "better-sqlite3", connection: { filename: file }, useNullAsDefault: true });
  try {
    const [{ n }] = await reader("rows").count({ n: "*" });
    return Number(n);
  } finally {
    await reader.destroy();
  }
}

it("the pool's connection leaves checkpoints to the thread", async () => {
  const { db } = open({ startBytes: 1024 * 1024, intervalMs: 20, maxPages: 4000 });
  const [row] = await db.raw("PRAGMA wal_autocheckpoint");
  expect(row).toEqual({ wal_autocheckpoint: 0 });
});

it("a database whose log stays small never starts the thread", async () => {
  const { db, checkpointer } = open({ startBytes: 1024 * 1024, intervalMs: 10, maxPages: 4000 });
  await createTable(db);
  await db("rows").insert({ body: "small" });
  await new Promise((resolve) => setTimeout(resolve, 100)); // ten looks at the log's size
  expect(checkpointer.stats()).toMatchObject({ started: false, checkpoints: 0 });
});

it("past its start size the thread copies the log back, and the next commit starts the log over", async () => {
  const { db, checkpointer, file } = open({ startBytes: 64 * 1024, intervalMs: 10, maxPages: 100_000 });
  await createTable(db);
  for (let i = 0; i < 100; i++) await db("rows").insert({ body: "x".repeat(2000) });
  await until(() => checkpointer.stats().started, "the thread started");
  await until(() => {
    const s = checkpointer.stats();
    return s.logPages > 0 && s.checkpointedPages === s.logPages;
  }, "the whole log copied back");
  const fullLog = checkpointer.stats().logPages;
  expect(fullLog).toBeGreaterThan(16); // 64 KiB of 4 KiB pages

  await db("rows").insert({ body: "after the checkpoint" });
  await until(() => checkpointer.stats().logPages < fullLog, "the log started over");
  expect(await countRows(file)).toBe(101);
});

it("under a steady stream of commits the log stays near its limit", async () => {
  const maxPages = 200;
  const { db, checkpointer, file } = open({ startBytes: 0, intervalMs: 5, maxPages });
  await createTable(db);
  await until(() => checkpointer.stats().checkpoints > 0, "the thread's first checkpoint");
  const body = "y".repeat(6000); // two pages and more per commit
  const commits = 3000;
  for (let i = 0; i < commits; i++) {
    await db("rows").insert({ body });
    // A server's commits come between other events; without this the loop never leaves microtasks.
    if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  // Without the limit, checkpoints beside the stream never catch up and the log only grows: over
  // 13,000 pages here. Its file keeps its largest size, so this is the most it ever held.
  const logPages = fs.statSync(`${file}-wal`).size / 4096;
  // Pages keep coming while the limit is noticed and the connection waited for: up to 5.4x the
  // limit in runs here with a second run beside them.
  expect(logPages).toBeLessThan(maxPages * 12);
  expect(checkpointer.stats().exclusiveCheckpoints).toBeGreaterThan(0);
  expect(await countRows(file)).toBe(commits);
});

it("a thread that fails hands checkpoints back to SQLite", async () => {
  const db = knex({
    client: "better-sqlite3",
    connection: { filename: path.join(dir, "pool.sqlite3") },
    useNullAsDefault: true,
  });
  cleanups.push(() => db.destroy());
  await db.raw("PRAGMA journal_mode = WAL");
  await db.raw("PRAGMA wal_autocheckpoint = 0");
  // The thread is pointed at a folder, which SQLite cannot open, beside a log big enough to start it.
  const folder = path.join(dir, "not-a-database");
  fs.mkdirSync(folder);
  fs.writeFileSync(`${folder}-wal`, Buffer.alloc(4096));
  const reported: string[] = [];
  const checkpointer = startWalCheckpointer(db, folder, {
    startBytes: 1024,
    intervalMs: 10,
    maxPages: 4000,
    onFailure: (reason) => reported.push(reason),
  });
  cleanups.push(() => checkpointer.stop());
  await until(() => checkpointer.stats().failure !== undefined, "the thread failed");
  // The failure is noticed on the thread's event, and the pragma follows it on the pool.
  let setting = 0;
  for (let i = 0; i < 100 && setting !== 1000; i++) {
    [{ wal_autocheckpoint: setting }] = await db.raw("PRAGMA wal_autocheckpoint");
  }
  expect(setting).toBe(1000);
  expect(checkpointer.stats().failure).toMatch(/unable to open|directory|does not exist/i);
  expect(reported).toEqual([checkpointer.stats().failure]);
});
