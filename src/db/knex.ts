// Builds the Knex instance: MySQL/MariaDB when a mysql:// URL is given, else embedded SQLite.
import fs from "node:fs";
import path from "node:path";
import knex, { Knex } from "knex";
import {
  startWalCheckpointer,
  WAL_CHECKPOINTER_DEFAULTS,
  type WalCheckpointer,
  type WalCheckpointerOptions,
} from "./walCheckpointer";

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Anything a query can run on: the pool or an open transaction. */
export type Queryable = Knex | Knex.Transaction;

const MIGRATION_TABLE = "knex_migrations";
export const MIGRATIONS_DIR = path.join(__dirname, "migrations");

export function knexConfig(databaseUrl: string | undefined, dataDir: string): Knex.Config {
  const migrations = { directory: MIGRATIONS_DIR, loadExtensions: [".ts", ".js"], tableName: MIGRATION_TABLE };
  if (databaseUrl && /^mysql2?:\/\//.test(databaseUrl)) {
    return {
      client: "mysql2",
      connection: {
        uri: databaseUrl,
        charset: "utf8mb4",
        supportBigNumbers: true,
        bigNumberStrings: false,
        connectTimeout: 2_000,
      } as never,
      pool: { min: 0, max: 10 },
      // A request waits at most this long for a connection; then the database counts as unreachable
      // (503) instead of the request hanging for Knex's default minute.
      acquireConnectionTimeout: 3_000,
      migrations,
    };
  }
  if (databaseUrl && !databaseUrl.startsWith("sqlite:")) {
    throw new Error(`DATABASE_URL must start with mysql:// or sqlite:, got '${databaseUrl.split(":")[0]}:…'`);
  }
  const filename = databaseUrl ? databaseUrl.replace(/^sqlite:(\/\/)?/, "") : path.join(dataDir, "switchboard.sqlite3");
  return {
    client: "better-sqlite3",
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      // WAL + NORMAL explicitly: a new WAL file otherwise stays at synchronous=FULL (3-4x slower).
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        cachePreparedStatements(conn);
        conn.pragma("journal_mode = WAL");
        conn.pragma("synchronous = NORMAL");
        // Checkpoints run on a worker thread instead (walCheckpointer.ts); SQLite's own would run on
        // the event loop, inside a commit.
        conn.pragma("wal_autocheckpoint = 0");
        conn.pragma("foreign_keys = ON");
        conn.pragma("busy_timeout = 5000");
        done(null, conn);
      },
    },
    migrations,
  };
}

interface SqliteConnection {
  pragma(s: string): unknown;
  prepare(sql: string): unknown;
}

/** Distinct SQL texts kept prepared per SQLite connection; the hot paths use a few dozen. */
const PREPARED_STATEMENTS_KEPT = 500;

/**
 * Knex prepares every SQLite statement again on each query (about half of a request's time on the
 * send path). The SQL text Knex builds for one query shape is always the same (values are bound), so
 * the connection keeps its prepared statements by text: bounded, oldest dropped first. better-sqlite3
 * runs a statement to completion synchronously, so one statement is never used by two queries at once.
 */
function cachePreparedStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const prepared = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (prepared.size >= PREPARED_STATEMENTS_KEPT) prepared.delete(prepared.keys().next().value as string);
      prepared.set(sql, statement);
    }
    return statement;
  };
}

export function createDb(
  databaseUrl: string | undefined,
  dataDir: string,
  checkpoints: WalCheckpointerOptions = WAL_CHECKPOINTER_DEFAULTS,
): Db {
  const config = knexConfig(databaseUrl, dataDir);
  if (config.client !== "better-sqlite3") return knex(config);
  const filename = (config.connection as { filename: string }).filename;
  if (filename === ":memory:") return knex(config);
  fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  const db = knex(config);
  const checkpointer = startWalCheckpointer(db, path.resolve(filename), checkpoints);
  walCheckpointers.set(db, checkpointer);
  // Knex's destroy() is read-only and ends in its client's; the thread's connection closes first, so
  // the pool's, the last one, leaves the database file whole.
  const client = db.client as { destroy(callback?: unknown): Promise<void> };
  const destroyPool = client.destroy.bind(client);
  client.destroy = async (callback?: unknown) => {
    await checkpointer.stop();
    return destroyPool(callback);
  };
  return db;
}

const walCheckpointers = new WeakMap<Db, WalCheckpointer>();

/** The checkpointer of a SQLite file's pool (none for MySQL or `:memory:`). */
export function walCheckpointerOf(db: Db): WalCheckpointer | undefined {
  return walCheckpointers.get(db);
}

/** How long a starting process waits for another one's migration run to finish. */
const MIGRATION_LOCK_WAIT_MS = 120_000;

const MIGRATION_LOCK_TABLE = `${MIGRATION_TABLE}_lock`;
/** The one row of the lock table: a fixed key, so that racing processes cannot insert two. */
const MIGRATION_LOCK_ROW = 1;

/**
 * Creates Knex's two migration tables (with the columns Knex gives them) and the lock table's single
 * row, before Knex would. Knex inserts that row when it finds the table empty, so processes starting
 * together on an empty database could each insert one; with two rows its lock update changes two and
 * nobody ever gets the lock ("Migration table is already locked" until the wait runs out), or each
 * gets a row and both migrate. Here the row has a fixed key and a second one is never inserted; any
 * other row (such a race's leftover) is removed.
 */
async function prepareMigrationTables(db: Db): Promise<void> {
  const createUnlessPresent = async (table: string, columns: (t: Knex.CreateTableBuilder) => void) => {
    if (await db.schema.hasTable(table)) return;
    try {
      await db.schema.createTable(table, columns);
    } catch (err) {
      // Another process created it between the check and here.
      if (!(await db.schema.hasTable(table))) throw err;
    }
  };
  await createUnlessPresent(MIGRATION_TABLE, (t) => {
    t.increments();
    t.string("name");
    t.integer("batch");
    t.timestamp("migration_time");
  });
  await createUnlessPresent(MIGRATION_LOCK_TABLE, (t) => {
    t.increments("index").primary();
    t.integer("is_locked");
  });
  await db(MIGRATION_LOCK_TABLE).insert({ index: MIGRATION_LOCK_ROW, is_locked: 0 }).onConflict("index").ignore();
  await db(MIGRATION_LOCK_TABLE).whereNot("index", MIGRATION_LOCK_ROW).delete();
}

/**
 * Brings the schema up to date. Several processes starting at once on one database race for
 * Knex's migration lock; the losers wait for the winner and then find nothing left to do.
 */
export async function migrateLatest(db: Db, waitMs = MIGRATION_LOCK_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await prepareMigrationTables(db);
      await db.migrate.latest();
      return;
    } catch (err) {
      // The loser of the race sees the lock held, or the lock tables it tried to create already there.
      const locked =
        err instanceof Error && /already locked|already exists|SQLITE_BUSY|database is locked/i.test(err.message);
      if (!locked || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250 + Math.random() * 250));
    }
  }
}

/** Rows inserted with knex return the id differently on each driver; this smooths it over. */
export async function insertReturningId(q: Queryable, table: string, row: Record<string, unknown>): Promise<number> {
  const result = await q(table).insert(row);
  return Number(result[0]);
}

/**
 * Rows per multi-row INSERT. Knex writes SQLite's as one compound SELECT (`select … union all
 * select …`), and SQLite refuses more than 500 terms in one ("too many terms in compound SELECT");
 * 450 leaves room and measured fastest (1,280 rows in 4.5 ms, against 6 ms as VALUES lists and 10 ms
 * row by row). MySQL takes VALUES lists; 2,000 rows stay far below max_allowed_packet.
 */
export const ROWS_PER_INSERT = { sqlite: 450, mysql: 2000 } as const;

/** Inserts any number of rows in as few statements as the database allows. */
export async function insertRows(q: Queryable, table: string, rows: readonly object[]): Promise<void> {
  const chunk = /mysql/.test(String(q.client.config.client)) ? ROWS_PER_INSERT.mysql : ROWS_PER_INSERT.sqlite;
  for (let i = 0; i < rows.length; i += chunk) await q(table).insert(rows.slice(i, i + chunk));
}

/** The part of a mysql2 connection used here (Knex hands out the driver's own connections). */
interface MysqlConnection {
  execute(sql: string, values: unknown[], callback: (err: Error | null) => void): void;
}

/**
 * Rows through a server-side prepared statement on MySQL (one per row count, cached by the driver
 * per connection). Knex has the driver format every value into the SQL text, where a Buffer
 * becomes hex: twice its size to build, send and parse. Prepared, binary values travel as bytes.
 * For tables with large binary columns (the webhook delivery log); `rows` all have the same columns.
 */
export async function insertRowsPrepared(
  db: Db,
  table: string,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  if (!/^[a-z_][a-z0-9_]*$/.test(table) || !columns.every((c) => /^[a-z_][a-z0-9_]*$/.test(c)))
    throw new TypeError(`bad table or column name: ${table} (${columns})`);
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  const names = columns.map((c) => `\`${c}\``).join(", ");
  const sql = `INSERT INTO \`${table}\` (${names}) VALUES ${rows.map(() => tuple).join(", ")}`;
  // The binary protocol takes no undefined and no booleans.
  const values = rows.flatMap((row) =>
    columns.map((c) => {
      const value = row[c];
      return value === undefined ? null : typeof value === "boolean" ? Number(value) : value;
    }),
  );
  const conn = (await db.client.acquireConnection()) as MysqlConnection;
  try {
    await new Promise<void>((resolve, reject) => conn.execute(sql, values, (err) => (err ? reject(err) : resolve())));
  } finally {
    await db.client.releaseConnection(conn);
  }
}

/** One trivial round trip: answers whether the database is reachable. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.raw("select 1");
}
