// The rest of POST /register's `realm` state: the organization settings and server facts the
// reference documents that this server has no setting for. Each value says what this server does
// (no email sending, no video calls, no logo, presence on), in the reference's encoding, so a client
// that reads it behaves as the server does. Settings this server stores come from their own modules.
import { AUTHENTICATION_METHODS } from "../realms/serverInfo";
import type { Queryable } from "../../db/knex";
import { systemGroupIds } from "../../db/groups";
import type { RealmRow } from "../../db/rows";
import { groupSettingValues } from "../groups/settingValues";
import { REALM_GROUP_SETTINGS } from "../realms/realms";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../users/passwords";

/** How often clients should report presence, and after how long without a report a user is offline. */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECONDS = 140;

/**
 * Group settings the reference has and this server does not enforce, with the system group whose
 * members this server in effect lets do the thing (the reference's defaults where they agree).
 */
const FIXED_GROUP_SETTINGS: Record<string, string> = {
  realm_can_set_delete_message_policy_group: "role:moderators",
  realm_can_set_topics_policy_group: "role:moderators",
  realm_can_mention_many_users_group: "role:everyone",
  realm_can_manage_billing_group: "role:owners",
  realm_direct_message_initiator_group: "role:everyone",
  realm_direct_message_permission_group: "role:everyone",
  realm_workplace_users_group: "role:nobody",
  realm_can_access_all_users_group: "role:everyone",
  realm_can_summarize_topics_group: "role:nobody",
};

/** The stored realm group settings not already answered by their own feature's state. */
const STORED_GROUP_SETTINGS = REALM_GROUP_SETTINGS.filter(
  (name) =>
    ![
      "can_create_bots_group",
      "can_create_write_only_bots_group",
      "can_move_messages_between_channels_group",
      "can_move_messages_between_topics_group",
      "can_resolve_topics_group",
      "can_delete_any_message_group",
      "can_delete_own_message_group",
    ].includes(name),
);

export interface ServerFacts {
  maxUploadBytes: number;
  webPublicStreamsEnabled: boolean;
}

export async function realmExtraState(
  q: Queryable,
  realm: RealmRow,
  server: ServerFacts,
): Promise<Record<string, unknown>> {
  const groups = await systemGroupIds(q, realm.id);
  const stored = STORED_GROUP_SETTINGS.map((name) => realm[name] as number);
  const values = await groupSettingValues(q, realm.id, stored);
  const out: Record<string, unknown> = {};
  STORED_GROUP_SETTINGS.forEach((name, i) => {
    const key = name === "create_multiuse_invite_group" ? "realm_create_multiuse_invite_group" : `realm_${name}`;
    out[key] = values.get(stored[i]) ?? null;
  });
  for (const [key, group] of Object.entries(FIXED_GROUP_SETTINGS)) out[key] = groups[group] ?? null;
  const everyoneMayCreate = (id: unknown) => (id === groups["role:members"] ? 1 : 2); // 1 members, 2 admins
  return {
    ...out,
    realm_date_created: Number(realm.date_created),
    server_min_deactivated_realm_deletion_days: 0,
    server_max_deactivated_realm_deletion_days: null,
    server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
    server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_THRESHOLD_SECONDS,
    // The reference's older integer policies, derived from the group settings that replaced them.
    realm_create_public_stream_policy: everyoneMayCreate(realm.can_create_public_channel_group),
    realm_create_private_stream_policy: everyoneMayCreate(realm.can_create_private_channel_group),
    realm_create_web_public_stream_policy: 7, // owners only
    realm_wildcard_mention_policy: 1, // everyone
    realm_default_language: "en",
    realm_welcome_message_custom_text: "",
    realm_digest_emails_enabled: false,
    realm_disallow_disposable_email_addresses: true,
    realm_email_changes_disabled: true,
    realm_invite_required: true,
    realm_media_preview_size: 2,
    realm_inline_image_preview: false,
    realm_inline_url_embed_preview: false,
    realm_topics_policy: "allow_empty_topic",
    realm_mandatory_topics: false,
    realm_require_e2ee_push_notifications: false,
    realm_require_unique_names: false,
    realm_name_changes_disabled: false,
    realm_avatar_changes_disabled: true,
    realm_emails_restricted_to_domains: false,
    realm_send_channel_events_messages: true,
    realm_send_welcome_emails: false,
    realm_message_content_allowed_in_email_notifications: false,
    realm_want_advertise_in_communities_directory: false,
    realm_video_chat_provider: 0, // none
    realm_jitsi_server_url: null,
    realm_gif_rating_policy: 0,
    realm_waiting_period_threshold: 0,
    realm_digest_weekday: 1,
    realm_default_code_block_language: "",
    realm_authentication_methods: Object.fromEntries(
      Object.entries(AUTHENTICATION_METHODS).map(([name, enabled]) => [name, { enabled, available: enabled }]),
    ),
    realm_enable_read_receipts: false,
    realm_icon_url: "",
    max_icon_file_size_mib: 5,
    realm_logo_url: "",
    realm_logo_source: "D",
    realm_night_logo_url: "",
    realm_night_logo_source: "D",
    max_logo_file_size_mib: 5,
    realm_bot_domain: "",
    realm_uuid: "",
    realm_available_video_chat_providers: { disabled: { name: "None", id: 0 } },
    realm_presence_disabled: false,
    settings_send_digest_emails: false,
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_push_notifications_enabled: false,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_upload_quota_mib: null,
    realm_org_type: 0, // unspecified
    realm_owner_full_content_access: false,
    realm_plan_type: 1, // self-hosted
    realm_enable_guest_user_dm_warning: true,
    realm_enable_guest_user_indicator: true,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: "",
    realm_default_external_accounts: {},
    realm_default_avatar_source: "G",
    jitsi_server_url: "", // no video calls here
    development_environment: false,
    server_generation: 1,
    password_min_length: PASSWORD_MIN_LENGTH,
    password_max_length: PASSWORD_MAX_LENGTH,
    password_min_guesses: 0,
    gif_rating_policy_options: { disabled: { name: "GIPHY integration disabled", id: 0 } },
    max_file_upload_size_mib: Math.floor(server.maxUploadBytes / (1024 * 1024)),
    max_avatar_file_size_mib: 5,
    server_inline_image_preview: false,
    server_inline_url_embed_preview: false,
    server_thumbnail_formats: [],
    server_avatar_changes_disabled: true,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: server.webPublicStreamsEnabled,
    server_emoji_data_url: "",
    server_jitsi_server_url: null,
    server_can_summarize_topics: false,
    realm_moderation_request_channel_id: -1, // no moderation requests
    realm_new_stream_announcements_stream_id: realm.new_stream_announcements_stream_id ?? -1,
    realm_signup_announcements_stream_id: -1,
    realm_zulip_update_announcements_stream_id: -1,
    server_report_message_types: [],
    server_supported_permission_settings: { realm: {}, stream: {}, group: {} },
  };
}
