// Accepting invitations (/join/<key>/): an email invitation is used once; the account it made is
// recorded. Reusable links stay usable until they expire or are revoked.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invitations", (t) => {
    t.bigInteger("used_at").nullable(); // seconds; email invitations only
    t.integer("used_by_user_id").unsigned().nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invitations", (t) => {
    t.dropColumn("used_at");
    t.dropColumn("used_by_user_id");
  });
}
