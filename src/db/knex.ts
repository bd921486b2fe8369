// Builds the Knex instance: MySQL/MariaDB when a mysql:// URL is given, else embedded SQLite.
import fs from "node:fs";
import path from "node:path";
import knex, { Knex } from "knex";

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Anything a query can run on: the pool or an open transaction. */
export type Queryable = Knex | Knex.Transaction;

export const MIGRATIONS_DIR = path.join(__dirname, "migrations");

export function knexConfig(databaseUrl: string | undefined, dataDir: string): Knex.Config {
  const migrations = { directory: MIGRATIONS_DIR, loadExtensions: [".ts", ".js"], tableName: "knex_migrations" };
  if (databaseUrl && /^mysql2?:\/\//.test(databaseUrl)) {
    return {
      client: "mysql2",
      connection: { uri: databaseUrl, charset: "utf8mb4", supportBigNumbers: true, bigNumberStrings: false } as never,
      pool: { min: 0, max: 10 },
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
      afterCreate(conn: { pragma(s: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma("journal_mode = WAL");
        conn.pragma("synchronous = NORMAL");
        conn.pragma("foreign_keys = ON");
        conn.pragma("busy_timeout = 5000");
        done(null, conn);
      },
    },
    migrations,
  };
}

export function createDb(databaseUrl: string | undefined, dataDir: string): Db {
  const config = knexConfig(databaseUrl, dataDir);
  if (config.client === "better-sqlite3") {
    const filename = (config.connection as { filename: string }).filename;
    if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  }
  return knex(config);
}

export async function migrateLatest(db: Db): Promise<void> {
  await db.migrate.latest();
}

/** Rows inserted with knex return the id differently on each driver; this smooths it over. */
export async function insertReturningId(q: Queryable, table: string, row: Record<string, unknown>): Promise<number> {
  const result = await q(table).insert(row);
  return Number(result[0]);
}
