// A channel's topics with their newest message id (the index on messages (stream_id, topic, id)
// answers this without reading messages). Each topic is named as its newest message names it: MySQL
// groups case variants together under any one of them, so the name is read from that message.
import type { Queryable } from "./knex";

async function namedByNewest(
  q: Queryable,
  rows: { max_id: number | string }[],
): Promise<{ topic: string; max_id: number }[]> {
  const ids = rows.map((r) => Number(r.max_id));
  const names = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const found = await q("messages")
      .whereIn("id", ids.slice(i, i + 1000))
      .select("id", "topic");
    for (const r of found as { id: number | string; topic: string }[]) names.set(Number(r.id), r.topic);
  }
  return ids.filter((id) => names.has(id)).map((id) => ({ topic: names.get(id)!, max_id: id }));
}

export async function channelTopics(q: Queryable, streamId: number): Promise<{ topic: string; max_id: number }[]> {
  const rows = await q("messages")
    .where({ stream_id: streamId })
    .groupBy("topic")
    .select("topic")
    .max({ max_id: "id" });
  return namedByNewest(q, rows as unknown as { max_id: number | string }[]);
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
    .max({ max_id: "m.id" });
  return namedByNewest(q, rows as unknown as { max_id: number | string }[]);
}
