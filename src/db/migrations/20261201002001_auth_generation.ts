// One counter row, bumped in the transaction of every change that can refuse an API key (a new key,
// a user or organization (de)activated). Each server process reads it before trusting a cached
// key → user entry, so a change committed by any process (the CLI without Redis included) is seen
// by the next request: the database row is the truth (db/authGeneration.ts).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("auth_generation", (t) => {
    t.integer("id").primary();
    t.bigInteger("generation").notNullable().defaultTo(0);
  });
  await knex("auth_generation").insert({ id: 1, generation: 0 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("auth_generation");
}
