// Channel folders: named, ordered groups of channels (streams.folder_id points here).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("channel_folders", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.string("name", 60).notNullable();
    // Lower-cased name. Not unique in the schema: only non-archived folders must have distinct
    // names, which neither database can express portably, so the service checks it.
    t.string("name_key", 60).notNullable();
    t.text("description").notNullable();
    t.text("rendered_description").notNullable();
    t.integer("sort_order").notNullable().defaultTo(0);
    t.bigInteger("date_created").nullable();
    t.integer("creator_id").unsigned().nullable();
    t.boolean("is_archived").notNullable().defaultTo(false);
    t.index(["realm_id", "name_key"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("channel_folders");
}
