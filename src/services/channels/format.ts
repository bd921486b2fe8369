// Channel rows → the API's stream and subscription objects.
import type { Queryable } from "../../db/knex";
import { CHANNEL_GROUP_SETTINGS } from "./groupSettings";
import { bool, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { listRealmStreams } from "../../db/streams";
import {
  listInactiveUserSubscriptions,
  listUserSubscriptions,
  subscriberIdsByStream,
  type SubscriptionRow,
} from "../../db/subscriptions";
import { canSeeChannel } from "./channels";
import { groupSettingValues } from "../groups/settingValues";

export async function formatStreams(
  q: Queryable,
  realm: RealmRow,
  streams: StreamRow[],
): Promise<Record<string, unknown>[]> {
  const groupIds = streams.flatMap((s) => CHANNEL_GROUP_SETTINGS.map((name) => s[name] as number));
  const values = await groupSettingValues(q, realm.id, groupIds);
  const subscribers = await subscriberIdsByStream(
    q,
    streams.map((s) => s.id),
  );
  return streams.map((s) => {
    const out: Record<string, unknown> = {
      stream_id: s.id,
      name: s.name,
      description: s.description,
      rendered_description: s.rendered_description,
      date_created: Number(s.date_created),
      creator_id: s.creator_id,
      invite_only: bool(s.invite_only),
      is_web_public: bool(s.is_web_public),
      stream_post_policy: 1,
      history_public_to_subscribers: bool(s.history_public_to_subscribers),
      first_message_id: s.first_message_id === null ? null : Number(s.first_message_id),
      folder_id: s.folder_id,
      topics_policy: s.topics_policy,
      message_retention_days: s.message_retention_days,
      is_announcement_only: false,
      is_archived: bool(s.is_archived),
      is_default: bool(s.is_default_stream),
      is_recently_active: true,
      default_push_notifications: bool(s.default_push_notifications),
      stream_weekly_traffic: null,
      subscriber_count: subscribers.get(s.id)?.length ?? 0,
    };
    for (const name of CHANNEL_GROUP_SETTINGS) out[name] = values.get(s[name] as number) ?? null;
    return out;
  });
}

export async function formatSubscriptions(
  q: Queryable,
  realm: RealmRow,
  rows: { stream: StreamRow; sub: SubscriptionRow }[],
  includeSubscribers: boolean,
): Promise<Record<string, unknown>[]> {
  const streams = await formatStreams(
    q,
    realm,
    rows.map((r) => r.stream),
  );
  const subscribers = includeSubscribers
    ? await subscriberIdsByStream(
        q,
        rows.map((r) => r.stream.id),
      )
    : undefined;
  return rows.map(({ sub, stream }, i) => {
    const { is_default: _d, ...base } = streams[i];
    const out: Record<string, unknown> = {
      ...base,
      color: sub.color,
      is_muted: bool(sub.is_muted),
      in_home_view: !bool(sub.is_muted),
      pin_to_top: bool(sub.pin_to_top),
      desktop_notifications: sub.desktop_notifications === null ? null : bool(sub.desktop_notifications),
      audible_notifications: sub.audible_notifications === null ? null : bool(sub.audible_notifications),
      push_notifications: sub.push_notifications === null ? null : bool(sub.push_notifications),
      email_notifications: sub.email_notifications === null ? null : bool(sub.email_notifications),
      wildcard_mentions_notify: sub.wildcard_mentions_notify === null ? null : bool(sub.wildcard_mentions_notify),
    };
    if (subscribers) out.subscribers = subscribers.get(stream.id) ?? [];
    return out;
  });
}

/** The user's own subscriptions as the API shows them (GET /users/me/subscriptions, /register). */
export async function userSubscriptions(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  includeSubscribers: boolean,
): Promise<Record<string, unknown>[]> {
  const subs = await listUserSubscriptions(q, user.id);
  const streams = new Map((await listRealmStreams(q, realm.id)).map((s) => [s.id, s]));
  const rows = subs
    .filter((sub) => streams.has(sub.stream_id))
    .map((sub) => ({ sub, stream: streams.get(sub.stream_id)! }));
  return formatSubscriptions(q, realm, rows, includeSubscribers);
}

/**
 * POST /register's `unsubscribed` (channels the user left, as subscription objects) and
 * `never_subscribed` (channels the user can see and never joined, as stream objects).
 * Archived channels are left out, as in `subscriptions`' default.
 */
export async function otherChannelsOfUser(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  includeSubscribers: boolean,
): Promise<{ unsubscribed: Record<string, unknown>[]; never_subscribed: Record<string, unknown>[] }> {
  const streams = (await listRealmStreams(q, realm.id)).filter((s) => !bool(s.is_archived));
  const byId = new Map(streams.map((s) => [s.id, s]));
  const active = new Set((await listUserSubscriptions(q, user.id)).map((s) => s.stream_id));
  const inactive = (await listInactiveUserSubscriptions(q, user.id)).filter(
    (sub) => byId.has(sub.stream_id) && !active.has(sub.stream_id),
  );
  const everSubscribed = new Set([...active, ...inactive.map((sub) => sub.stream_id)]);
  const unsubscribed = await formatSubscriptions(
    q,
    realm,
    inactive.map((sub) => ({ sub, stream: byId.get(sub.stream_id)! })),
    includeSubscribers,
  );
  const never = streams.filter((s) => !everSubscribed.has(s.id) && canSeeChannel(user, s, false));
  const neverFormatted = await formatStreams(q, realm, never);
  const subscribers = includeSubscribers
    ? await subscriberIdsByStream(
        q,
        never.map((s) => s.id),
      )
    : undefined;
  const never_subscribed = neverFormatted.map(({ is_default: _d, ...stream }, i) =>
    subscribers ? { ...stream, subscribers: subscribers.get(never[i].id) ?? [] } : stream,
  );
  return { unsubscribed, never_subscribed };
}
