// Inline details where the reference's dialect differs from CommonMark:
// - code spans keep their spaces (`` ` a ` `` is " a ");
// - strikethrough is exactly `~~` (longer tilde runs are text) and renders as <del>;
// - `***x***` is <strong><em>x</em></strong>;
// - bare URLs are linked only as whole words: after a space, line start or one of ' " ( , : <
//   and followed only by punctuation up to a space or the end (so `src=http://x<b>` stays text);
// - paragraphs keep their trailing spaces.
import type { MarkdownIt, StateCore, StateInline, Token } from "./markdownItTypes";
import { trimEndChars } from "../../text";

type InlineRule = (state: StateInline, silent: boolean) => boolean;

function ruleFn(md: MarkdownIt, name: string): InlineRule {
  const rules = (md.inline.ruler as unknown as { __rules__: { name: string; fn: InlineRule }[] }).__rules__;
  return rules.find((rule) => rule.name === name)!.fn;
}

function keepCodeSpaces(md: MarkdownIt): void {
  const backticks = ruleFn(md, "backticks");
  md.inline.ruler.at("backticks", (state, silent) => {
    const start = state.pos;
    if (!backticks(state, silent)) return false;
    const token = state.tokens[state.tokens.length - 1];
    if (!silent && token?.type === "code_inline") {
      const fence = token.markup.length;
      token.content = state.src.slice(start + fence, state.pos - fence).replace(/\n/g, " ");
    }
    return true;
  });
}

function exactStrikethrough(md: MarkdownIt): void {
  const strikethrough = ruleFn(md, "strikethrough");
  md.inline.ruler.at("strikethrough", (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x7e /* ~ */) return false;
    let end = state.pos;
    while (end < state.posMax && state.src.charCodeAt(end) === 0x7e) end++;
    if (end - state.pos === 2) return strikethrough(state, silent);
    if (!silent) state.pending += state.src.slice(state.pos, end);
    state.pos = end;
    return true;
  });
  md.renderer.rules.s_open = () => "<del>";
  md.renderer.rules.s_close = () => "</del>";
}

/** `***x***`: markdown-it nests <em><strong>; the reference nests <strong><em>. */
function strongOutside(children: Token[]): void {
  for (let i = 0; i + 1 < children.length; i++) {
    if (children[i].type !== "em_open" || children[i + 1].type !== "strong_open") continue;
    let depth = 0;
    let close = -1;
    for (let j = i + 1; j < children.length; j++) {
      if (children[j].type === "strong_open") depth++;
      if (children[j].type === "strong_close" && --depth === 0) {
        close = j;
        break;
      }
    }
    if (close < 0 || children[close + 1]?.type !== "em_close") continue;
    for (const [a, b] of [
      [i, i + 1],
      [close, close + 1],
    ]) {
      [children[a], children[b]] = [children[b], children[a]];
    }
  }
}

const LINK_BEFORE = /[\s'"(,:<]/;
const LINK_AFTER_PUNCTUATION = /['"),:;<>.!?]/;

function isLinkifyOpen(token: Token): boolean {
  return token.type === "link_open" && token.markup === "linkify";
}

/** Whether the linkified URL between children[open] and children[close] stands as a whole word. */
function standsAlone(children: Token[], open: number, close: number): boolean {
  const prev = children[open - 1];
  if (prev?.type === "text" && prev.content !== "" && !LINK_BEFORE.test(prev.content[prev.content.length - 1])) {
    return false;
  }
  const next = children[close + 1];
  if (next?.type !== "text") return true;
  for (const ch of next.content) {
    if (/\s/.test(ch)) return true;
    if (!LINK_AFTER_PUNCTUATION.test(ch)) return false;
  }
  return children[close + 2] === undefined || children[close + 2].type === "softbreak";
}

function unlinkEmbeddedUrls(state: StateCore, children: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < children.length; i++) {
    const token = children[i];
    const close = isLinkifyOpen(token)
      ? children.indexOf(children.find((t, j) => j > i && t.type === "link_close")!)
      : -1;
    if (close < 0 || standsAlone(children, i, close)) {
      out.push(token);
      continue;
    }
    const text = new state.Token("text", "", 0);
    text.content = children
      .slice(i + 1, close)
      .map((t) => t.content)
      .join("");
    out.push(text);
    i = close;
  }
  return out;
}

/** Paragraph text keeps the trailing spaces of its last line. */
function keepTrailingSpaces(state: StateCore, lines: string[]): void {
  const tokens = state.tokens;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== "inline" || tokens[i - 1].type !== "paragraph_open" || !token.map) continue;
    const last = lines[token.map[1] - 1] ?? "";
    const trailing = last.slice(trimEndChars(last, " \t").length);
    if (trailing && !token.content.endsWith(trailing)) token.content += trailing;
  }
}

type CoreRule = (state: StateCore) => void;

/**
 * markdown-it's linkify rule tests each paragraph's whole source first (link destinations
 * included, so a message of `[text](url)` links always passes, through linkify-it's costly URL
 * pattern), and then each of its text tokens. Only a text token that passes is ever linkified, so
 * when none does the rule has nothing to do and is skipped.
 */
function linkifyOnlyWithCandidates(md: MarkdownIt): void {
  const rules = (md.core.ruler as unknown as { __rules__: { name: string; fn: CoreRule }[] }).__rules__;
  const linkify = rules.find((rule) => rule.name === "linkify")!.fn;
  const hasCandidate = (block: Token) =>
    block.type === "inline" &&
    block.children !== null &&
    block.children.some((t) => t.type === "text" && md.linkify.test(t.content));
  md.core.ruler.at("linkify", (state) => {
    if (state.tokens.some(hasCandidate)) linkify(state);
  });
}

export function useInlineDialect(md: MarkdownIt): void {
  keepCodeSpaces(md);
  linkifyOnlyWithCandidates(md);
  exactStrikethrough(md);
  md.core.ruler.after("block", "trailing_spaces", (state) => {
    if (!state.inlineMode) keepTrailingSpaces(state, state.src.split("\n"));
  });
  md.core.ruler.after("linkify", "reference_inline_dialect", (state) => {
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue;
      block.children = block.children.filter((t) => t.type !== "text" || t.content !== "");
      strongOutside(block.children);
      block.children = unlinkEmbeddedUrls(state, block.children);
    }
  });
}
