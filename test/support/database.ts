// A database of its own for tests that work below the app (migrations, db/ modules): a fresh SQLite
// file, or a fresh MySQL database when TEST_DATABASE_URL is set. No schema until the test migrates.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "../../src/db/knex";
import { freshDatabaseUrl } from "./harness";

/** `openAnother` opens one more connection pool on the same database (closed by `close`). */
export async function openFreshDatabase(): Promise<{ db: Db; openAnother(): Db; close(): Promise<void> }> {
  const database = await freshDatabaseUrl();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-db-"));
  const db = createDb(database.url, dataDir);
  const others: Db[] = [];
  return {
    db,
    openAnother() {
      const other = createDb(database.url, dataDir);
      others.push(other);
      return other;
    },
    async close() {
      for (const other of others) await other.destroy();
      await db.destroy();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the migrations before `file` (the schema as it was when `file` was written), not `file` itself. */
export async function migrateUntil(db: Db, file: string): Promise<void> {
  for (;;) {
    const [, pending] = (await db.migrate.list()) as [unknown[], { file: string }[]];
    if (pending[0].file === file) return;
    await db.migrate.up();
  }
}
