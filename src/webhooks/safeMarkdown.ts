// Markdown-safe text for webhook messages: escaping values, and cutting messages and topics
// to the server's limits without leaving a code fence open.
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from "../limits";
import { joinLines } from "../text";

// `_` only matters at a word edge (intraword underscores never start emphasis), so `:cross_mark:`
// and `story_update` stay readable in the raw Markdown; `$` only in `$$` runs (math), so "$5.00"
// does; `>` only at a line start (a quote), since `<` is what opens HTML and autolinks.
const INLINE_SPECIAL = /[\\`*~[\]<|]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|\$(?=\$)|(?<=\$)\$/gu;

// Cheap pre-checks: a value without any of these characters has nothing the patterns below
// would change (most values: names, titles, commit messages), so it costs one scan.
const INLINE_CANDIDATE = /[\\`*~[\]<|_$]/;
// Indentation is matched with `[^\S\n\r\u2028\u2029]` (whitespace but not a line break), not `\s`:
// with the m flag, `^\s*` would rescan a long run of blank lines from every line start in it.
const LINE_START_CANDIDATE = /^[^\S\n\r\u2028\u2029]*[>#+=\d-]/m;

/**
 * Backslash-escapes characters that would start Markdown formatting (and block markers at line
 * start: headings, list items, setext underlines / rules). The result is plain text in any
 * CommonMark or Zulip renderer: no links, mentions (`@**all**`), emphasis, code, quotes or HTML.
 */
export function escapeMarkdown(text: string): string {
  const inline = INLINE_CANDIDATE.test(text) ? text.replace(INLINE_SPECIAL, "\\$&") : text;
  if (!LINE_START_CANDIDATE.test(inline)) return inline;
  return inline
    .replace(/^([^\S\n\r\u2028\u2029]*)>/gm, "$1\\>")
    .replace(/^([^\S\n\r\u2028\u2029]*)(#{1,6}|[+-]|\d+[.)])(?=\s|$)/gm, (_m, space: string, marker: string) =>
      /^\d/.test(marker) ? `${space}${marker.slice(0, -1)}\\${marker.slice(-1)}` : `${space}\\${marker}`,
    )
    .replace(/^([^\S\n\r\u2028\u2029]*)([=-])(?=\2*[^\S\n\r\u2028\u2029]*$)/gm, "$1\\$2");
}

const MENTION_START = /([@#])(_?)(\*{1,2})/g;
const UNSAFE_LINK = /\]\(\s*(?:<\s*)?(?!https?:|mailto:|#|\/)([a-z][a-z0-9+.-]*:)/gi;
const FENCE_LINE = /^\s{0,3}(`{3,}|~{3,})/;

/** Outside code: mentions (`@**all**`, `@*group*`, `@_**x**`), channel links and non-http(s) links neutralised. */
function neutraliseText(text: string): string {
  return text
    .replace(
      MENTION_START,
      (_m, sigil: string, silent: string, stars: string) =>
        `${sigil}${silent ? "\\_" : ""}${stars.replace(/\*/g, "\\*")}`,
    )
    .replace(UNSAFE_LINK, "]\\($1");
}

/** Splits a line into text and inline-code parts (a backtick run is closed by a run of the same length). */
function neutraliseLine(line: string): string {
  let out = "";
  let rest = line;
  for (;;) {
    const open = /`+/.exec(rest);
    if (!open) return out + neutraliseText(rest);
    const close = rest.indexOf(open[0], open.index + open[0].length);
    const closeIsExact = close >= 0 && rest[close + open[0].length] !== "`";
    if (!closeIsExact) return out + neutraliseText(rest);
    out += neutraliseText(rest.slice(0, open.index)) + rest.slice(open.index, close + open[0].length);
    rest = rest.slice(close + open[0].length);
  }
}

/**
 * A payload's own Markdown (an issue body, a comment) kept as Markdown, but unable to notify
 * anyone or link to a channel or a non-http(s) URL. Code spans and fenced blocks are left as written.
 */
export function neutraliseMarkdown(text: string): string {
  let fence: string | undefined;
  return text
    .split("\n")
    .map((line) => {
      const m = FENCE_LINE.exec(line);
      if (fence !== undefined) {
        if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = undefined;
        return line;
      }
      if (m) {
        fence = m[1];
        return line;
      }
      return neutraliseLine(line);
    })
    .join("\n");
}

/** Link text may contain anything but unbalanced brackets; escape those and formatting. */
export function escapeLinkText(text: string): string {
  return escapeMarkdown(joinLines(text));
}

/** Characters that would end a Markdown link destination early. */
export function escapeUrl(url: string): string {
  return url.replace(/[\s()<>]/g, (c) => (c === "(" ? "%28" : c === ")" ? "%29" : encodeURIComponent(c)));
}

/** Only http(s) URLs become links; anything else (javascript:, data:, relative paths) stays text. */
export function isHttpUrl(url: string): boolean {
  return /^https?:\/\/[^\s/?#]+/i.test(url.trim());
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * The UTF-16 index just past the first `count` code points of `text` (its length when it has fewer).
 * Walks only those code points: spreading a 4 MB message into an array of characters to keep its
 * first 10,000 took a second of the event loop.
 */
export function codePointEnd(text: string, count: number): number {
  let i = 0;
  for (let n = 0; n < count && i < text.length; n++) {
    const high = text.charCodeAt(i);
    const pair = high >= 0xd800 && high <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    i += pair ? 2 : 1;
  }
  return i;
}

/** Cuts to `max` characters (code points) at a line break when possible, closing an open fence. */
export function limitMarkdown(text: string, max = MAX_MESSAGE_LENGTH, note = "[message truncated]"): string {
  if (text.length <= max) return text; // never more code points than UTF-16 units
  if (codePointEnd(text, max) === text.length) return text;
  const reserve = note.length + 16; // room for a closing fence and the note
  let kept = text.slice(0, codePointEnd(text, Math.max(0, max - reserve)));
  const lastBreak = kept.lastIndexOf("\n");
  if (lastBreak > kept.length / 2) kept = kept.slice(0, lastBreak);
  let openFence: string | undefined;
  for (const line of kept.split("\n")) {
    const m = FENCE.exec(line);
    if (!m) continue;
    if (openFence === undefined) openFence = m[1];
    else if (m[1][0] === openFence[0] && m[1].length >= openFence.length && line.trim() === m[1]) openFence = undefined;
  }
  return `${kept.trimEnd()}\n${openFence ? `${openFence}\n` : ""}${note}`;
}

/** Topics over the limit become 57 characters + "..." (the reference server's rule). */
export function limitTopic(topic: string, max = MAX_TOPIC_LENGTH): string {
  const text = topic.replace(/\s+/g, " ").trim();
  if (text.length <= max || codePointEnd(text, max) === text.length) return text;
  return text.slice(0, codePointEnd(text, max - 3)) + "...";
}
