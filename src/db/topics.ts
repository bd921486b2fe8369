// A channel's topics with their newest message id (the index on messages (stream_id, topic, id)
// answers this without reading messages).
import type { Queryable } from "./knex";

export async function channelTopics(q: Queryable, streamId: number): Promise<{ topic: string; max_id: number }[]> {
  const rows = await q("messages")
    .where({ stream_id: streamId })
    .groupBy("topic")
    .select("topic")
    .max({ max_id: "id" });
  return (rows as unknown as { topic: string; max_id: number | string }[]).map((r) => ({
    topic: r.topic,
    max_id: Number(r.max_id),
  }));
}

/** The same, counting only the messages the user received (a channel whose history is not shared). */
export async function channelTopicsReceivedBy(
  q: Queryable,
  streamId: number,
  userId: number,
): Promise<{ topic: string; max_id: number }[]> {
  const rows = await q("user_messages as um")
    .join("messages as m", "m.id", "um.message_id")
    .where({ "um.user_id": userId, "m.stream_id": streamId })
    .groupBy("m.topic")
    .select("m.topic as topic")
    .max({ max_id: "m.id" });
  return (rows as unknown as { topic: string; max_id: number | string }[]).map((r) => ({
    topic: r.topic,
    max_id: Number(r.max_id),
  }));
}
