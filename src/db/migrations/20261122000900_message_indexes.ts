// Reading a channel's history newest-first (GET /messages narrowed to a channel) needs
// (stream_id, id); the core (stream_id, topic, id) index only serves topic narrows. The newest
// message of a realm (anchor=newest, max_message_id) needs (realm_id, id): with only
// (realm_id, dm_key, id) MySQL scanned every message of the realm on each request.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("messages", (t) => {
    t.index(["stream_id", "id"], "messages_stream_id_id_index");
    t.index(["realm_id", "id"], "messages_realm_id_id_index");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("messages", (t) => {
    t.dropIndex(["stream_id", "id"], "messages_stream_id_id_index");
    t.dropIndex(["realm_id", "id"], "messages_realm_id_id_index");
  });
}
