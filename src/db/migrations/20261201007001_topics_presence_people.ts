// Per-user state the reference's clients read at /register and change through their own routes:
// - `user_topics`: a user's visibility policy for one topic (muted, unmuted, followed);
// - `user_presence`: when a user was last connected and last active (one row per user);
// - `alert_words`: words a user wants to be alerted about;
// - `user_settings`: the user's settings that differ from the defaults (name → JSON value);
// - `bot_storage`: a bot's key → value store (the bot framework's `bot_handler.storage`).
// Key columns compare byte for byte on MySQL too (keys carry their own case folding, src/names.ts;
// bot storage keys are case-sensitive).
import type { Knex } from "knex";
import { binaryCollation, isMysql } from "../collation";

export async function up(knex: Knex): Promise<void> {
  const collation = isMysql(knex) ? await binaryCollation(knex) : undefined;
  const binary = (column: Knex.ColumnBuilder) => (collation ? column.collate(collation) : column);
  await knex.schema.createTable("user_topics", (t) => {
    t.increments("id").primary();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.integer("stream_id").unsigned().notNullable().references("streams.id");
    t.string("topic_name", 60).notNullable();
    binary(t.string("topic_key", 60).notNullable()); // lower-cased: topics compare case-insensitively
    t.integer("visibility_policy").notNullable();
    t.bigInteger("last_updated").notNullable();
    t.unique(["user_id", "stream_id", "topic_key"]);
  });
  await knex.schema.createTable("user_presence", (t) => {
    t.integer("user_id").unsigned().notNullable().primary().references("users.id");
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.bigInteger("last_connected_time").notNullable();
    t.bigInteger("last_active_time").nullable();
    t.bigInteger("last_update_id").notNullable();
    t.index(["realm_id", "last_update_id"]);
  });
  await knex.schema.createTable("alert_words", (t) => {
    t.increments("id").primary();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.string("word", 100).notNullable();
    binary(t.string("word_key", 100).notNullable()); // lower-cased: one entry per word whatever its case
    t.unique(["user_id", "word_key"]);
  });
  await knex.schema.createTable("user_settings", (t) => {
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.string("name", 80).notNullable();
    t.string("value", 300).notNullable(); // JSON
    t.primary(["user_id", "name"]);
  });
  await knex.schema.createTable("bot_storage", (t) => {
    t.increments("id").primary();
    t.integer("bot_id").unsigned().notNullable().references("users.id");
    binary(t.string("storage_key", 190).notNullable());
    t.text("value", "mediumtext").notNullable();
    t.unique(["bot_id", "storage_key"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["bot_storage", "user_settings", "alert_words", "user_presence", "user_topics"])
    await knex.schema.dropTableIfExists(table);
}
