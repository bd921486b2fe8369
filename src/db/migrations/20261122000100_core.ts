// Core schema: realms, users, user groups, channels, subscriptions, messages, per-user message rows.
import type { Knex } from "knex";

// The setting columns as they were when this migration was written. Migrations are history: this
// copy stays frozen, and the running code keeps its own lists (services/channels/groupSettings.ts,
// services/realms/realms.ts); a later setting is added by a new migration.

/** The channel permission settings; each holds the id of a user group (system, named or anonymous). */
const CHANNEL_GROUP_SETTINGS = [
  "can_add_subscribers_group",
  "can_remove_subscribers_group",
  "can_administer_channel_group",
  "can_delete_any_message_group",
  "can_delete_own_message_group",
  "can_move_messages_out_of_channel_group",
  "can_move_messages_within_channel_group",
  "can_send_message_group",
  "can_subscribe_group",
  "can_resolve_topics_group",
  "can_create_topic_group",
] as const;

/** Realm-level permission settings, also user-group ids. */
const REALM_GROUP_SETTINGS = [
  "can_create_public_channel_group",
  "can_create_private_channel_group",
  "can_create_web_public_channel_group",
  "can_add_subscribers_group",
  "can_invite_users_group",
  "can_create_groups",
  "can_manage_all_groups",
  "create_multiuse_invite_group",
  "can_add_custom_emoji_group",
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("realms", (t) => {
    t.increments("id").primary();
    t.string("string_id", 40).notNullable().unique(); // subdomain; '' is the root domain
    t.string("name", 100).notNullable();
    t.text("description").notNullable();
    t.boolean("deactivated").notNullable().defaultTo(false);
    t.bigInteger("date_created").notNullable();
    t.boolean("enable_spectator_access").notNullable().defaultTo(false);
    t.integer("message_retention_days").nullable(); // null = unlimited
    t.integer("new_stream_announcements_stream_id").unsigned().nullable();
    t.integer("notification_bot_id").unsigned().nullable();
    t.string("empty_topic_display_name", 60).notNullable().defaultTo("general chat");
    for (const name of REALM_GROUP_SETTINGS) t.integer(name).unsigned().nullable();
  });

  await knex.schema.createTable("users", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.string("email", 254).notNullable(); // API email
    t.string("delivery_email", 254).notNullable();
    t.string("full_name", 100).notNullable();
    t.integer("role").notNullable().defaultTo(400);
    t.boolean("is_active").notNullable().defaultTo(true);
    t.boolean("is_bot").notNullable().defaultTo(false);
    t.integer("bot_type").nullable(); // 1 generic, 2 incoming webhook, 4 embedded (system)
    t.integer("bot_owner_id").unsigned().nullable().references("users.id");
    t.boolean("is_system_bot").notNullable().defaultTo(false);
    t.string("api_key_hash", 64).notNullable().unique(); // sha256 hex of the key; the key itself is never stored
    t.string("webhook_secret", 200).nullable();
    t.string("timezone", 64).notNullable().defaultTo("");
    t.bigInteger("date_joined").notNullable();
    t.unique(["realm_id", "email"]);
  });

  await knex.schema.createTable("user_groups", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.string("name", 100).nullable(); // null for anonymous groups (group-setting values)
    t.text("description").notNullable();
    t.boolean("is_system_group").notNullable().defaultTo(false);
    t.boolean("deactivated").notNullable().defaultTo(false);
    t.integer("creator_id").unsigned().nullable();
    t.bigInteger("date_created").nullable();
    t.index(["realm_id", "name"]);
  });

  await knex.schema.createTable("user_group_members", (t) => {
    t.integer("group_id").unsigned().notNullable().references("user_groups.id").onDelete("CASCADE");
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.primary(["group_id", "user_id"]);
    t.index(["user_id"]);
  });

  await knex.schema.createTable("user_group_subgroups", (t) => {
    t.integer("group_id").unsigned().notNullable().references("user_groups.id").onDelete("CASCADE");
    t.integer("subgroup_id").unsigned().notNullable().references("user_groups.id");
    t.primary(["group_id", "subgroup_id"]);
    t.index(["subgroup_id"]);
  });

  await knex.schema.createTable("streams", (t) => {
    t.increments("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.string("name", 60).notNullable();
    t.string("name_key", 60).notNullable(); // lower-cased name: case-insensitive uniqueness on both databases
    t.text("description").notNullable();
    t.text("rendered_description").notNullable();
    t.boolean("invite_only").notNullable().defaultTo(false);
    t.boolean("is_web_public").notNullable().defaultTo(false);
    t.boolean("history_public_to_subscribers").notNullable().defaultTo(true);
    t.boolean("is_default_stream").notNullable().defaultTo(false);
    t.integer("message_retention_days").nullable(); // null = realm default, -1 = unlimited
    t.boolean("default_push_notifications").notNullable().defaultTo(false);
    t.string("topics_policy", 32).notNullable().defaultTo("inherit");
    t.integer("folder_id").unsigned().nullable();
    t.integer("creator_id").unsigned().nullable();
    t.bigInteger("date_created").notNullable();
    t.boolean("is_archived").notNullable().defaultTo(false);
    t.bigInteger("first_message_id").nullable();
    for (const name of CHANNEL_GROUP_SETTINGS) t.integer(name).unsigned().nullable();
    t.unique(["realm_id", "name_key"]);
  });

  await knex.schema.createTable("subscriptions", (t) => {
    t.increments("id").primary();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.integer("stream_id").unsigned().notNullable().references("streams.id");
    t.boolean("active").notNullable().defaultTo(true);
    t.string("color", 10).notNullable().defaultTo("#76ce90");
    t.boolean("is_muted").notNullable().defaultTo(false);
    t.boolean("pin_to_top").notNullable().defaultTo(false);
    t.boolean("desktop_notifications").nullable();
    t.boolean("audible_notifications").nullable();
    t.boolean("push_notifications").nullable();
    t.boolean("email_notifications").nullable();
    t.boolean("wildcard_mentions_notify").nullable();
    t.unique(["user_id", "stream_id"]);
    t.index(["stream_id", "active"]);
  });

  await knex.schema.createTable("messages", (t) => {
    t.bigIncrements("id").primary();
    t.integer("realm_id").unsigned().notNullable().references("realms.id");
    t.integer("sender_id").unsigned().notNullable().references("users.id");
    t.string("type", 10).notNullable(); // 'stream' | 'private'
    t.integer("stream_id").unsigned().nullable().references("streams.id");
    t.string("topic", 60).notNullable().defaultTo("");
    t.string("dm_key", 255).nullable(); // sorted participant ids "3,7,9": identifies a DM conversation
    t.text("content", "mediumtext").notNullable();
    t.text("rendered_content", "mediumtext").notNullable();
    t.bigInteger("date_sent").notNullable();
    t.string("client", 60).notNullable().defaultTo("API");
    t.index(["stream_id", "topic", "id"]);
    t.index(["realm_id", "dm_key", "id"]);
  });

  await knex.schema.createTable("user_messages", (t) => {
    t.bigIncrements("id").primary();
    t.integer("user_id").unsigned().notNullable().references("users.id");
    t.bigInteger("message_id").unsigned().notNullable().references("messages.id").onDelete("CASCADE");
    t.integer("flags").notNullable().defaultTo(0);
    t.unique(["user_id", "message_id"]);
    t.index(["message_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "user_messages",
    "messages",
    "subscriptions",
    "streams",
    "user_group_subgroups",
    "user_group_members",
    "user_groups",
    "users",
    "realms",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
