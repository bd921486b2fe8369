// Initial state returned by POST /register, one provider per `fetch_event_types` entry.
// A feature that has state clients need adds its provider here.
import type { Queryable } from "../db/knex";
import { latestMessageId } from "../db/messages";
import { bool, type RealmRow, type UserRow } from "../db/rows";
import { listRealmStreams } from "../db/streams";
import { listUserSubscriptions } from "../db/subscriptions";
import { listRealmUsers } from "../db/users";
import { formatSubscriptions } from "./channelFormat";
import { realmEmojiState } from "./realmEmoji";
import { listFolders } from "./channelFolders";
import { SERVER_CONSTANTS, ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from "./serverInfo";
import { formatUser, } from "./userFormat";
import { isAdmin } from "./users";
import { realmProfileFields } from "./profileFields";
import { FIELD_TYPE_INFO } from "./profileFieldTypes";
import { realmLinkifiers } from "./linkifiers";
import { mutedUsersState } from "./mutedUsers";
import { userProfileExtras } from "./userProfileExtras";

export interface StateContext {
  q: Queryable;
  realm: RealmRow;
  user: UserRow;
  externalUrl: string;
  longPollTimeoutSeconds: number;
  includeSubscribers: boolean;
  /** The queue's client_capabilities (e.g. linkifier_url_template). */
  clientCapabilities?: Record<string, boolean>;
}

type Provider = (ctx: StateContext) => Promise<Record<string, unknown>>;

export const stateProviders: Record<string, Provider> = {
  async custom_profile_fields({ q, realm }) {
    return { custom_profile_fields: await realmProfileFields(q, realm.id), custom_profile_field_types: FIELD_TYPE_INFO };
  },
  async realm_linkifiers({ q, realm, clientCapabilities }) {
    // Clients that do not understand URL templates get an empty list, as in the reference.
    return { realm_linkifiers: clientCapabilities?.linkifier_url_template ? await realmLinkifiers(q, realm.id) : [] };
  },
  async muted_users({ q, user }) {
    return { muted_users: await mutedUsersState(q, user.id) };
  },
  async realm({ realm, externalUrl, longPollTimeoutSeconds }) {
    return {
      ...SERVER_CONSTANTS,
      realm_name: realm.name,
      realm_description: realm.description,
      realm_url: externalUrl,
      realm_uri: externalUrl,
      realm_empty_topic_display_name: realm.empty_topic_display_name,
      realm_enable_spectator_access: bool(realm.enable_spectator_access),
      realm_message_retention_days: realm.message_retention_days ?? -1,
      event_queue_longpoll_timeout_seconds: longPollTimeoutSeconds,
    };
  },
  async message({ q, realm }) {
    return { max_message_id: await latestMessageId(q, realm.id) };
  },
  async subscription({ q, realm, user, includeSubscribers }) {
    const subs = await listUserSubscriptions(q, user.id);
    const streams = new Map((await listRealmStreams(q, realm.id)).map((s) => [s.id, s]));
    const rows = subs.filter((sub) => streams.has(sub.stream_id)).map((sub) => ({ sub, stream: streams.get(sub.stream_id)! }));
    return { subscriptions: await formatSubscriptions(q, realm, rows, includeSubscribers), unsubscribed: [], never_subscribed: [] };
  },
  async realm_user({ q, realm, user }) {
    const users = await listRealmUsers(q, realm.id);
    const admin = isAdmin(user);
    const humans = users.filter((u) => !bool(u.is_bot));
    const extras = await userProfileExtras(q, realm, humans, true); // profile_data, as the reference sends
    return {
      realm_users: humans.map((u) => ({ ...formatUser(u, { viewerIsAdmin: admin }), ...(extras.get(u.id) ?? {}) })),
      realm_non_active_users: [],
    };
  },
  async channel_folders({ q, realm }) {
    return { channel_folders: await listFolders(q, realm, true) };
  },
  async realm_bot({ q, realm, user }) {
    const users = await listRealmUsers(q, realm.id);
    return { realm_bots: users.filter((u) => bool(u.is_bot) && u.bot_owner_id === user.id).map((u) => formatUser(u)) };
  },
  async realm_emoji({ q, realm }) {
    return { realm_emoji: await realmEmojiState(q, realm.id) };
  },
};

export async function buildRegisterState(ctx: StateContext, fetchTypes: string[] | null): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
  };
  for (const [name, provider] of Object.entries(stateProviders)) {
    if (fetchTypes === null || fetchTypes.includes(name)) Object.assign(state, await provider(ctx));
  }
  return state;
}
