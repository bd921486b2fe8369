// Initial state returned by POST /register, one provider per `fetch_event_types` entry.
// A feature that has state clients need adds its provider here.
import type { Queryable } from "../../db/knex";
import { latestMessageId, starredMessageIds } from "../../db/messages";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { listRealmUsers } from "../../db/users";
import { listRealmStreams } from "../../db/streams";
import { otherChannelsOfUser, userSubscriptions } from "../channels/format";
import type { IntegrationRegistry } from "../../webhooks/registry";
import { realmEmojiState } from "../uploads/realmEmoji";
import { listFolders } from "../channels/folders";
import { SERVER_CONSTANTS, ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from "../realms/serverInfo";
import { realmBotsState } from "../users/bots";
import { botCreationState } from "../realms/settings";
import { userObjects } from "../users/directory";
import { realmProfileFields } from "../profileFields/fields";
import { FIELD_TYPE_INFO } from "../profileFields/types";
import { realmLinkifiers } from "../linkifiers/linkifiers";
import { mutedUsersState } from "../users/mutedUsers";
import { realmIconUrl, realmUrl } from "../realms/realms";
import { unreadMessagesState } from "../messages/unreads";
import { editPolicyState } from "../messages/editPolicy";
import { realmExtraState, type ServerFacts } from "./realmState";
import { peopleState, recentPrivateConversations } from "./peopleState";
import { presenceState } from "../people/presence";
import { mutedConversations, mutedTopicsState, userTopicsState } from "../channels/topics";
import { userGroupObjects } from "../groups/list";
import { userSettingsState, USER_SETTINGS } from "../people/userSettings";
import { alertWordsState } from "../people/alertWords";
import { listUserSubscriptions } from "../../db/subscriptions";
import { formatStreams } from "../channels/format";
import { listVisibleChannels } from "../channels/channels";

export interface StateContext {
  q: Queryable;
  realm: RealmRow;
  user: UserRow;
  externalUrl: string;
  longPollTimeoutSeconds: number;
  includeSubscribers: boolean;
  /** The queue's client_capabilities (e.g. linkifier_url_template). */
  clientCapabilities?: Record<string, boolean>;
  /** The webhook integrations, for `realm_incoming_webhook_bots`. */
  integrations?: IntegrationRegistry;
  /** Server limits and switches the `realm` state reports. */
  server?: ServerFacts;
  /** `presences` keyed by user id in the modern format (slim_presence). */
  slimPresence?: boolean;
  presenceHistoryLimitDays?: number;
}

/** Features this server does not have: their state is what an organization without them has. */
const ABSENT_FEATURES: Record<string, () => Record<string, unknown>> = {
  drafts: () => ({ drafts: [] }),
  onboarding_steps: () => ({ onboarding_steps: [], navigation_tour_video_url: null }),
  scheduled_messages: () => ({ scheduled_messages: [] }),
  reminders: () => ({ reminders: [] }),
  realm_domains: () => ({ realm_domains: [] }),
  realm_filters: () => ({ realm_filters: [] }), // the pre-URL-template linkifier format: none sent
  realm_playgrounds: () => ({ realm_playgrounds: [] }),
  realm_embedded_bots: () => ({ realm_embedded_bots: [] }),
  navigation_views: () => ({ navigation_views: [] }),
  saved_snippets: () => ({ saved_snippets: [] }),
  default_stream_groups: () => ({ realm_default_stream_groups: [] }),
  stop_words: () => ({ stop_words: [] }),
  user_status: () => ({ user_status: {} }),
  video_calls: () => ({ has_zoom_token: false, has_webex_token: false }),
  giphy: () => ({ giphy_api_key: "" }),
  tenor: () => ({ tenor_api_key: "" }),
  klipy: () => ({ klipy_api_key: "" }),
  device: () => ({ devices: {} }),
  realm_billing: () => ({ realm_billing: { has_pending_sponsorship_request: false } }),
  realm_user_settings_defaults: () => ({
    realm_user_settings_defaults: Object.fromEntries(
      Object.entries(USER_SETTINGS).map(([name, spec]) => [name, spec.default]),
    ),
  }),
};

/**
 * An integration as the reference's clients read it to build webhook URLs: its URL options carry
 * the reference's validator name (ours are all strings); `config_options` (bot-level settings
 * the reference stores per bot) do not exist here.
 */
function incomingWebhookBot(integration: ReturnType<IntegrationRegistry["all"]>[number]): Record<string, unknown> {
  const events = [...integration.events.keys()].filter((key) => key !== "*").sort();
  return {
    name: integration.name,
    display_name: integration.manifest.displayName,
    all_event_types: events.length > 0 ? events : null,
    config_options: [],
    url_options: (integration.manifest.urlOptions ?? []).map((o) => ({
      key: o.key,
      label: o.description,
      validator: "check_string",
    })),
  };
}

/** `wants(type)`: whether the request fetches that type too (some state needs two). */
type Provider = (ctx: StateContext, wants: (type: string) => boolean) => Promise<Record<string, unknown>>;

export const stateProviders: Record<string, Provider> = {
  async custom_profile_fields({ q, realm }) {
    return {
      custom_profile_fields: await realmProfileFields(q, realm.id),
      custom_profile_field_types: FIELD_TYPE_INFO,
    };
  },
  async realm_linkifiers({ q, realm, clientCapabilities }) {
    // Clients that do not understand URL templates get an empty list, as in the reference.
    return { realm_linkifiers: clientCapabilities?.linkifier_url_template ? await realmLinkifiers(q, realm.id) : [] };
  },
  async muted_users({ q, user }) {
    return { muted_users: await mutedUsersState(q, user.id) };
  },
  ...Object.fromEntries(Object.entries(ABSENT_FEATURES).map(([name, state]) => [name, async () => state()])),
  async realm({ q, realm, externalUrl, longPollTimeoutSeconds, server }) {
    return {
      ...(await realmExtraState(
        q,
        realm,
        server ?? { maxUploadBytes: 25 * 1024 * 1024, webPublicStreamsEnabled: true },
      )),
      ...(await botCreationState(q, realm)),
      ...SERVER_CONSTANTS,
      realm_name: realm.name,
      realm_description: realm.description,
      // The organization's own URL (its subdomain), as the reference's clients build links from it.
      realm_url: realmUrl(realm, externalUrl),
      realm_uri: realmUrl(realm, externalUrl),
      realm_icon: realmIconUrl(realmUrl(realm, externalUrl)),
      realm_icon_source: "G",
      realm_empty_topic_display_name: realm.empty_topic_display_name,
      realm_enable_spectator_access: bool(realm.enable_spectator_access),
      realm_message_retention_days: realm.message_retention_days ?? -1,
      event_queue_longpoll_timeout_seconds: longPollTimeoutSeconds,
      ...editPolicyState(realm),
    };
  },
  async message({ q, realm }) {
    return { max_message_id: await latestMessageId(q, realm.id) };
  },
  async update_message_flags({ q, user }, wants) {
    // Keeping unreads current needs both kinds of events: new messages carry their flags.
    if (!wants("message")) return {};
    const unread = await unreadMessagesState(q, user.id);
    // `count` leaves out muted conversations (muted topics, muted channels unless the topic is
    // unmuted or followed), as the reference's; the lists keep them, for clients to filter.
    const mutedChannels = new Set(
      (await listUserSubscriptions(q, user.id)).filter((s) => bool(s.is_muted)).map((s) => s.stream_id),
    );
    const isMuted = await mutedConversations(q, user, mutedChannels);
    const streams = unread.streams as { stream_id: number; topic: string; unread_message_ids: number[] }[];
    const muted = streams
      .filter((c) => isMuted(c.stream_id, c.topic))
      .reduce((n, c) => n + c.unread_message_ids.length, 0);
    return { unread_msgs: { ...unread, count: (unread.count as number) - muted } };
  },
  async presence({ q, realm, slimPresence, presenceHistoryLimitDays }) {
    return presenceState(q, realm, { slim: slimPresence ?? false, historyLimitDays: presenceHistoryLimitDays });
  },
  async muted_topics({ q, realm, user }) {
    return { muted_topics: await mutedTopicsState(q, realm, user) };
  },
  async user_topic({ q, realm, user, clientCapabilities }) {
    return { user_topics: await userTopicsState(q, realm, user, Boolean(clientCapabilities?.empty_topic_name)) };
  },
  async realm_user_groups({ q, realm }) {
    return { realm_user_groups: await userGroupObjects(q, realm, { includeDeactivated: true }) };
  },
  async user_settings({ q, user }) {
    return { user_settings: await userSettingsState(q, user) };
  },
  async alert_words({ q, user }) {
    return { alert_words: await alertWordsState(q, user) };
  },
  async recent_private_conversations({ q, user }) {
    return { recent_private_conversations: await recentPrivateConversations(q, user) };
  },
  async stream({ q, realm, user }) {
    const visible = await listVisibleChannels(q, user, {
      include_public: true,
      include_web_public: false,
      include_subscribed: true,
      exclude_archived: true,
      include_all: false,
      include_all_active: false,
      include_default: false,
    });
    return { streams: await formatStreams(q, realm, visible) };
  },
  async default_streams({ q, realm }) {
    const all = await listRealmStreams(q, realm.id);
    const defaults = all.filter((st) => bool(st.is_default_stream) && !bool(st.is_archived));
    return { realm_default_streams: await formatStreams(q, realm, defaults) };
  },
  async starred_messages({ q, user }) {
    return { starred_messages: await starredMessageIds(q, user.id) };
  },
  async subscription({ q, realm, user, includeSubscribers }) {
    return {
      subscriptions: await userSubscriptions(q, realm, user, includeSubscribers),
      ...(await otherChannelsOfUser(q, realm, user, includeSubscribers)),
    };
  },
  async realm_user({ q, realm, user, externalUrl }) {
    // Bots are users too (`is_bot: true`); the system bots live outside the organization in the
    // reference, so they are not listed.
    const users = (await listRealmUsers(q, realm.id)).filter((u) => !bool(u.is_system_bot));
    return {
      ...(await peopleState(q, realm, user, externalUrl)),
      // profile_data included, as the reference sends it
      realm_users: await userObjects(
        q,
        realm,
        user,
        users.filter((u) => bool(u.is_active)),
        true,
      ),
      realm_non_active_users: await userObjects(
        q,
        realm,
        user,
        users.filter((u) => !bool(u.is_active)),
        true,
      ),
    };
  },
  async realm_incoming_webhook_bots({ integrations }) {
    return { realm_incoming_webhook_bots: (integrations?.all() ?? []).map(incomingWebhookBot) };
  },
  async channel_folders({ q, realm }) {
    return { channel_folders: await listFolders(q, realm, true) };
  },
  async realm_bot({ q, realm, user }) {
    return { realm_bots: await realmBotsState(q, realm, user) };
  },
  async realm_emoji({ q, realm }) {
    return { realm_emoji: await realmEmojiState(q, realm.id) };
  },
};

export async function buildRegisterState(
  ctx: StateContext,
  fetchTypes: string[] | null,
): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
  };
  const wants = (type: string) => fetchTypes === null || fetchTypes.includes(type);
  for (const [name, provider] of Object.entries(stateProviders)) {
    if (wants(name)) Object.assign(state, await provider(ctx, wants));
  }
  return state;
}
