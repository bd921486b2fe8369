// Math as the reference marks it: inline `$$…$$` and ```math blocks through KaTeX (HTML + MathML);
// TeX that KaTeX rejects shows as <span class="tex-error"> with the source. Markdown is not applied
// inside math.
import type Katex from "katex";
import type { MarkdownIt } from "./markdownItTypes";
import { trimEndChars } from "../../text";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// KaTeX's work is bounded by its own limits; maxExpand stops macro bombs.
const KATEX_OPTIONS = { throwOnError: true, maxExpand: 1000, maxSize: 100, strict: "ignore" as const };

// The reference's clients style KaTeX 0.16 markup; KaTeX 0.19 (installed) differs in two ways we
// undo on its node tree before serialising: layout classes gained a `katex-` prefix (`base` →
// `katex-base`…), and italic corrections are rounded to 4 decimals (0.16 wrote the metric as is).
const PREFIXED = new Set(
  (
    "base strut sizing fix newline tag stretchy inner vbox underline thinbox sout smash rule root overline " +
    "overlay hline hdashline accent"
  ).split(" "),
);

interface KatexNode {
  classes?: string[];
  children?: KatexNode[];
  italic?: number;
  text?: string;
  style?: Record<string, string>;
  toMarkup(): string;
}

function toLegacyMarkup(node: KatexNode): void {
  if (node.classes) {
    node.classes = node.classes.map((name) =>
      PREFIXED.has(name.slice(6)) && name.startsWith("katex-") ? name.slice(6) : name,
    );
  }
  if (typeof node.italic === "number" && node.italic > 0 && typeof node.text === "string") {
    node.style = { marginRight: `${node.italic}em`, ...node.style };
    node.italic = 0;
  }
  for (const child of node.children ?? []) toLegacyMarkup(child);
}

interface LoadedKatex {
  katex: typeof Katex;
  renderToDomTree?: (src: string, opts: object) => KatexNode;
}

// katex is a large module: it is loaded on the first math a message has, not when the server starts.
let loaded: LoadedKatex | undefined;
function loadKatex(): LoadedKatex {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
    const katex = require("katex") as typeof Katex;
    const { __renderToDomTree } = katex as unknown as { __renderToDomTree?: LoadedKatex["renderToDomTree"] };
    loaded = { katex, renderToDomTree: __renderToDomTree };
  }
  return loaded;
}

function tex(source: string, displayMode: boolean): string | null {
  try {
    const { katex, renderToDomTree } = loadKatex();
    const options = { ...KATEX_OPTIONS, displayMode };
    if (!renderToDomTree) return katex.renderToString(source, options);
    const tree = renderToDomTree(source, options);
    toLegacyMarkup(tree);
    return tree.toMarkup();
  } catch {
    return null;
  }
}

export function renderDisplayMath(content: string): string {
  const source = trimEndChars(content, "\n");
  const html = tex(source, true);
  return `<p>${html ?? `<span class="tex-error">${escapeHtml(source)}</span>`}</p>\n`;
}

/** Inline `$$…$$`: one line, not starting with `_`/`$` (so `$$_$$` stays text), `\$` escapes. */
export function useInlineMath(md: MarkdownIt): void {
  md.inline.ruler.after("escape", "math_inline", (state, silent) => {
    const src = state.src;
    const start = state.pos;
    if (src.charCodeAt(start) !== 0x24 || src.charCodeAt(start + 1) !== 0x24) return false;
    if (start > 0 && (src[start - 1] === "\\" || src[start - 1] === "$")) return false;
    const first = src[start + 2];
    if (first === undefined || first === "_" || first === "$" || first === "\n") return false;
    let pos = start + 2;
    while (pos < state.posMax) {
      const ch = src[pos];
      if (ch === "\n") return false;
      if (ch === "\\") pos += 2;
      else if (ch === "$") break;
      else pos++;
    }
    if (pos >= state.posMax || src[pos + 1] !== "$" || src[pos + 2] === "$") return false;
    if (!silent) state.push("math_inline", "", 0).content = src.slice(start + 2, pos);
    state.pos = pos + 2;
    return true;
  });
  md.renderer.rules.math_inline = (tokens, idx) => {
    const source = tokens[idx].content;
    return tex(source, false) ?? `<span class="tex-error">${escapeHtml(`$$${source}$$`)}</span>`;
  };
}
