// Self-serve bots: who may create them (two realm group settings, the reference's since feature
// level 344, both starting at role:members as the reference's default) and a bot's default channels.
import type { Knex } from "knex";

const REALM_SETTINGS = ["can_create_bots_group", "can_create_write_only_bots_group"] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("realms", (t) => {
    for (const name of REALM_SETTINGS) t.integer(name).unsigned().nullable();
  });
  const groups = await knex("user_groups")
    .where({ name: "role:members", is_system_group: true })
    .select("id", "realm_id");
  for (const group of groups as { id: number; realm_id: number }[]) {
    await knex("realms")
      .where({ id: group.realm_id })
      .update(Object.fromEntries(REALM_SETTINGS.map((name) => [name, group.id])));
  }
  await knex.schema.alterTable("users", (t) => {
    t.integer("default_sending_stream_id").unsigned().nullable();
    t.integer("default_events_register_stream_id").unsigned().nullable();
    t.boolean("default_all_public_streams").notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("default_sending_stream_id");
    t.dropColumn("default_events_register_stream_id");
    t.dropColumn("default_all_public_streams");
  });
  await knex.schema.alterTable("realms", (t) => {
    for (const name of REALM_SETTINGS) t.dropColumn(name);
  });
}
