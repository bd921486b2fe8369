// Published server constants: the values clients read from /register and /server_settings.
export const ZULIP_VERSION = "11.0-switchboard";
export const ZULIP_FEATURE_LEVEL = 507;
export const ZULIP_MERGE_BASE = ZULIP_VERSION;

export const SERVER_CONSTANTS = {
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_channel_folder_name_length: 60,
  max_channel_folder_description_length: 1024,
  max_topic_length: 60,
  max_message_length: 10000,
  max_bulk_new_subscription_messages: 100,
  server_typing_started_wait_period_milliseconds: 30000,
  server_typing_stopped_wait_period_milliseconds: 12000,
  server_typing_started_expiry_period_milliseconds: 45000,
  max_reminder_note_length: 1000,
} as const;

export const MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

/** How people sign in here: email + password (POST /fetch_api_key, /login/; docs/accounts.md), nothing else.
 * Given by GET /server_settings and, with `available`, by POST /register. */
export const AUTHENTICATION_METHODS = {
  password: true,
  dev: false,
  email: true,
  ldap: false,
  remoteuser: false,
  github: false,
  azuread: false,
  gitlab: false,
  apple: false,
  google: false,
  saml: false,
  "openid connect": false,
};
