// Alert words: words a user wants to be alerted about. Each change sends the user's clients the
// whole list (`alert_words` event), as the reference does.
import type { Db, Queryable } from "../../db/knex";
import { addAlertWords, listAlertWords, removeAlertWords } from "../../db/alertWords";
import type { UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";

/** The longest alert word, in characters (the reference's 100). */
export const MAX_ALERT_WORD_LENGTH = 100;
/** Alert words one user may have: a bound on what every message of theirs is matched against. */
export const MAX_ALERT_WORDS_PER_USER = 1000;

export function alertWordsState(q: Queryable, user: UserRow): Promise<string[]> {
  return listAlertWords(q, user.id);
}

/** Trimmed, non-empty words; too long ones are refused (nothing is written). */
function cleanWords(words: string[]): string[] {
  const out: string[] = [];
  for (const raw of words) {
    const word = raw.normalize("NFC").trim();
    if (word === "") continue;
    if ([...word].length > MAX_ALERT_WORD_LENGTH)
      throw Errors.invalidParam(
        "alert_words",
        `alert_words[${out.length}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters, MAX_ALERT_WORD_LENGTH)`,
      );
    out.push(word);
  }
  return out;
}

async function change(
  db: Db,
  user: UserRow,
  write: (trx: Queryable) => Promise<void>,
): Promise<{ words: string[]; notifications: Notification[] }> {
  const words = await withTransaction(db, async (trx) => {
    await write(trx);
    const after = await listAlertWords(trx, user.id);
    if (after.length > MAX_ALERT_WORDS_PER_USER)
      throw Errors.badRequest(`Too many alert words: at most ${MAX_ALERT_WORDS_PER_USER} (MAX_ALERT_WORDS_PER_USER)`);
    return after;
  });
  const event = { type: "alert_words", alert_words: words };
  return { words, notifications: [{ realmId: user.realm_id, userIds: [user.id], event }] };
}

export function addUserAlertWords(db: Db, user: UserRow, words: string[]) {
  const clean = cleanWords(words);
  return change(db, user, (trx) => addAlertWords(trx, user.id, clean));
}

export function removeUserAlertWords(db: Db, user: UserRow, words: string[]) {
  const clean = cleanWords(words);
  return change(db, user, (trx) => removeAlertWords(trx, user.id, clean));
}
