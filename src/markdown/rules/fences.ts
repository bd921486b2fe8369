// Fenced blocks as the reference reads them: ``` or ~~~ fences closed by the very same fence
// (so a longer inner fence stays content), whose first word picks the block:
//   quote   → <blockquote> of the parsed content
//   spoiler → the reference's spoiler block (header = rest of the fence line)
//   math    → display math through KaTeX
//   other   → a code block (<div class="codehilite">) with the language the reference names.
// Indented code blocks render as code blocks too.
import type { MarkdownIt, StateBlock } from "./markdownItTypes";
import { renderCodeBlock } from "./codeBlocks";
import { renderDisplayMath } from "./math";

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

interface Fence {
  marker: string;
  info: string;
}

/** The fence opening at `line`, if the line is one (the reference forbids the marker in the info). */
function fenceAt(state: StateBlock, line: number): Fence | null {
  if (state.sCount[line] - state.blkIndent >= 4) return null;
  const start = state.bMarks[line] + state.tShift[line];
  const max = state.eMarks[line];
  const ch = state.src.charCodeAt(start);
  if (ch !== 0x60 /* ` */ && ch !== 0x7e /* ~ */) return null;
  const end = state.skipChars(start, ch);
  if (end - start < 3) return null;
  const info = state.src.slice(end, max);
  if (info.includes(String.fromCharCode(ch))) return null;
  return { marker: state.src.slice(start, end), info: info.trim() };
}

function isClosing(state: StateBlock, line: number, marker: string): boolean {
  if (state.sCount[line] - state.blkIndent >= 4) return false;
  const text = state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
  return text.trimEnd() === marker;
}

const kindOf = (info: string) =>
  info
    .split(/\s/, 1)[0]
    .replace(/^[{.]+/, "")
    .toLowerCase();
const CONTAINERS = new Set(["quote", "spoiler"]);

/** The line that closes the fence opened at `startLine` (endLine when unclosed). */
function closingLine(state: StateBlock, startLine: number, endLine: number, fence: Fence): number {
  const container = CONTAINERS.has(kindOf(fence.info));
  const open: string[] = []; // fences opened inside a quote/spoiler, innermost last
  for (let line = startLine + 1; line < endLine; line++) {
    const nonBlank = state.bMarks[line] + state.tShift[line] < state.eMarks[line];
    if (nonBlank && state.sCount[line] < state.blkIndent) return line;
    const inner = open[open.length - 1];
    if (inner !== undefined) {
      if (isClosing(state, line, inner)) open.pop();
      continue;
    }
    if (isClosing(state, line, fence.marker)) return line;
    const nested = container ? fenceAt(state, line) : null;
    if (nested && nested.info !== "") open.push(nested.marker);
  }
  return endLine;
}

/** Parses lines [from, to) as blocks inside the current container. */
function tokenizeInside(state: StateBlock, from: number, to: number, parentType: string): void {
  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = parentType as typeof state.parentType;
  state.lineMax = to;
  state.md.block.tokenize(state, from, to);
  state.parentType = oldParent;
  state.lineMax = oldLineMax;
}

const fenceRule: BlockRule = (state, startLine, endLine, silent) => {
  const fence = fenceAt(state, startLine);
  if (!fence) return false;
  if (silent) return true;
  const close = closingLine(state, startLine, endLine, fence);
  const next = close < endLine && isClosing(state, close, fence.marker) ? close + 1 : close;
  const kind = kindOf(fence.info);
  if (kind === "quote") {
    state.push("blockquote_open", "blockquote", 1).map = [startLine, next];
    tokenizeInside(state, startLine + 1, close, "blockquote");
    state.push("blockquote_close", "blockquote", -1);
  } else if (kind === "spoiler") {
    const header = fence.info.slice(fence.info.split(/\s/, 1)[0].length).trim();
    state.push("spoiler_open", "div", 1);
    if (header) {
      state.push("paragraph_open", "p", 1);
      const inline = state.push("inline", "", 0);
      inline.content = header;
      inline.map = [startLine, startLine + 1];
      inline.children = [];
      state.push("paragraph_close", "p", -1);
    }
    state.push("spoiler_content", "div", 0);
    tokenizeInside(state, startLine + 1, close, "blockquote");
    state.push("spoiler_close", "div", -1);
  } else {
    const token = state.push(kind === "math" ? "math_block" : "fence", "code", 0);
    token.info = fence.info;
    token.markup = fence.marker;
    token.content = state.getLines(startLine + 1, close, state.sCount[startLine], true);
    token.map = [startLine, next];
  }
  state.line = next;
  return true;
};

export function useFences(md: MarkdownIt): void {
  md.block.ruler.at("fence", fenceRule, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.renderer.rules.fence = (tokens, idx) => renderCodeBlock(tokens[idx].content, kindOf(tokens[idx].info));
  md.renderer.rules.code_block = (tokens, idx) => renderCodeBlock(tokens[idx].content, "");
  md.renderer.rules.math_block = (tokens, idx) => renderDisplayMath(tokens[idx].content);
  md.renderer.rules.spoiler_open = () => '<div class="spoiler-block"><div class="spoiler-header">\n';
  md.renderer.rules.spoiler_content = () => '</div><div class="spoiler-content" aria-hidden="true">\n';
  md.renderer.rules.spoiler_close = () => "</div></div>\n";
}
