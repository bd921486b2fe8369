// The `search` narrow operator: its operand parsed into bounded full-text terms (words, and phrases
// in double quotes), and the `match_content` / `match_subject` highlights the reference adds to each
// message found: `<span class="highlight">` around the matched words.
import type { SearchTerm } from "../../db/messageSearch";
import { Errors } from "../../errors";
import { MAX_SEARCH_QUERY_LENGTH, MAX_SEARCH_TERMS } from "../../limits";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const WORD = /[\p{L}\p{N}_]+/gu;

/** Terms of a search operand; empty when it holds no word (then it matches every message). */
export function parseSearchTerms(operand: unknown): SearchTerm[] {
  const text = typeof operand === "string" ? operand : String(operand ?? "");
  if ([...text].length > MAX_SEARCH_QUERY_LENGTH)
    throw Errors.badRequest(
      `Search is too long: at most ${MAX_SEARCH_QUERY_LENGTH} characters (MAX_SEARCH_QUERY_LENGTH)`,
    );
  const terms: SearchTerm[] = [];
  // "a phrase" stays together; anything else splits on white space. Each piece keeps its words only,
  // as both indexes tokenize them; a piece of several words (don't, e-mail) is a phrase.
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    // A word of underscores alone is no token to either index (it would match nothing).
    const words = ((match[1] ?? match[2]).toLowerCase().match(WORD) ?? []).filter((w) => /[\p{L}\p{N}]/u.test(w));
    if (words.length > 0) terms.push(words);
  }
  if (terms.length > MAX_SEARCH_TERMS)
    throw Errors.badRequest(`Search has too many words: at most ${MAX_SEARCH_TERMS} (MAX_SEARCH_TERMS)`);
  return terms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One pattern for all terms: whole words, a phrase's words with anything but words between them. */
function termsPattern(terms: SearchTerm[]): RegExp | undefined {
  if (terms.length === 0) return undefined;
  const alternatives = terms.map((words) => words.map(escapeRegExp).join("[^\\p{L}\\p{N}_]+"));
  // Not inside an HTML entity (`&amp;`, `&#39;`): its name follows `&` or `#`.
  return new RegExp(`(?<![\\p{L}\\p{N}_&#])(?:${alternatives.join("|")})(?![\\p{L}\\p{N}_])`, "giu");
}

function highlightText(text: string, pattern: RegExp): string {
  return text.replace(pattern, (found) => `<span class="highlight">${found}</span>`);
}

/** The message's HTML with the matches highlighted in its text (never inside a tag). */
export function highlightHtml(html: string, terms: SearchTerm[]): string {
  const pattern = termsPattern(terms);
  if (!pattern) return html;
  // One pass: text runs are highlighted, tags copied as they are.
  let out = "";
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf("<", at);
    const textEnd = open === -1 ? html.length : open;
    out += highlightText(html.slice(at, textEnd), pattern);
    if (open === -1) break;
    const close = html.indexOf(">", open);
    const tagEnd = close === -1 ? html.length : close + 1;
    out += html.slice(open, tagEnd);
    at = tagEnd;
  }
  return out;
}

/** The topic, HTML-escaped, with the matches highlighted. */
export function highlightTopic(topic: string, terms: SearchTerm[]): string {
  return highlightHtml(escapeHtml(topic), terms);
}
