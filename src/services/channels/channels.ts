// Channels: lookup with access rules, creation with the reference's default permission groups.
import type { Queryable } from "../../db/knex";
import { CHANNEL_GROUP_SETTINGS } from "./groupSettings";
import { systemGroupIds, isUserInGroup } from "../../db/groups";
import { bool, nowSeconds, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { findStreamById, findStreamByName, insertStream, listRealmStreams } from "../../db/streams";
import { activeSubscriberIds, isSubscribed, listUserSubscriptions } from "../../db/subscriptions";
import { Errors } from "../../errors";
import { renderMarkdown } from "../../markdown/markdown";
import { isAdmin, isGuest } from "../users/users";

export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

/** Default value (system group name) of each channel permission setting. */
export const CHANNEL_SETTING_DEFAULTS: Record<(typeof CHANNEL_GROUP_SETTINGS)[number], string> = {
  can_add_subscribers_group: "role:nobody",
  can_remove_subscribers_group: "role:administrators",
  can_administer_channel_group: "role:nobody",
  can_delete_any_message_group: "role:nobody",
  can_delete_own_message_group: "role:everyone",
  can_move_messages_out_of_channel_group: "role:nobody",
  can_move_messages_within_channel_group: "role:nobody",
  can_send_message_group: "role:everyone",
  can_subscribe_group: "role:nobody",
  can_resolve_topics_group: "role:nobody",
  can_create_topic_group: "role:everyone",
};

export interface NewChannel {
  name: string;
  description?: string;
  invite_only?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  groupSettings?: Partial<Record<(typeof CHANNEL_GROUP_SETTINGS)[number], number>>;
  [extra: string]: unknown;
}

/** Inserts a channel row; validation and permissions are the caller's business. */
export async function insertChannel(
  q: Queryable,
  realm: RealmRow,
  creator: UserRow | null,
  input: NewChannel,
): Promise<StreamRow> {
  const groups = await systemGroupIds(q, realm.id);
  const settings: Record<string, number> = {};
  for (const [name, group] of Object.entries(CHANNEL_SETTING_DEFAULTS)) settings[name] = groups[group];
  Object.assign(settings, input.groupSettings ?? {});
  const { groupSettings: _ignored, ...fields } = input;
  const description = input.description ?? "";
  const inviteOnly = input.invite_only ?? false;
  const row = {
    ...fields,
    realm_id: realm.id,
    name: input.name,
    description,
    rendered_description: description ? renderMarkdown(description) : "",
    invite_only: inviteOnly,
    is_web_public: input.is_web_public ?? false,
    history_public_to_subscribers: input.history_public_to_subscribers ?? !inviteOnly,
    creator_id: creator?.id ?? null,
    date_created: nowSeconds(),
    ...settings,
  };
  const id = await insertStream(q, row);
  return (await findStreamById(q, realm.id, id))!;
}

export async function getChannelByNameOrId(
  q: Queryable,
  realmId: number,
  nameOrId: string | number,
): Promise<StreamRow> {
  if (typeof nameOrId === "number") {
    const stream = await findStreamById(q, realmId, nameOrId);
    if (!stream) throw Errors.streamIdNotFound(nameOrId);
    return stream;
  }
  const stream = await findStreamByName(q, realmId, nameOrId);
  if (!stream) throw Errors.streamNameNotFound(nameOrId);
  return stream;
}

/** The access rule, for callers that already know whether the user is subscribed. */
export function canSeeChannel(user: Pick<UserRow, "role">, stream: StreamRow, subscribed: boolean): boolean {
  if (subscribed) return true;
  if (bool(stream.invite_only)) return isAdmin(user);
  return !isGuest(user) || bool(stream.is_web_public);
}

/** Can the user see the channel's metadata and (public) messages? */
export async function canAccessChannel(q: Queryable, user: UserRow, stream: StreamRow): Promise<boolean> {
  // Public channels need no subscription check for members; an active user's subscription is read
  // from the cached subscriber list (the channel's readers and senders ask on every request).
  if (canSeeChannel(user, stream, false)) return true;
  const subscribed = bool(user.is_active)
    ? (await activeSubscriberIds(q, stream.id)).includes(user.id)
    : await isSubscribed(q, user.id, stream.id);
  return canSeeChannel(user, stream, subscribed);
}

/** The channel with this id or name if it exists and the user can access it; undefined otherwise. */
export async function findAccessibleChannel(
  q: Queryable,
  user: UserRow,
  idOrName: number | string,
): Promise<StreamRow | undefined> {
  const stream =
    typeof idOrName === "number"
      ? await findStreamById(q, user.realm_id, idOrName)
      : await findStreamByName(q, user.realm_id, idOrName);
  return stream && (await canAccessChannel(q, user, stream)) ? stream : undefined;
}

export interface ChannelListFilter {
  include_public: boolean;
  include_web_public: boolean;
  include_subscribed: boolean;
  exclude_archived: boolean;
  include_all: boolean;
  include_all_active: boolean;
  include_default: boolean;
}

/** GET /streams: the channels the filter asks for, among those the user can access. */
export async function listVisibleChannels(
  q: Queryable,
  user: UserRow,
  filter: ChannelListFilter,
): Promise<StreamRow[]> {
  const subscribed = new Set((await listUserSubscriptions(q, user.id)).map((s) => s.stream_id));
  return (await listRealmStreams(q, user.realm_id)).filter((s) => {
    if (filter.exclude_archived && bool(s.is_archived)) return false;
    const wanted =
      (filter.include_subscribed && subscribed.has(s.id)) ||
      (filter.include_public && !bool(s.invite_only)) ||
      (filter.include_web_public && bool(s.is_web_public)) ||
      (filter.include_default && bool(s.is_default_stream)) ||
      filter.include_all ||
      filter.include_all_active;
    return wanted && canSeeChannel(user, s, subscribed.has(s.id));
  });
}

/** The check behind sending a message to a channel. */
export async function assertCanPostToChannel(
  q: Queryable,
  user: UserRow,
  stream: StreamRow,
  knownSubscribed?: boolean,
): Promise<void> {
  if (bool(stream.is_archived)) throw Errors.badRequest(`Not authorized to send to channel '${stream.name}'`);
  const subscribed = knownSubscribed ?? (await isSubscribed(q, user.id, stream.id));
  // Bots post where their owner could; system bots post anywhere.
  if (!subscribed && !bool(user.is_system_bot)) {
    if (bool(stream.invite_only) || isGuest(user))
      throw Errors.badRequest(`Not authorized to send to channel '${stream.name}'`);
  }
  if (
    !bool(user.is_system_bot) &&
    !(await isUserInGroup(q, user.id, stream.can_send_message_group as number, user.role))
  ) {
    throw Errors.badRequest("You do not have permission to post in this channel.");
  }
}
