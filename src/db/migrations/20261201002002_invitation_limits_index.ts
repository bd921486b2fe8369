// The invitation limits count an organization's (and a user's) email invitations of the last
// 24 hours, and look for recent ones to an address: both are ranges of `invited` in one realm.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invitations", (t) => {
    t.index(["realm_id", "invited"], "invitations_realm_invited");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invitations", (t) => {
    t.dropIndex(["realm_id", "invited"], "invitations_realm_invited");
  });
}
