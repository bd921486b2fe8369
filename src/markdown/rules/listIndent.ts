// The reference nests a list item under the previous one when it is indented by at least two
// spaces, even where CommonMark needs more (under "1. " an item needs 3). Before parsing, such
// nested items (and their continuation lines) are shifted to the parent's content column, so
// markdown-it nests them as the reference does. Fenced and indented code is left alone.
// One pass over the lines.
import type { MarkdownIt, StateBlock } from "./markdownItTypes";

const ITEM = /^( *)(\d{1,9}[.)]|[*+-])( +|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface OpenItem {
  indent: number; // as written
  shift: number; // spaces added to this item's lines
  content: number; // column of its content after the shift
}

export function nestListsByTwoSpaces(src: string): string {
  // Only an item indented by spaces, on a line after the first, can be shifted.
  if (!src.includes("\n ")) return src;
  const lines = src.split("\n");
  const open: OpenItem[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMatch && line.trim() === fence) fence = null;
      continue;
    }
    if (fenceMatch && open.length === 0) {
      fence = fenceMatch[1];
      continue;
    }
    if (line.trim() === "") continue;
    const indent = line.length - line.trimStart().length;
    const item = ITEM.exec(line);
    while (open.length > 0 && open[open.length - 1].indent >= indent) open.pop();
    const parent = open[open.length - 1];
    if (!item) {
      if (!parent) open.length = 0;
      else if (parent.shift > 0) lines[i] = " ".repeat(parent.shift) + line;
      continue;
    }
    if (!parent && indent >= 4) continue; // an indented code block, not a list
    const column = parent ? Math.max(indent + parent.shift, parent.content) : indent;
    const shift = column - indent;
    if (shift > 0) lines[i] = " ".repeat(shift) + line;
    open.push({ indent, shift, content: column + item[2].length + Math.max(item[3].length, 1) });
  }
  return lines.join("\n");
}

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/**
 * Lists as the reference forms them: any ordered item may start a list right after a paragraph line
 * (CommonMark allows only "1."), and a nested list follows its parent's text without a line break.
 */
export function useReferenceLists(md: MarkdownIt): void {
  const rules = (md.block.ruler as unknown as { __rules__: { name: string; fn: BlockRule }[] }).__rules__;
  const list = rules.find((rule) => rule.name === "list")!.fn;
  md.block.ruler.at(
    "list",
    (state, startLine, endLine, silent) => {
      if (!(silent && state.parentType === "paragraph")) return list(state, startLine, endLine, silent);
      const parentType = state.parentType;
      state.parentType = "list";
      try {
        return list(state, startLine, endLine, silent);
      } finally {
        state.parentType = parentType;
      }
    },
    { alt: ["paragraph", "reference", "blockquote"] },
  );
  for (const name of ["bullet_list_open", "ordered_list_open"]) {
    md.renderer.rules[name] = (tokens, idx, options, _env, self) => {
      const html = self.renderToken(tokens, idx, options);
      return tokens[idx - 1]?.hidden ? html.replace(/^\n/, "") : html;
    };
  }
}
