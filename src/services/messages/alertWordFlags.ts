// The `has_alert_word` flag: a message's recipients whose alert words occur in its content.
// A word matches case-insensitively (both sides compared by name key, as the words are stored)
// and only as a whole word: the characters next to it must not be letters, digits, combining
// marks or `_` (so "deploy" matches "Deploy!" and "(deploy)" but not "redeploy" or "deploys").
// Phrases match the same way. The content is scanned once with an Aho-Corasick automaton of the
// recipients' words, so the cost is the content's length plus the words' total length (each
// user has at most MAX_ALERT_WORDS_PER_USER words of at most MAX_ALERT_WORD_LENGTH characters),
// not their product.
import { alertWordsOfUsers } from "../../db/alertWords";
import type { Queryable } from "../../db/knex";
import { FLAG_BITS } from "../../db/messages";
import { nameKey } from "../../names";

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}_]/u;

/** Recipients (of `userIds`) whose alert words occur in `content`, with the flag bit. */
export async function alertWordFlagsByUser(
  q: Queryable,
  userIds: number[],
  content: string,
): Promise<Map<number, number>> {
  const flags = new Map<number, number>();
  if (userIds.length === 0 || content.trim() === "") return flags;
  const rows = await alertWordsOfUsers(q, userIds);
  if (rows.length === 0) return flags;
  const usersByWord = new Map<string, number[]>();
  for (const { user_id, word_key } of rows) {
    const users = usersByWord.get(word_key);
    if (users) users.push(user_id);
    else usersByWord.set(word_key, [user_id]);
  }
  for (const word of matchingWords([...usersByWord.keys()], content))
    for (const userId of usersByWord.get(word)!) flags.set(userId, FLAG_BITS.has_alert_word);
  return flags;
}

/** The words (name keys) that occur in the text as whole words; one pass over the text. */
export function matchingWords(words: string[], text: string): Set<string> {
  const found = new Set<string>();
  const automaton = buildAutomaton(words);
  const chars = Array.from(nameKey(text));
  const isWordAt = (i: number) => i >= 0 && i < chars.length && WORD_CHARACTER.test(chars[i]);
  let state = 0;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    while (state !== 0 && !automaton.next[state].has(ch)) state = automaton.fail[state];
    state = automaton.next[state].get(ch) ?? 0;
    // Every word ending here: this state's, then its suffixes' (at most one per word length).
    for (let s = automaton.word[state] >= 0 ? state : automaton.output[state]; s > 0; s = automaton.output[s]) {
      const id = automaton.word[s];
      const start = i - automaton.lengths[id] + 1;
      if (!isWordAt(start - 1) && !isWordAt(i + 1)) found.add(words[id]);
    }
  }
  return found;
}

interface Automaton {
  /** Transitions per state (state 0 is the root). */
  next: Map<string, number>[];
  /** The longest proper suffix of the state's string that is also a state. */
  fail: number[];
  /** The word (index) that ends exactly at the state, or -1. */
  word: number[];
  /** The nearest suffix state (other than itself) where a word ends, or 0. */
  output: number[];
  /** Each word's length in code points. */
  lengths: number[];
}

function buildAutomaton(words: string[]): Automaton {
  const a: Automaton = { next: [new Map()], fail: [0], word: [-1], output: [0], lengths: [] };
  words.forEach((w, id) => {
    const chars = Array.from(w);
    a.lengths.push(chars.length);
    let state = 0;
    for (const ch of chars) {
      let to = a.next[state].get(ch);
      if (to === undefined) {
        to = a.next.length;
        a.next.push(new Map());
        a.fail.push(0);
        a.word.push(-1);
        a.output.push(0);
        a.next[state].set(ch, to);
      }
      state = to;
    }
    if (chars.length > 0) a.word[state] = id;
  });
  // Breadth first, so a state's suffix states are done before it.
  const queue = [...a.next[0].values()];
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head];
    for (const [ch, to] of a.next[state]) {
      let f = a.fail[state];
      while (f !== 0 && !a.next[f].has(ch)) f = a.fail[f];
      const target = a.next[f].get(ch);
      a.fail[to] = target !== undefined && target !== to ? target : 0;
      a.output[to] = a.word[a.fail[to]] >= 0 ? a.fail[to] : a.output[a.fail[to]];
      queue.push(to);
    }
  }
  return a;
}
