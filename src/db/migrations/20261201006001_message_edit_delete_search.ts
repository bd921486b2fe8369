// Editing, moving, deleting and searching messages:
// - the organization's edit/move/delete policies as the reference models them (booleans, time limits
//   and user-group settings on `realms`), existing organizations getting the reference's defaults;
// - `message_edits`: one row per edit or move of a message (its edit history), and on `messages` the
//   times of the last content edit and the last move (for `last_edit_timestamp`/`last_moved_timestamp`);
// - a full-text index over topic and content for the `search` narrow: a FULLTEXT index on MySQL/MariaDB,
//   an external-content FTS5 table kept in step by triggers on SQLite, backfilled here;
// - reactions' Unicode emoji codes as the reference writes them (no `-fe0f` variation selectors).
import type { Knex } from "knex";

/** Realm group settings added here, with their default system group (frozen copy: migrations are history). */
const REALM_GROUP_DEFAULTS: Record<string, string> = {
  can_move_messages_between_channels_group: "role:members",
  can_move_messages_between_topics_group: "role:everyone",
  can_resolve_topics_group: "role:everyone",
  can_delete_any_message_group: "role:administrators",
  can_delete_own_message_group: "role:everyone",
};

const SEVEN_DAYS = 7 * 24 * 3600;

const isSqlite = (knex: Knex) => knex.client.config.client === "better-sqlite3";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("realms", (t) => {
    t.boolean("allow_message_editing").notNullable().defaultTo(true);
    t.integer("message_content_edit_limit_seconds").nullable().defaultTo(600);
    t.integer("move_messages_within_stream_limit_seconds").nullable().defaultTo(SEVEN_DAYS);
    t.integer("move_messages_between_streams_limit_seconds").nullable().defaultTo(SEVEN_DAYS);
    t.integer("message_content_delete_limit_seconds").nullable().defaultTo(600);
    t.string("message_edit_history_visibility_policy", 10).notNullable().defaultTo("all");
    for (const name of Object.keys(REALM_GROUP_DEFAULTS)) t.integer(name).unsigned().nullable();
  });
  const groups: { id: number; realm_id: number; name: string }[] = await knex("user_groups")
    .where({ is_system_group: true })
    .select("id", "realm_id", "name");
  for (const [setting, groupName] of Object.entries(REALM_GROUP_DEFAULTS)) {
    for (const group of groups.filter((g) => g.name === groupName))
      await knex("realms")
        .where({ id: group.realm_id })
        .update({ [setting]: group.id });
  }

  await knex.schema.alterTable("messages", (t) => {
    t.bigInteger("last_edit_time").nullable();
    t.bigInteger("last_moved_time").nullable();
  });
  await knex.schema.createTable("message_edits", (t) => {
    t.bigIncrements("id").primary();
    t.bigInteger("message_id").unsigned().notNullable().references("messages.id").onDelete("CASCADE");
    t.integer("user_id").unsigned().nullable();
    t.bigInteger("timestamp").notNullable();
    // Present only for what the edit changed (as the reference's snapshots).
    t.text("prev_content", "mediumtext").nullable();
    t.text("prev_rendered_content", "mediumtext").nullable();
    t.string("prev_topic", 60).nullable();
    t.string("topic", 60).nullable();
    t.integer("prev_stream_id").unsigned().nullable();
    t.integer("stream_id").unsigned().nullable();
    t.index(["message_id", "id"]);
  });

  if (isSqlite(knex)) {
    await knex.raw(
      "CREATE VIRTUAL TABLE messages_fts USING fts5(topic, content, content='messages', content_rowid='id', " +
        "tokenize='unicode61 remove_diacritics 2')",
    );
    await knex.raw(
      "CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN " +
        "INSERT INTO messages_fts(rowid, topic, content) VALUES (new.id, new.topic, new.content); END",
    );
    await knex.raw(
      "CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN " +
        "INSERT INTO messages_fts(messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content); END",
    );
    await knex.raw(
      "CREATE TRIGGER messages_fts_update AFTER UPDATE OF topic, content ON messages BEGIN " +
        "INSERT INTO messages_fts(messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content); " +
        "INSERT INTO messages_fts(rowid, topic, content) VALUES (new.id, new.topic, new.content); END",
    );
    await knex.raw("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')");
  } else {
    // Built from the existing rows by the ALTER itself.
    await knex.raw("ALTER TABLE messages ADD FULLTEXT INDEX messages_search_index (topic, content)");
  }

  await knex("reactions")
    .where({ reaction_type: "unicode_emoji" })
    .where("emoji_code", "like", "%fe0f%")
    .update({ emoji_code: knex.raw("REPLACE(emoji_code, '-fe0f', '')") });
}

export async function down(knex: Knex): Promise<void> {
  if (isSqlite(knex)) {
    for (const trigger of ["messages_fts_insert", "messages_fts_delete", "messages_fts_update"])
      await knex.raw(`DROP TRIGGER IF EXISTS ${trigger}`);
    await knex.raw("DROP TABLE IF EXISTS messages_fts");
  } else {
    await knex.raw("ALTER TABLE messages DROP INDEX messages_search_index");
  }
  await knex.schema.dropTable("message_edits");
  // Plain ALTER TABLE … DROP COLUMN (SQLite has it since 3.35): Knex would rebuild SQLite tables,
  // which foreign keys to rows that exist forbid.
  for (const column of ["last_edit_time", "last_moved_time"])
    await knex.raw(`ALTER TABLE messages DROP COLUMN ${column}`);
  for (const column of [
    "allow_message_editing",
    "message_content_edit_limit_seconds",
    "move_messages_within_stream_limit_seconds",
    "move_messages_between_streams_limit_seconds",
    "message_content_delete_limit_seconds",
    "message_edit_history_visibility_policy",
    ...Object.keys(REALM_GROUP_DEFAULTS),
  ])
    await knex.raw(`ALTER TABLE realms DROP COLUMN ${column}`);
}
