// The `search` narrow's condition, answered by each database's full-text index (see the migration
// 20261201006001): FTS5's `messages_fts` on SQLite, the `messages_search_index` FULLTEXT index on
// MySQL/MariaDB. Both index topic and content; every term (a word, or a phrase of words) must match.
import type { Knex } from "knex";
import { isMysql } from "./collation";

/** One term: its words, letters and digits only (more than one word: a phrase). */
export type SearchTerm = string[];

/** FTS5 query: each term a quoted string (a phrase when it has several words), all of them required. */
function fts5Query(terms: SearchTerm[]): string {
  return terms.map((words) => `"${words.join(" ").replace(/"/g, '""')}"`).join(" AND ");
}

/** MySQL boolean-mode query: `+word` or `+"a phrase"` per term. */
function booleanModeQuery(terms: SearchTerm[]): string {
  return terms.map((words) => (words.length === 1 ? `+${words[0]}` : `+"${words.join(" ")}"`)).join(" ");
}

/** Restricts a query over `messages as m` to the messages every term matches. */
export function whereMatches(query: Knex.QueryBuilder, knex: Knex, terms: SearchTerm[]): void {
  if (terms.length === 0) return;
  if (isMysql(knex)) {
    query.whereRaw("MATCH (m.topic, m.content) AGAINST (? IN BOOLEAN MODE)", [booleanModeQuery(terms)]);
  } else {
    query.whereRaw("m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)", [fts5Query(terms)]);
  }
}
