// Custom emoji, uploaded files (attachments) with their message links, and invitations.
// realm_emoji comes first: the reactions feature reads its rows by id.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("realm_emoji", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.string("name", 100).notNullable(); // normalized: lower-case, spaces as underscores
    t.boolean("deactivated").notNullable().defaultTo(false);
    t.integer("author_id").unsigned().nullable().references("users.id");
    t.string("file_name", 191).notNullable(); // fileStore path_id of the image
    t.string("still_file_name", 191).nullable(); // first-frame PNG for animated emoji
    t.boolean("is_animated").notNullable().defaultTo(false);
    t.bigInteger("date_created").notNullable();
    t.index(["realm_id", "name"]);
  });

  await knex.schema.createTable("attachments", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.integer("owner_id").unsigned().notNullable().references("users.id");
    t.string("path_id", 191).notNullable().unique();
    t.string("file_name", 191).notNullable();
    t.bigInteger("size").notNullable();
    t.string("content_type", 100).nullable();
    t.bigInteger("create_time").notNullable(); // seconds
    t.index(["owner_id"]);
    t.index(["realm_id"]);
  });

  await knex.schema.createTable("attachment_messages", (t) => {
    t.integer("attachment_id").unsigned().notNullable().references("attachments.id").onDelete("CASCADE");
    t.bigInteger("message_id").unsigned().notNullable().references("messages.id").onDelete("CASCADE");
    t.primary(["attachment_id", "message_id"]);
    t.index(["message_id"]);
  });

  await knex.schema.createTable("invitations", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.boolean("is_multiuse").notNullable(); // id is unique together with this flag (API contract)
    t.string("email", 254).nullable(); // email invitations only
    t.string("link_key", 64).nullable().unique(); // secret part of a reusable link
    t.integer("invited_by_user_id").unsigned().notNullable().references("users.id");
    t.integer("invited_as").notNullable();
    t.bigInteger("invited").notNullable(); // seconds
    t.bigInteger("expiry_date").nullable(); // seconds; null = never
    t.boolean("notify_referrer_on_join").notNullable().defaultTo(true);
    t.boolean("include_realm_default_subscriptions").notNullable().defaultTo(false);
    t.text("stream_ids").notNullable(); // JSON list
    t.text("group_ids").notNullable(); // JSON list
    t.text("welcome_message_custom_text").nullable();
    t.boolean("revoked").notNullable().defaultTo(false);
    t.index(["realm_id", "is_multiuse"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["invitations", "attachment_messages", "attachments", "realm_emoji"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
