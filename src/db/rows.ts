// Row types as stored. Both drivers return booleans as 0/1; `bool()` makes them real booleans.

export const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;
export const BOT_TYPE = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

export interface RealmRow {
  id: number;
  string_id: string;
  name: string;
  description: string;
  deactivated: number | boolean;
  date_created: number;
  enable_spectator_access: number | boolean;
  message_retention_days: number | null;
  new_stream_announcements_stream_id: number | null;
  notification_bot_id: number | null;
  empty_topic_display_name: string;
  [setting: string]: unknown;
}

export interface UserRow {
  id: number;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_active: number | boolean;
  is_bot: number | boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_system_bot: number | boolean;
  api_key_hash: string;
  webhook_secret: string | null;
  timezone: string;
  date_joined: number;
  /** Epoch seconds of the last authenticated request (at most an hour old while active); null before the first. */
  last_active_at: number | null;
  /** Soft-deactivated: sends to channels write no rows for them until they return. */
  long_term_idle: number | boolean;
  /** The newest message id when they were soft-deactivated: their rows are complete up to it. */
  last_active_message_id: number | null;
  /** Bots: default channels and whether they see all public channels (services/users/bots.ts). */
  default_sending_stream_id?: number | null;
  default_events_register_stream_id?: number | null;
  default_all_public_streams?: number | boolean;
}

export interface StreamRow {
  id: number;
  realm_id: number;
  name: string;
  name_key: string;
  description: string;
  rendered_description: string;
  invite_only: number | boolean;
  is_web_public: number | boolean;
  history_public_to_subscribers: number | boolean;
  is_default_stream: number | boolean;
  message_retention_days: number | null;
  default_push_notifications: number | boolean;
  topics_policy: string;
  folder_id: number | null;
  creator_id: number | null;
  date_created: number;
  is_archived: number | boolean;
  first_message_id: number | null;
  [setting: string]: unknown;
}

export interface MessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  type: "stream" | "private";
  stream_id: number | null;
  topic: string;
  dm_key: string | null;
  content: string;
  rendered_content: string;
  date_sent: number;
  client: string;
  /** When the content was last edited / the message last moved (epoch seconds); null if never. */
  last_edit_time?: number | null;
  last_moved_time?: number | null;
}

export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === "1";
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
