// Passwords and web sessions (docs/accounts.md).
// `user_passwords`: one row per user who has a password — the scrypt hash with its parameters, and the
// user's API key sealed (AES-256-GCM) under a key derived from the password, so `fetch_api_key` can
// hand out the current key while the database holds no usable key. Kept out of `users` so cached
// user rows never carry a password hash.
// `sessions`: server-side web sessions, looked up by the SHA-256 of the cookie's value; any process
// serves any session.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("user_passwords", (t) => {
    t.integer("user_id").unsigned().primary().references("users.id");
    t.string("password_hash", 255).notNullable();
    t.string("api_key_sealed", 255).nullable();
    t.bigInteger("changed_at").notNullable();
  });
  await knex.schema.createTable("sessions", (t) => {
    t.increments("id").primary();
    t.string("id_hash", 64).notNullable().unique();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.string("csrf_token", 64).notNullable();
    t.bigInteger("created_at").notNullable();
    t.bigInteger("last_seen_at").notNullable();
    t.bigInteger("expires_at").notNullable();
    t.index(["user_id"]);
    t.index(["expires_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("sessions");
  await knex.schema.dropTable("user_passwords");
}
