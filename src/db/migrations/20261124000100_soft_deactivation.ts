// Soft deactivation (see services/users/softDeactivation.ts): a send to a channel writes no
// user_messages row for a subscriber who has not been active for weeks (`long_term_idle`); their
// rows are written when they return, for the messages after `last_active_message_id`.
// `last_active_at` (epoch seconds) is when the user last made an authenticated request; null until
// they make one (date_joined stands in).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.bigInteger("last_active_at").nullable();
    t.boolean("long_term_idle").notNullable().defaultTo(false);
    t.bigInteger("last_active_message_id").nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("last_active_at");
    t.dropColumn("long_term_idle");
    t.dropColumn("last_active_message_id");
  });
}
