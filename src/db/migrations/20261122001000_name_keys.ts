// Names compare the same on MySQL/MariaDB and SQLite: case-insensitively, accent-sensitively, and
// NFC and NFD spellings alike (src/names.ts). Before this, MySQL compared the lower-cased keys
// with the database's accent-insensitive collation ("resume" found "résumé") and SQLite compared
// them byte for byte, and topic narrows used SQL LOWER(), which SQLite applies to ASCII only.
//
// Every name lookup now goes through a key column holding nameKey(name), compared byte for byte
// (a binary NO PAD collation on MySQL): the existing name_key columns get the new keys, user
// groups, user emails and message topics get one. Stored names, topics included, become NFC.
// Keys that now coincide (e.g. an NFC and an NFD "café" created on SQLite) would break a unique
// index: the later channel/field is renamed "<name> (2)", as an operator would have to.
// If nameKey() ever changes, a new migration must recompute these columns.
import type { Knex } from "knex";
import { binaryCollation, isMysql } from "../collation";
import { nameKey, normalizeName } from "../../names";

/** Tables whose `name` has a `name_key`; `unique` when the key must be unique per realm. */
const KEYED_NAMES = [
  { table: "streams", width: 60, unique: true },
  { table: "channel_folders", width: 60, unique: false },
  { table: "custom_profile_fields", width: 40, unique: true },
] as const;

const BATCH = 1000;

const codePoints = (text: string) => [...text].length;

/** The NFC form, unless that would no longer fit the column (then the name stays as it was). */
function storedForm(name: string, width: number): string {
  const nfc = normalizeName(name);
  return codePoints(nfc) <= width ? nfc : name;
}

/** "<name> (n)" cut to the column's width, for a name whose key is already taken. */
function renamed(name: string, n: number, width: number): string {
  const suffix = ` (${n})`;
  return [...name].slice(0, width - suffix.length).join("") + suffix;
}

/**
 * Recomputes `name` and `name_key` of every row. Keys are first set to a placeholder no real key
 * can equal (keys are trimmed, the placeholder starts with a space), so that no intermediate state
 * breaks the unique index.
 */
async function rekeyNames(knex: Knex, table: string, width: number, unique: boolean): Promise<void> {
  const rows: { id: number; realm_id: number; name: string }[] = await knex(table)
    .select("id", "realm_id", "name")
    .orderBy("id");
  for (const row of rows)
    await knex(table)
      .where({ id: row.id })
      .update({ name_key: ` ${row.id}` });
  const used = new Set<string>();
  for (const row of rows) {
    const stored = storedForm(row.name, width);
    let name = stored;
    for (let n = 2; unique && used.has(`${row.realm_id}:${nameKey(name)}`); n++) name = renamed(stored, n, width);
    used.add(`${row.realm_id}:${nameKey(name)}`);
    await knex(table)
      .where({ id: row.id })
      .update({ name, name_key: nameKey(name) });
  }
}

async function keyGroupNames(knex: Knex): Promise<void> {
  const rows: { id: number; name: string | null }[] = await knex("user_groups").select("id", "name");
  for (const row of rows) {
    if (row.name === null) continue;
    const name = storedForm(row.name, 100);
    await knex("user_groups")
      .where({ id: row.id })
      .update({ name, name_key: nameKey(name) });
  }
}

/** Emails that only differed in case or normalisation could exist on SQLite: refuse to guess. */
async function keyEmails(knex: Knex): Promise<void> {
  const rows: { id: number; realm_id: number; email: string }[] = await knex("users").select("id", "realm_id", "email");
  const seen = new Map<string, string>();
  for (const row of rows) {
    const key = nameKey(row.email);
    const clash = seen.get(`${row.realm_id}:${key}`);
    if (clash !== undefined) {
      throw new Error(
        `Users '${clash}' and '${row.email}' (realm ${row.realm_id}) have emails that compare equal; ` +
          "change one of them before upgrading",
      );
    }
    seen.set(`${row.realm_id}:${key}`, row.email);
    await knex("users").where({ id: row.id }).update({ email_key: key });
  }
}

/** Topics in batches of ids; one UPDATE per distinct topic in a batch. */
async function keyTopics(knex: Knex): Promise<void> {
  for (let after = 0; ;) {
    const rows: { id: number; topic: string }[] = await knex("messages")
      .where("id", ">", after)
      .orderBy("id")
      .limit(BATCH)
      .select("id", "topic");
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1].id);
    const idsByTopic = new Map<string, number[]>();
    for (const row of rows) {
      if (row.topic === "") continue;
      const ids = idsByTopic.get(row.topic) ?? [];
      ids.push(row.id);
      idsByTopic.set(row.topic, ids);
    }
    for (const [topic, ids] of idsByTopic) {
      const stored = storedForm(topic, 60);
      await knex("messages")
        .whereIn("id", ids)
        .update({ topic: stored, topic_key: nameKey(stored) });
    }
  }
}

export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  const collation = mysql ? await binaryCollation(knex) : "";
  const binary = (column: Knex.ColumnBuilder) => (mysql ? column.collate(collation) : column);

  if (mysql) {
    for (const { table, width } of KEYED_NAMES) {
      await knex.raw(
        `ALTER TABLE ?? MODIFY name_key VARCHAR(${width}) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`,
        [table],
      );
    }
    // Custom emoji are looked up by their (already normalised) name itself.
    await knex.raw(
      `ALTER TABLE realm_emoji MODIFY name VARCHAR(100) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`,
    );
  }
  // (The columns may be there already: down() leaves them on SQLite.)
  const addKey = async (table: string, column: string, add: (t: Knex.AlterTableBuilder) => Knex.ColumnBuilder) => {
    if (!(await knex.schema.hasColumn(table, column))) await knex.schema.alterTable(table, (t) => binary(add(t)));
  };
  await addKey("user_groups", "name_key", (t) => t.string("name_key", 100).nullable());
  await addKey("users", "email_key", (t) => t.string("email_key", 254).notNullable().defaultTo(""));
  await addKey("messages", "topic_key", (t) => t.string("topic_key", 60).notNullable().defaultTo(""));

  for (const { table, width, unique } of KEYED_NAMES) await rekeyNames(knex, table, width, unique);
  await keyGroupNames(knex);
  await keyEmails(knex);
  await keyTopics(knex);

  await knex.schema.alterTable("user_groups", (t) => {
    t.index(["realm_id", "name_key"]);
  });
  // The new unique index first: MySQL keeps an index on realm_id for the foreign key at all times.
  await knex.schema.alterTable("users", (t) => {
    t.unique(["realm_id", "email_key"]);
  });
  await knex.schema.alterTable("users", (t) => {
    t.dropUnique(["realm_id", "email"]);
  });
  await knex.schema.alterTable("messages", (t) => {
    t.index(["stream_id", "topic_key", "id"]);
  });
  await knex.schema.alterTable("messages", (t) => {
    t.dropIndex(["stream_id", "topic", "id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  // SQLite keeps the key columns: dropping a column rebuilds the table, which its foreign keys forbid.
  const mysql = isMysql(knex);
  await knex.schema.alterTable("messages", (t) => {
    t.index(["stream_id", "topic", "id"]);
  });
  await knex.schema.alterTable("messages", (t) => {
    t.dropIndex(["stream_id", "topic_key", "id"]);
    if (mysql) t.dropColumn("topic_key");
  });
  await knex.schema.alterTable("users", (t) => {
    t.unique(["realm_id", "email"]);
  });
  await knex.schema.alterTable("users", (t) => {
    t.dropUnique(["realm_id", "email_key"]);
    if (mysql) t.dropColumn("email_key");
  });
  await knex.schema.alterTable("user_groups", (t) => {
    t.dropIndex(["realm_id", "name_key"]);
    if (mysql) t.dropColumn("name_key");
  });
  for (const { table, width } of KEYED_NAMES) {
    if (mysql) await knex.raw(`ALTER TABLE ?? MODIFY name_key VARCHAR(${width}) NOT NULL`, [table]);
    const rows: { id: number; name: string }[] = await knex(table).select("id", "name");
    for (const row of rows) await knex(table).where({ id: row.id }).update({ name_key: row.name.toLowerCase() });
  }
  if (mysql) await knex.raw("ALTER TABLE realm_emoji MODIFY name VARCHAR(100) NOT NULL");
}
