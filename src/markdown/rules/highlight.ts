// Syntax highlighting with the reference's (Pygments) token classes for the languages people paste
// most in chat; other languages render plain (no new dependency). Each highlighter is one linear
// pass of sticky regexes over the code; adjacent tokens of the same class share one <span>.
export type Highlighter = (code: string) => [cls: string, text: string][];

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Rule = [pattern: RegExp, cls: string | ((match: string, prev: string) => string)];

/** A scanner from ordered sticky (`y`) rules; text no rule matches is emitted unstyled. */
function scanner(sticky: Rule[]): Highlighter {
  return (code) => {
    const out: [string, string][] = [];
    let prevWord = "";
    for (let pos = 0; pos < code.length;) {
      let matched = false;
      for (const [re, cls] of sticky) {
        re.lastIndex = pos;
        const m = re.exec(code);
        if (!m || m[0] === "") continue;
        const name = typeof cls === "string" ? cls : cls(m[0], prevWord);
        out.push([name, m[0]]);
        if (name !== "") prevWord = m[0];
        pos += m[0].length;
        matched = true;
        break;
      }
      if (!matched) out.push(["", code[pos++]]);
    }
    return out;
  };
}

const PY_KEYWORDS = new Set(
  (
    "assert async await break continue del elif else except finally for global if lambda nonlocal pass raise " +
    "return try while with yield def class yield"
  ).split(" "),
);
const PY_WORD_OPERATORS = new Set(["and", "or", "not", "in", "is"]);
const PY_CONSTANTS = new Set(["True", "False", "None"]);
const PY_NAMESPACE = new Set(["import", "from", "as"]);
const PY_PSEUDO = new Set(["self", "cls", "Ellipsis", "NotImplemented"]);
const PY_BUILTINS = new Set(
  (
    "abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict " +
    "dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input " +
    "int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print " +
    "property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip"
  ).split(" "),
);

function pythonName(word: string, prev: string): string {
  if (prev === "def") return "nf";
  if (prev === "class") return "nc";
  if (PY_KEYWORDS.has(word)) return "k";
  if (PY_NAMESPACE.has(word)) return "kn";
  if (PY_CONSTANTS.has(word)) return "kc";
  if (PY_WORD_OPERATORS.has(word)) return "ow";
  if (PY_PSEUDO.has(word)) return "bp";
  if (PY_BUILTINS.has(word)) return "nb";
  return "n";
}

const python = scanner([
  [/#![^\n]*/y, (_m, prev) => (prev === "" ? "ch" : "c1")],
  [/#[^\n]*/y, "c1"],
  [/\s+/y, ""],
  [/[rRbBuUfF]{0,2}"""[^]*?(?:"""|$(?![^]))/y, "s2"],
  [/[rRbBuUfF]{0,2}'''[^]*?(?:'''|$(?![^]))/y, "s1"],
  [/[rRbBuUfF]{0,2}"(?:\\.|[^"\\\n])*"?/y, "s2"],
  [/[rRbBuUfF]{0,2}'(?:\\.|[^'\\\n])*'?/y, "s1"],
  [/@[A-Za-z_][\w.]*/y, "nd"],
  [/[A-Za-z_]\w*/y, pythonName],
  [/0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+/y, "mh"],
  [/\d[\d_]*\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+/y, "mf"],
  [/\d[\d_]*/y, "mi"],
  [/!=|==|<<|>>|:=|->|\*\*|\/\/|[-~+/*%=<>&^|.@]/y, "o"],
  [/[\]{}:(),;[]+/y, "p"],
]);

const tex = scanner([
  [/%[^\n]*/y, "c"],
  [/\\(?:[A-Za-z]+|.)/y, "k"],
  [/[{}]/y, "nb"],
  [/[^\\%{}]+/y, ""],
]);

const HIGHLIGHTERS: Record<string, Highlighter> = { Python: python, TeX: tex };

/** The highlighter for a language display name (see codeBlocks.ts), if we have one. */
export function highlighterFor(languageName: string): Highlighter | null {
  return HIGHLIGHTERS[languageName] ?? null;
}

/** Highlighted HTML: one span per run of same-class tokens, whitespace and plain text unwrapped. */
export function highlight(highlighter: Highlighter, code: string): string {
  const merged: [string, string][] = [];
  for (const [cls, text] of highlighter(code)) {
    const last = merged[merged.length - 1];
    if (last && last[0] === cls) last[1] += text;
    else merged.push([cls, text]);
  }
  return merged
    .map(([cls, text]) => (cls ? `<span class="${cls}">${escapeHtml(text)}</span>` : escapeHtml(text)))
    .join("");
}
