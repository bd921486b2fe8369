// Outgoing-webhook bots (bot_type 3): the reference's Service row per bot (where to POST, in which
// format, with which token), and a direction on the webhook delivery log so that the deliveries
// this server makes to those bots sit beside the incoming ones.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("bot_services", (t) => {
    t.increments("id").primary();
    t.integer("bot_id").unsigned().notNullable().references("users.id");
    t.string("name", 100).notNullable();
    t.string("base_url", 2000).notNullable();
    t.integer("interface").notNullable(); // 1 generic, 2 Slack-compatible
    t.string("token", 64).notNullable(); // sent with every delivery: kept in clear, never logged
    t.index(["bot_id"], "bot_services_bot_id_index");
  });
  await knex.schema.alterTable("webhook_deliveries", (t) => {
    t.string("direction", 16).notNullable().defaultTo("incoming");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("webhook_deliveries", (t) => {
    t.dropColumn("direction");
  });
  await knex.schema.dropTable("bot_services");
}
