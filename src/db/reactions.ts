// reactions rows. (Custom emoji lookups live in realmEmoji.ts.)
import type { Queryable } from "./knex";

export interface ReactionRow {
  id: number;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export async function findReaction(
  q: Queryable,
  where: { message_id: number; emoji_code: string; reaction_type: string; user_id?: number },
): Promise<ReactionRow | undefined> {
  return q<ReactionRow>("reactions").where(where).orderBy("id").first();
}

export async function insertReaction(q: Queryable, row: Omit<ReactionRow, "id">): Promise<void> {
  await q("reactions").insert(row);
}

export async function deleteReaction(q: Queryable, id: number): Promise<void> {
  await q("reactions").where({ id }).delete();
}

export async function reactionsForMessages(q: Queryable, messageIds: number[]): Promise<ReactionRow[]> {
  if (messageIds.length === 0) return [];
  const out: ReactionRow[] = [];
  for (let i = 0; i < messageIds.length; i += 500) {
    out.push(
      ...(await q<ReactionRow>("reactions")
        .whereIn("message_id", messageIds.slice(i, i + 500))
        .orderBy("id")),
    );
  }
  return out;
}
