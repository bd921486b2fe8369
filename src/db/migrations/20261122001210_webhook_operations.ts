// Webhook operations (docs/webhook-operations.md): the delivery log, the claimed sender delivery
// ids that make redeliveries no-ops (a unique key, so it holds across processes and restarts),
// and per-organization template overrides.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === "mysql2";
  await knex.schema.createTable("webhook_deliveries", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable();
    t.integer("bot_id").unsigned().notNullable();
    t.string("integration", 100).notNullable();
    t.string("event", 200).nullable();
    t.string("event_key", 200).nullable();
    t.string("delivery_id", 200).nullable();
    t.bigInteger("time_ms").notNullable();
    t.integer("status").notNullable();
    t.string("code", 64).nullable();
    t.string("outcome", 16).notNullable();
    t.text("message_ids").notNullable(); // JSON list
    t.string("ignored_reason", 200).nullable();
    t.text("error").nullable();
    t.integer("duration_ms").notNullable();
    t.integer("replay_of").unsigned().nullable();
    t.text("headers").notNullable(); // JSON object, secrets removed
    t.text("query").notNullable(); // JSON object, api_key removed
    // Bytes as received (up to the configured cap); MEDIUMBLOB holds 16 MB where BLOB stops at 64 KB.
    if (mysql) t.specificType("body", "MEDIUMBLOB").notNullable();
    else t.binary("body").notNullable();
    t.boolean("body_utf8").notNullable();
    t.integer("body_size").notNullable();
    t.boolean("body_truncated").notNullable();
    t.index(["realm_id", "id"], "webhook_deliveries_realm_id_index");
    t.index(["bot_id", "id"], "webhook_deliveries_bot_id_index");
    t.index(["time_ms"], "webhook_deliveries_time_index");
  });
  await knex.schema.createTable("webhook_delivery_claims", (t) => {
    t.increments("id").primary();
    t.integer("bot_id").unsigned().notNullable();
    t.string("integration", 100).notNullable();
    t.string("delivery_id", 200).notNullable();
    t.bigInteger("time_ms").notNullable();
    t.unique(["bot_id", "integration", "delivery_id"], { indexName: "webhook_delivery_claims_unique" });
    t.index(["time_ms"], "webhook_delivery_claims_time_index");
  });
  await knex.schema.createTable("webhook_overrides", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable();
    t.string("integration", 100).notNullable();
    t.string("event_key", 200).notNullable();
    t.text("template").nullable();
    t.text("topic").nullable();
    t.bigInteger("updated_at").notNullable();
    t.integer("updated_by").unsigned().notNullable();
    t.unique(["realm_id", "integration", "event_key"], { indexName: "webhook_overrides_unique" });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("webhook_overrides");
  await knex.schema.dropTable("webhook_delivery_claims");
  await knex.schema.dropTable("webhook_deliveries");
}
