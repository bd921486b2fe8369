// muted_users: who muted whom, and when.
import { cachedRead, cacheTag, invalidate } from "./cache";
import type { Queryable } from "./knex";
import { FLAG_BITS, setUserMessageFlag } from "./messages";

export interface MutedUserRow {
  id: number;
  user_id: number;
  muted_user_id: number;
  date_muted: number;
}

export async function findMute(q: Queryable, userId: number, mutedUserId: number): Promise<MutedUserRow | undefined> {
  return q<MutedUserRow>("muted_users").where({ user_id: userId, muted_user_id: mutedUserId }).first();
}

export async function insertMute(q: Queryable, userId: number, mutedUserId: number, when: number): Promise<void> {
  await q("muted_users").insert({ user_id: userId, muted_user_id: mutedUserId, date_muted: when });
  await invalidate(q, [cacheTag.mutesOf(mutedUserId)]);
}

export async function deleteMute(q: Queryable, userId: number, mutedUserId: number): Promise<number> {
  const deleted = await q("muted_users").where({ user_id: userId, muted_user_id: mutedUserId }).delete();
  await invalidate(q, [cacheTag.mutesOf(mutedUserId)]);
  return deleted;
}

export async function listMutes(q: Queryable, userId: number): Promise<MutedUserRow[]> {
  return q<MutedUserRow>("muted_users").where({ user_id: userId }).orderBy("id");
}

/** Of `candidateIds`, those who muted `senderId`. */
export async function usersWhoMuted(q: Queryable, senderId: number, candidateIds: number[]): Promise<number[]> {
  if (candidateIds.length === 0) return [];
  // Cached per sender: everyone who muted them (few), then narrowed to the candidates.
  const muters = await cachedRead(
    q,
    "mutedBy",
    String(senderId),
    () => [cacheTag.mutesOf(senderId)],
    async () => {
      const rows = await q("muted_users").where({ muted_user_id: senderId }).select("user_id");
      return rows.map((r: { user_id: number }) => r.user_id);
    },
  );
  if (!muters || muters.length === 0) return [];
  const candidates = new Set(candidateIds);
  return muters.filter((id) => candidates.has(id));
}

/** Sets the read flag on every unread message from `senderId` the user has; returns their ids. */
export async function markReadFromSender(q: Queryable, userId: number, senderId: number): Promise<number[]> {
  const rows = await q("user_messages as um")
    .join("messages as m", "m.id", "um.message_id")
    .where({ "um.user_id": userId, "m.sender_id": senderId })
    .whereRaw("(um.flags & ?) = 0", [FLAG_BITS.read])
    .select("um.message_id");
  const messageIds: number[] = rows.map((r: { message_id: number }) => Number(r.message_id)).sort((a, b) => a - b);
  await setUserMessageFlag(q, userId, messageIds, FLAG_BITS.read, true);
  return messageIds;
}
