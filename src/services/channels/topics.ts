// Topics of a channel as one user sees them: the topic list (GET /users/me/{stream_id}/topics) and
// the user's visibility policy per topic (POST /user_topics: muted, unmuted, followed), with the
// `user_topic` events and the legacy `muted_topics` ones.
import type { Db, Queryable } from "../../db/knex";
import { nowSeconds, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { findStreamById, listRealmStreams } from "../../db/streams";
import { channelTopics, channelTopicsReceivedBy } from "../../db/topics";
import { withTransaction } from "../../db/transaction";
import { listUserTopics, setUserTopic } from "../../db/userTopics";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { MAX_TOPIC_LENGTH } from "../../limits";
import { nameKey } from "../../names";
import { canReadChannelHistory } from "../messages/access";
import { canAccessChannel } from "./channels";

export const VISIBILITY_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** The channel by id if the user may see it; otherwise the reference's error. */
async function accessibleChannel(q: Queryable, realm: RealmRow, user: UserRow, streamId: number): Promise<StreamRow> {
  const stream = await findStreamById(q, realm.id, streamId);
  if (!stream || !(await canAccessChannel(q, user, stream))) throw Errors.badRequest("Invalid channel ID");
  return stream;
}

/** The channel's topics, newest first, with the id of each one's latest message. */
export async function topicList(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  streamId: number,
): Promise<{ name: string; max_id: number }[]> {
  const stream = await accessibleChannel(q, realm, user, streamId);
  // Without shared history a user sees the topics of the messages they received, as the reference.
  const rows = (await canReadChannelHistory(q, user, stream))
    ? await channelTopics(q, stream.id)
    : await channelTopicsReceivedBy(q, stream.id, user.id);
  // Topics compare case-insensitively: variants are one topic, named as its latest message names it.
  const byKey = new Map<string, { name: string; max_id: number }>();
  for (const row of rows) {
    const key = nameKey(row.topic);
    const seen = byKey.get(key);
    if (!seen || row.max_id > seen.max_id) byKey.set(key, { name: row.topic, max_id: row.max_id });
  }
  return [...byKey.values()].sort((a, b) => b.max_id - a.max_id);
}

/** `user_topics` in POST /register. */
export async function userTopicsState(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  emptyTopicName: boolean,
): Promise<Record<string, unknown>[]> {
  return (await listUserTopics(q, user.id)).map((row) => ({
    stream_id: row.stream_id,
    topic_name: row.topic_name === "" && !emptyTopicName ? realm.empty_topic_display_name : row.topic_name,
    last_updated: Number(row.last_updated),
    visibility_policy: row.visibility_policy,
  }));
}

/** The legacy `muted_topics`: [channel name, topic, when] for each muted topic. */
export async function mutedTopicsState(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
): Promise<[string, string, number][]> {
  const rows = (await listUserTopics(q, user.id)).filter((r) => r.visibility_policy === VISIBILITY_POLICY.muted);
  if (rows.length === 0) return [];
  const names = new Map((await listRealmStreams(q, realm.id)).map((s) => [s.id, s.name]));
  return rows
    .filter((r) => names.has(r.stream_id))
    .map((r) => [names.get(r.stream_id)!, r.topic_name, Number(r.last_updated)]);
}

/** Whether a channel message counts as muted for the user: a muted topic, or a muted channel unless unmuted. */
export async function mutedConversations(
  q: Queryable,
  user: UserRow,
  mutedChannelIds: Set<number>,
): Promise<(streamId: number, topic: string) => boolean> {
  const policies = new Map(
    (await listUserTopics(q, user.id)).map((r) => [`${r.stream_id}\u0000${r.topic_key}`, r.visibility_policy]),
  );
  return (streamId, topic) => {
    const policy = policies.get(`${streamId}\u0000${nameKey(topic)}`);
    if (policy === VISIBILITY_POLICY.muted) return true;
    if (policy === VISIBILITY_POLICY.unmuted || policy === VISIBILITY_POLICY.followed) return false;
    return mutedChannelIds.has(streamId);
  };
}

export async function setTopicVisibility(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  input: { streamId: number; topic: string; visibilityPolicy: number },
): Promise<Notification[]> {
  const topic = input.topic.normalize("NFC").trim();
  if ([...topic].length > MAX_TOPIC_LENGTH)
    throw Errors.invalidParam("topic", `topic is too long (limit: ${MAX_TOPIC_LENGTH} characters)`);
  // "(no topic)" and the realm's name for the empty topic mean the empty topic.
  const stored = topic === "(no topic)" || topic === realm.empty_topic_display_name ? "" : topic;
  const now = nowSeconds();
  return withTransaction(db, async (trx) => {
    const stream = await accessibleChannel(trx, realm, user, input.streamId);
    await setUserTopic(trx, {
      user_id: user.id,
      stream_id: stream.id,
      topic_name: stored,
      visibility_policy: input.visibilityPolicy,
      last_updated: now,
    });
    const event = (name: string) => ({
      type: "user_topic",
      stream_id: stream.id,
      topic_name: name,
      last_updated: now,
      visibility_policy: input.visibilityPolicy,
    });
    const one = (extra: Partial<Notification>, name: string): Notification => ({
      realmId: realm.id,
      userIds: [user.id],
      event: event(name),
      ...extra,
    });
    const notifications: Notification[] =
      stored === ""
        ? [
            one({ capability: "empty_topic_name" }, ""),
            one({ withoutCapability: "empty_topic_name" }, realm.empty_topic_display_name),
          ]
        : [one({}, stored)];
    // The legacy event, for queues that did not ask for `user_topic` by name (eventFor checks that).
    notifications.push({
      realmId: realm.id,
      userIds: [user.id],
      event: { type: "muted_topics", muted_topics: await mutedTopicsState(trx, realm, user) },
    });
    return notifications;
  });
}
