// alert_words: the words a user is alerted about, one row per word (compared by name key).
import type { Queryable } from "./knex";
import { nameKey } from "../names";

export async function listAlertWords(q: Queryable, userId: number): Promise<string[]> {
  const rows = await q("alert_words").where({ user_id: userId }).orderBy("id").select("word");
  return rows.map((r: { word: string }) => r.word);
}

export async function addAlertWords(q: Queryable, userId: number, words: string[]): Promise<void> {
  const existing = new Set(
    (await q("alert_words").where({ user_id: userId }).select("word_key")).map((r: { word_key: string }) => r.word_key),
  );
  for (const word of words) {
    const key = nameKey(word);
    if (existing.has(key)) continue;
    existing.add(key);
    await q("alert_words").insert({ user_id: userId, word, word_key: key });
  }
}

export async function removeAlertWords(q: Queryable, userId: number, words: string[]): Promise<void> {
  if (words.length === 0) return;
  await q("alert_words")
    .where({ user_id: userId })
    .whereIn(
      "word_key",
      words.map((w) => nameKey(w)),
    )
    .delete();
}

/** Ids per `IN (…)` list: well under SQLite's bound on parameters per statement. */
const IDS_PER_STATEMENT = 500;

/** The alert words of these users (lower-cased keys), for flagging a message they receive. */
export async function alertWordsOfUsers(
  q: Queryable,
  userIds: number[],
): Promise<{ user_id: number; word_key: string }[]> {
  const out: { user_id: number; word_key: string }[] = [];
  for (let i = 0; i < userIds.length; i += IDS_PER_STATEMENT) {
    const ids = userIds.slice(i, i + IDS_PER_STATEMENT);
    out.push(...(await q("alert_words").whereIn("user_id", ids).select("user_id", "word_key")));
  }
  return out;
}
