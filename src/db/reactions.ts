// reactions rows. (Custom emoji lookups live in realmEmoji.ts.)
import { cachesOf, cacheTag, invalidate } from "./cache";
import type { Queryable } from "./knex";

export interface ReactionRow {
  id: number;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/** A message's reactions as cached: the list (often empty) and the message it belongs to. */
interface MessageReactions {
  messageId: number;
  rows: readonly ReactionRow[];
}

const reactionTags = (messageId: number) => [cacheTag.reactions(messageId)];

export async function findReaction(
  q: Queryable,
  where: { message_id: number; emoji_code: string; reaction_type: string; user_id?: number },
): Promise<ReactionRow | undefined> {
  return q<ReactionRow>("reactions").where(where).orderBy("id").first();
}

export async function insertReaction(q: Queryable, row: Omit<ReactionRow, "id">): Promise<void> {
  await q("reactions").insert(row);
  await invalidate(q, reactionTags(row.message_id));
}

export async function deleteReaction(q: Queryable, reaction: Pick<ReactionRow, "id" | "message_id">): Promise<void> {
  await q("reactions").where({ id: reaction.id }).delete();
  await invalidate(q, reactionTags(reaction.message_id));
}

/**
 * The reactions of these messages, each message's in the order they were added. Every message read
 * asks for its reactions, and most messages have none: the lists, empty ones too, are cached per
 * message, so a page of messages read again needs no query for them.
 */
export async function reactionsForMessages(q: Queryable, messageIds: number[]): Promise<ReactionRow[]> {
  if (messageIds.length === 0) return [];
  const keys = [...new Set(messageIds)].map(String);
  const found = await cachesOf(q).readMany<MessageReactions>(
    "reactionsByMessage",
    keys,
    (entry) => reactionTags(entry.messageId),
    async (missing) => {
      const lists = new Map(missing.map((key) => [key, [] as ReactionRow[]]));
      for (let i = 0; i < missing.length; i += 500) {
        const rows = await q<ReactionRow>("reactions")
          .whereIn("message_id", missing.slice(i, i + 500).map(Number))
          .orderBy("id");
        for (const row of rows) lists.get(String(row.message_id))!.push(Object.freeze(row));
      }
      return new Map(
        [...lists].map(([key, rows]) => [key, { messageId: Number(key), rows: Object.freeze(rows) }] as const),
      );
    },
  );
  return keys.flatMap((key) => found.get(key)?.rows ?? []);
}
