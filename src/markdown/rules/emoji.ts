// Emoji in messages, as the reference renders them: `:name:` and Unicode emoji become
// <span class="emoji emoji-<code>" …>:name:</span>; realm custom emoji become an <img>;
// unknown names stay text. Optional emoticon translation (`:)` → smile) for users who enable it.
import type { MarkdownIt, StateCore, Token } from "./markdownItTypes";
import { EMOTICONS, unicodeEmojiByName, unicodeEmojiByText } from "./emojiData";
import type { RenderContext } from "./context";

// The reference's own logo emoji, served with its static files.
const ZULIP_EMOJI_SRC = "/static/generated/emoji/images/emoji/unicode/zulip.png";

const isNameChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d || c === 0x2b;

const MAX_NAME = 64;

// One emoji as written: a flag (two regional indicators), a keycap, or a pictograph shown as emoji
// (by default, or asked for with U+FE0F) with an optional skin tone, joined by ZWJ to more of them.
// No two parts of the pattern can match the same text, so matching is linear.
const PICTOGRAPH = String.raw`(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F)\uFE0F?\p{Emoji_Modifier}?`;
const EMOJI = new RegExp(
  String.raw`\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|${PICTOGRAPH}(?:\u200D${PICTOGRAPH})*`,
  "gu",
);
const ZWJ = "\u200d";

/** Registers the emoji rules on a markdown-it instance. */
export function useEmoji(md: MarkdownIt): void {
  md.inline.ruler.after("emphasis", "emoji_name", (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
    let end = state.pos + 1;
    const limit = Math.min(state.posMax, state.pos + 1 + MAX_NAME);
    while (end < limit && isNameChar(state.src.charCodeAt(end))) end++;
    if (end === state.pos + 1 || state.src.charCodeAt(end) !== 0x3a) return false;
    const name = state.src.slice(state.pos + 1, end);
    const ctx = (state.env ?? {}) as RenderContext;
    const known = name === "zulip" || ctx.customEmoji?.has(name) || unicodeEmojiByName(name);
    if (!known) return false;
    if (!silent) state.push("emoji", "", 0).meta = { name };
    state.pos = end + 1;
    return true;
  });

  md.renderer.rules.emoji = (tokens, idx, _options, env) => {
    const meta = tokens[idx].meta as { name: string; code?: string };
    return renderEmoji(md, meta.name, env as RenderContext, meta.code);
  };

  // Unicode emoji (and emoticons when enabled) inside plain text tokens.
  md.core.ruler.after("inline", "emoji_unicode", (state) => {
    const emoticons = ((state.env ?? {}) as RenderContext).translateEmoticons === true;
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue;
      const next: Token[] = [];
      for (const token of block.children) {
        if (token.type !== "text") next.push(token);
        else next.push(...splitUnicodeEmoji(state, token, emoticons));
      }
      block.children = next;
    }
  });
}

function splitUnicodeEmoji(state: StateCore, token: Token, emoticons: boolean): Token[] {
  const text = token.content;
  const hits = findEmoji(text, emoticons);
  // The tokens keep the nesting level of the text they replace: the linkify rule after this one finds
  // where a link's content starts by level, and text inside a link must not become a link again.
  if (hits.length === 0) return [token];
  const out: Token[] = [];
  let pos = 0;
  const pushText = (end: number) => {
    if (end <= pos) return;
    const t = new state.Token("text", "", 0);
    t.level = token.level;
    t.content = text.slice(pos, end);
    out.push(t);
  };
  for (const hit of hits) {
    pushText(hit.start);
    const t = new state.Token("emoji", "", 0);
    t.level = token.level;
    t.meta = { name: hit.name };
    out.push(t);
    pos = hit.end;
  }
  pushText(text.length);
  return out;
}

interface Hit {
  start: number;
  end: number;
  name: string;
}

// Every emoji has a code point above U+007F: plain ASCII text (most text) needs no Unicode scan.
// eslint-disable-next-line no-control-regex -- the ASCII range, control characters included
const NON_ASCII = /[^\u0000-\u007f]/;

/** The emoji (and emoticons) in the text, in order, not overlapping. */
function findEmoji(text: string, emoticons: boolean): Hit[] {
  const hits: Hit[] = [];
  if (NON_ASCII.test(text)) {
    for (const match of text.matchAll(EMOJI)) {
      const start = match.index;
      const end = start + match[0].length;
      // Part of a joined (ZWJ) sequence the emoji table does not know: the whole sequence stays text.
      if (text[start - 1] === ZWJ || text[end] === ZWJ) continue;
      const emoji = unicodeEmojiByText(match[0]);
      if (emoji) hits.push({ start, end, name: emoji.name });
    }
  }
  if (!emoticons) return hits;
  hits.push(...findEmoticons(text));
  hits.sort((a, b) => a.start - b.start);
  let last = 0;
  return hits.filter((hit) => {
    if (hit.start < last) return false;
    last = hit.end;
    return true;
  });
}

// An emoticon counts only as a whole word: surrounded by whitespace or the text's ends.
function findEmoticons(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const word of text.matchAll(/\S+/g)) {
    // Own keys only: a word like "constructor" is not an emoticon.
    if (Object.hasOwn(EMOTICONS, word[0]))
      hits.push({ start: word.index, end: word.index + word[0].length, name: EMOTICONS[word[0]] });
  }
  return hits;
}

/** The reference's markup for one emoji name (custom, its logo, or Unicode). */
export function renderEmoji(md: MarkdownIt, name: string, ctx: RenderContext, knownCode?: string): string {
  const esc = md.utils.escapeHtml;
  const title = esc(name.replace(/_/g, " "));
  const custom = ctx.customEmoji?.get(name);
  if (custom) return `<img alt=":${esc(name)}:" class="emoji" src="${esc(custom.url)}" title="${title}">`;
  if (name === "zulip") return `<img alt=":zulip:" class="emoji" src="${ZULIP_EMOJI_SRC}" title="zulip">`;
  const emoji = unicodeEmojiByName(name);
  const code = knownCode ?? emoji?.code;
  if (!code) return esc(`:${name}:`);
  return (
    `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">` + `:${esc(name)}:</span>`
  );
}
