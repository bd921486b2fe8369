// Custom profile fields and their values, push device registrations, emoji reactions,
// linkifiers and muted users.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("custom_profile_fields", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.string("name", 40).notNullable();
    t.string("name_key", 40).notNullable(); // lower-cased name: case-insensitive uniqueness on both databases
    t.string("hint", 80).notNullable().defaultTo("");
    t.integer("field_type").notNullable();
    t.text("field_data").notNullable(); // JSON text, "" when the type has no data
    t.integer("sort_order").notNullable();
    t.boolean("display_in_profile_summary").notNullable().defaultTo(false);
    t.boolean("required").notNullable().defaultTo(false);
    t.boolean("editable_by_user").notNullable().defaultTo(true);
    t.unique(["realm_id", "name_key"]);
  });

  await knex.schema.createTable("custom_profile_field_values", (t) => {
    t.increments("id").primary();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.integer("field_id").unsigned().notNullable().references("custom_profile_fields.id").onDelete("CASCADE");
    t.text("value").notNullable();
    t.text("rendered_value").nullable(); // only for Markdown-rendered (text) field types
    t.unique(["user_id", "field_id"]);
    t.index(["field_id"]);
  });

  await knex.schema.createTable("push_device_tokens", (t) => {
    t.increments("id").primary();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.integer("kind").notNullable(); // 1 = APNs
    t.text("token").notNullable(); // up to 4096 characters
    t.string("token_key", 64).notNullable(); // sha256 hex of the token, for the unique index
    t.string("app_id", 191).notNullable();
    t.bigInteger("date_created").notNullable();
    t.unique(["user_id", "kind", "token_key"]);
  });

  await knex.schema.createTable("client_devices", (t) => {
    t.increments("id").primary();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.bigInteger("date_created").notNullable();
    t.index(["user_id"]);
  });

  await knex.schema.createTable("reactions", (t) => {
    t.bigIncrements("id").primary();
    t.bigInteger("message_id").unsigned().notNullable().references("messages.id").onDelete("CASCADE");
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.string("emoji_name", 100).notNullable();
    t.string("emoji_code", 100).notNullable();
    t.string("reaction_type", 30).notNullable();
    t.unique(["user_id", "message_id", "reaction_type", "emoji_code"]);
    t.index(["message_id"]);
  });

  await knex.schema.createTable("linkifiers", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.text("pattern").notNullable();
    t.text("url_template").notNullable();
    t.text("example_input").nullable();
    t.text("reverse_template").nullable();
    t.text("alternative_url_templates").notNullable(); // JSON list of strings
    t.integer("sort_order").notNullable();
    t.index(["realm_id"]);
  });

  await knex.schema.createTable("muted_users", (t) => {
    t.increments("id").primary();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.integer("muted_user_id").unsigned().notNullable().references("users.id");
    t.bigInteger("date_muted").notNullable();
    t.unique(["user_id", "muted_user_id"]);
    t.index(["muted_user_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "muted_users",
    "linkifiers",
    "reactions",
    "client_devices",
    "push_device_tokens",
    "custom_profile_field_values",
    "custom_profile_fields",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
