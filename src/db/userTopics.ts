// user_topics: a user's visibility policy for a topic (1 muted, 2 unmuted, 3 followed); a topic
// with no row has the default (0, inherit). Topics compare by their name key (src/names.ts).
import type { Queryable } from "./knex";
import { nameKey } from "../names";

export interface UserTopicRow {
  id: number;
  user_id: number;
  stream_id: number;
  topic_name: string;
  topic_key: string;
  visibility_policy: number;
  last_updated: number;
}

export async function findUserTopic(
  q: Queryable,
  userId: number,
  streamId: number,
  topic: string,
): Promise<UserTopicRow | undefined> {
  return q<UserTopicRow>("user_topics")
    .where({ user_id: userId, stream_id: streamId, topic_key: nameKey(topic) })
    .first();
}

/** Sets the policy (0 removes the row); the topic keeps the spelling it was first given. */
export async function setUserTopic(
  q: Queryable,
  row: { user_id: number; stream_id: number; topic_name: string; visibility_policy: number; last_updated: number },
): Promise<void> {
  const key = { user_id: row.user_id, stream_id: row.stream_id, topic_key: nameKey(row.topic_name) };
  if (row.visibility_policy === 0) {
    await q("user_topics").where(key).delete();
    return;
  }
  const updated = await q("user_topics")
    .where(key)
    .update({ visibility_policy: row.visibility_policy, last_updated: row.last_updated });
  if (updated === 0) await q("user_topics").insert({ ...key, ...row });
}

export async function listUserTopics(q: Queryable, userId: number): Promise<UserTopicRow[]> {
  return q<UserTopicRow>("user_topics").where({ user_id: userId }).orderBy("id");
}
