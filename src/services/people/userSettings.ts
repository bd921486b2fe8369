// A user's personal settings (`user_settings` in POST /register, changed with PATCH /settings):
// the reference's settings with its defaults; only the ones a user changed are stored. Each change
// sends the user's clients a `user_settings` `update` event (and the legacy `update_display_settings`
// / `update_global_notifications` events are not sent: clients since feature level 89 read these).
import type { Db, Queryable } from "../../db/knex";
import type { UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { storedUserSettings, storeUserSetting } from "../../db/userSettings";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";

type Kind = "bool" | { ints: number[] } | { strings: string[] } | { min: number; max: number } | "language";

const bool = "bool" as const;
const ints = (...values: number[]) => ({ ints: values });
const strings = (...values: string[]) => ({ strings: values });

/** Every setting: its default and the values it takes (the reference's enumerations). */
export const USER_SETTINGS: Record<string, { default: unknown; kind: Kind }> = {
  twenty_four_hour_time: { default: false, kind: bool },
  web_mark_read_on_scroll_policy: { default: 1, kind: ints(1, 2, 3) },
  web_channel_default_view: { default: 1, kind: ints(1, 2, 3, 4) },
  starred_message_counts: { default: true, kind: bool },
  receives_typing_notifications: { default: true, kind: bool },
  web_suggest_update_timezone: { default: true, kind: bool },
  fluid_layout_width: { default: false, kind: bool },
  high_contrast_mode: { default: false, kind: bool },
  web_font_size_px: { default: 16, kind: { min: 12, max: 20 } },
  web_line_height_percent: { default: 140, kind: { min: 122, max: 158 } },
  color_scheme: { default: 1, kind: ints(1, 2, 3) },
  translate_emoticons: { default: false, kind: bool },
  display_emoji_reaction_users: { default: true, kind: bool },
  default_language: { default: "en", kind: "language" },
  web_home_view: { default: "inbox", kind: strings("recent", "inbox", "all_messages") },
  web_escape_navigates_to_home_view: { default: true, kind: bool },
  left_side_userlist: { default: false, kind: bool },
  emojiset: { default: "google", kind: strings("google", "twitter", "text") },
  demote_inactive_streams: { default: 1, kind: ints(1, 2, 3) },
  user_list_style: { default: 2, kind: ints(1, 2, 3) },
  web_animate_image_previews: { default: "on_hover", kind: strings("always", "on_hover", "never") },
  web_stream_unreads_count_display_policy: { default: 2, kind: ints(1, 2, 3) },
  hide_ai_features: { default: false, kind: bool },
  web_inbox_show_channel_folders: { default: true, kind: bool },
  web_left_sidebar_show_channel_folders: { default: true, kind: bool },
  web_left_sidebar_unreads_count_summary: { default: true, kind: bool },
  enter_sends: { default: false, kind: bool },
  enable_drafts_synchronization: { default: true, kind: bool },
  enable_stream_desktop_notifications: { default: false, kind: bool },
  enable_stream_email_notifications: { default: false, kind: bool },
  enable_stream_push_notifications: { default: false, kind: bool },
  enable_stream_audible_notifications: { default: false, kind: bool },
  notification_sound: { default: "zulip", kind: strings("zulip", "ding", "chime-1", "none") },
  enable_desktop_notifications: { default: true, kind: bool },
  enable_sounds: { default: true, kind: bool },
  enable_followed_topic_desktop_notifications: { default: true, kind: bool },
  enable_followed_topic_email_notifications: { default: true, kind: bool },
  enable_followed_topic_push_notifications: { default: true, kind: bool },
  enable_followed_topic_audible_notifications: { default: true, kind: bool },
  email_notifications_batching_period_seconds: { default: 120, kind: { min: 120, max: 7 * 24 * 3600 } },
  enable_offline_email_notifications: { default: true, kind: bool },
  enable_offline_push_notifications: { default: true, kind: bool },
  enable_online_push_notifications: { default: true, kind: bool },
  enable_digest_emails: { default: true, kind: bool },
  enable_marketing_emails: { default: true, kind: bool },
  enable_login_emails: { default: true, kind: bool },
  message_content_in_email_notifications: { default: true, kind: bool },
  pm_content_in_desktop_notifications: { default: true, kind: bool },
  wildcard_mentions_notify: { default: true, kind: bool },
  enable_followed_topic_wildcard_mentions_notify: { default: true, kind: bool },
  desktop_icon_count_display: { default: 1, kind: ints(1, 2, 3, 4) },
  realm_name_in_email_notifications_policy: { default: 1, kind: ints(1, 2, 3) },
  automatically_follow_topics_policy: { default: 3, kind: ints(1, 2, 3, 4) },
  automatically_unmute_topics_in_muted_streams_policy: { default: 2, kind: ints(1, 2, 3, 4) },
  automatically_follow_topics_where_mentioned: { default: true, kind: bool },
  resolved_topic_notice_auto_read_policy: {
    default: "except_followed",
    kind: strings("always", "except_followed", "never"),
  },
  presence_enabled: { default: true, kind: bool },
  send_private_typing_notifications: { default: true, kind: bool },
  send_stream_typing_notifications: { default: true, kind: bool },
  send_read_receipts: { default: true, kind: bool },
  allow_private_data_export: { default: false, kind: bool },
  email_address_visibility: { default: 1, kind: ints(1, 2, 3, 4, 5) },
  web_navigate_to_sent_message: { default: true, kind: bool },
};

/** Read-only lists the reference sends with the settings. */
const CHOICES = {
  available_notification_sounds: ["chime-1", "ding", "zulip"],
  emojiset_choices: [
    { key: "google", text: "Google" },
    { key: "twitter", text: "Twitter" },
    { key: "text", text: "Plain text" },
  ],
};

export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS);

/** The user's settings as POST /register's `user_settings` shows them. */
export async function userSettingsState(q: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  const stored = await storedUserSettings(q, user.id);
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(USER_SETTINGS))
    out[name] = stored.has(name) ? stored.get(name) : spec.default;
  return { ...out, timezone: user.timezone, ...CHOICES };
}

/** One value as sent (form text, JSON-encoded when not a string), checked against the setting. */
export function parseUserSetting(name: string, raw: string): unknown {
  const spec = USER_SETTINGS[name];
  const bad = () => Errors.invalidParam(name, `Invalid ${name}`);
  const kind = spec.kind;
  if (kind === "bool") {
    const text = raw.trim().toLowerCase();
    if (text === "true") return true;
    if (text === "false") return false;
    throw Errors.invalidParam(name, `${name} is not a boolean`);
  }
  if (kind === "language") {
    const text = unquote(raw);
    if (!/^[a-z]{2,3}([-_][A-Za-z]{2,4})?$/.test(text)) throw bad();
    return text;
  }
  if ("strings" in kind) {
    const text = unquote(raw);
    if (!kind.strings.includes(text)) throw bad();
    return text;
  }
  const n = Number(raw.trim());
  if (!Number.isInteger(n)) throw Errors.invalidParam(name, `${name} is not an integer`);
  if ("ints" in kind && !kind.ints.includes(n)) throw bad();
  if ("min" in kind && (n < kind.min || n > kind.max)) throw bad();
  return n;
}

/** Strings may come JSON-encoded (`"google"`) or plain (`google`), as the reference accepts both. */
function unquote(raw: string): string {
  if (raw.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === "string") return value;
    } catch {
      /* plain text */
    }
  }
  return raw;
}

/** Stores the changed settings and returns their events (one per setting that changed). */
export async function changeUserSettings(
  db: Db,
  user: UserRow,
  changes: Record<string, unknown>,
): Promise<Notification[]> {
  const names = Object.keys(changes);
  if (names.length === 0) return [];
  return withTransaction(db, async (trx) => {
    const current = await userSettingsState(trx, user);
    const notifications: Notification[] = [];
    for (const name of names) {
      if (current[name] === changes[name]) continue;
      await storeUserSetting(trx, user.id, name, changes[name]);
      notifications.push({
        realmId: user.realm_id,
        userIds: [user.id],
        event: { type: "user_settings", op: "update", property: name, value: changes[name] },
      });
    }
    return notifications;
  });
}

/** The settings present among a request's parameters, each checked (a bad one refuses them all). */
export function userSettingParams(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of USER_SETTING_NAMES) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== "string") throw Errors.invalidParam(name, `${name} was given more than once`);
    out[name] = parseUserSetting(name, value);
  }
  return out;
}
