// MariaDB test databases without running the migrations each time: a test server's database is a
// copy of a template database migrated once (per set of migration files) and shared by every test
// file and process. Migrating costs seconds of DDL per boot on a loaded 2-core machine; copying
// the tables (SHOW CREATE TABLE, then their rows) a fraction of that. The copy is the same schema,
// with its foreign keys, indexes and AUTO_INCREMENT counters, and the same rows (knex_migrations
// included, so the app's own migrate step finds nothing to do). A template with views, triggers
// or routines is not copied (the caller migrates instead).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import knex, { type Knex } from "knex";
import { createDb, migrateLatest } from "../../src/db/knex";

const MIGRATIONS = path.resolve(__dirname, "../../src/db/migrations");

/** Named after the migrations' contents: a new or changed migration makes a new template. */
function templateName(): string {
  const hash = crypto.createHash("sha256");
  for (const file of fs.readdirSync(MIGRATIONS).sort()) {
    hash.update(file);
    hash.update(fs.readFileSync(path.join(MIGRATIONS, file)));
  }
  return `sb_template_${hash.digest("hex").slice(0, 16)}`;
}

const admin = (base: string): Knex =>
  knex({ client: "mysql2", connection: { uri: base } as never, pool: { min: 1, max: 1 } });

const rowsOf = async <T>(db: Knex, sql: string, bindings: string[] = []): Promise<T[]> =>
  ((await db.raw(sql, bindings)) as [T[]])[0];

/** How to copy the template: each table's CREATE TABLE, its stored columns, and whether it has rows. */
interface CopyPlan {
  tables: { name: string; create: string; columns: string; hasRows: boolean }[];
}

/**
 * The copy plan of a migrated template, or null when it holds what SHOW CREATE TABLE does not
 * carry (views, triggers, routines). Read once, when the template is made, and stored in it: a
 * copy then reads one row instead of information_schema table by table (those queries, many at
 * once from parallel test files, are also where MariaDB once failed on its own temporary files).
 */
async function readPlan(db: Knex, name: string): Promise<CopyPlan | null> {
  const others = await rowsOf(
    db,
    "SELECT 1 FROM information_schema.views WHERE table_schema = ? UNION ALL " +
      "SELECT 1 FROM information_schema.triggers WHERE trigger_schema = ? UNION ALL " +
      "SELECT 1 FROM information_schema.routines WHERE routine_schema = ?",
    [name, name, name],
  );
  if (others.length > 0) return null;
  const names = (
    await rowsOf<{ name: string }>(
      db,
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' AND table_name <> 'sb_template_ready' ORDER BY table_name",
      [name],
    )
  ).map((t) => t.name);
  const tables: CopyPlan["tables"] = [];
  for (const table of names) {
    const [created] = await rowsOf<Record<string, string>>(db, `SHOW CREATE TABLE \`${name}\`.\`${table}\``);
    // Generated columns cannot be inserted: copy the stored ones only.
    const columns = (
      await rowsOf<{ name: string }>(
        db,
        "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = ? AND table_name = ? AND extra NOT LIKE '%GENERATED%' ORDER BY ordinal_position",
        [name, table],
      )
    )
      .map((c) => `\`${c.name}\``)
      .join(", ");
    const rows = await rowsOf(db, `SELECT 1 FROM \`${name}\`.\`${table}\` LIMIT 1`);
    tables.push({ name: table, create: created["Create Table"], columns, hasRows: rows.length > 0 });
  }
  return { tables };
}

/** The template database, migrated, and its copy plan (made once, under a lock: other test processes may want it too). */
async function ensureTemplate(db: Knex, base: string): Promise<{ name: string; plan: CopyPlan | null }> {
  const name = templateName();
  // The marker table holds the plan: it is written last, so its row says the migrations finished
  // (a crash half-way leaves a template without it, which is made again).
  // No information_schema query here (one per test server): a missing database or table is the answer.
  const stored = async () => {
    const [row] = await rowsOf<{ plan: string | null }>(
      db,
      `SELECT plan FROM \`${name}\`.sb_template_ready LIMIT 1`,
    ).catch((err: { errno?: number }) => {
      // No such database (1049) or table (1146): not made yet. Anything else is a real failure.
      if (err.errno === 1049 || err.errno === 1146) return [] as { plan: string | null }[];
      throw err;
    });
    return row ? { name, plan: row.plan === null ? null : (JSON.parse(row.plan) as CopyPlan) } : undefined;
  };
  const ready = await stored();
  if (ready) return ready;
  await db.raw("SELECT GET_LOCK('sb_test_template', 300)");
  try {
    const made = await stored();
    if (made) return made;
    await db.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    await db.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const template = createDb(url.toString(), "");
    try {
      await migrateLatest(template);
    } finally {
      await template.destroy();
    }
    const plan = await readPlan(db, name);
    await db.raw(`CREATE TABLE \`${name}\`.sb_template_ready (plan LONGTEXT NULL)`);
    await db.raw(`INSERT INTO \`${name}\`.sb_template_ready (plan) VALUES (?)`, [plan ? JSON.stringify(plan) : null]);
    // Templates of older migration sets are no longer needed.
    for (const { name: old } of await rowsOf<{ name: string }>(
      db,
      "SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'sb\\_template\\_%' AND schema_name <> ?",
      [name],
    ))
      await db.raw(`DROP DATABASE IF EXISTS \`${old}\``);
    return { name, plan };
  } finally {
    await db.raw("SELECT RELEASE_LOCK('sb_test_template')");
  }
}

/**
 * Fills the (new, empty) database `target` with a copy of the migrated template. Returns false,
 * having copied nothing, when the template holds what SHOW CREATE TABLE does not carry.
 */
export async function copyMigratedTemplate(base: string, target: string): Promise<boolean> {
  const db = admin(base);
  try {
    const { name, plan } = await ensureTemplate(db, base);
    if (!plan) return false;
    // One connection (the pool's only one): the session settings below apply to every statement.
    await db.raw(`USE \`${target}\``);
    await db.raw("SET FOREIGN_KEY_CHECKS = 0");
    for (const table of plan.tables) {
      await db.raw(table.create);
      if (table.hasRows)
        await db.raw(
          `INSERT INTO \`${table.name}\` (${table.columns}) SELECT ${table.columns} FROM \`${name}\`.\`${table.name}\``,
        );
    }
    await db.raw("SET FOREIGN_KEY_CHECKS = 1");
    return true;
  } finally {
    await db.destroy();
  }
}
