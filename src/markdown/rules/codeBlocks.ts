// Code blocks in the reference's markup: <div class="codehilite" data-code-language="<Name>">
// <pre><span></span><code>…</code></pre></div>, trailing whitespace trimmed from each line.
// Languages we can highlight get the reference's (Pygments) token classes; others stay plain.
import { highlight, highlighterFor } from "./highlight";
import { trimEndChars } from "../../text";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// The reference shows the lexer's display name; aliases people type map to it.
const LANGUAGE_NAMES: Record<string, string> = {};
const NAMED: [string, string[]][] = [
  ["Python", ["python", "py", "python3", "py3", "sage", "bazel", "starlark"]],
  ["JavaScript", ["javascript", "js", "mjs", "cjs"]],
  ["TypeScript", ["typescript", "ts"]],
  ["TeX", ["tex", "latex"]],
  ["Bash", ["bash", "sh", "shell", "zsh", "ksh"]],
  ["Console", ["console", "shell-session"]],
  ["JSON", ["json"]],
  ["HTML", ["html"]],
  ["XML", ["xml"]],
  ["CSS", ["css"]],
  ["SCSS", ["scss"]],
  ["Java", ["java"]],
  ["Kotlin", ["kotlin", "kt"]],
  ["Scala", ["scala"]],
  ["C", ["c", "h"]],
  ["C++", ["cpp", "c++", "cxx", "hpp"]],
  ["C#", ["csharp", "c#", "cs"]],
  ["Go", ["go", "golang"]],
  ["Rust", ["rust", "rs"]],
  ["Ruby", ["ruby", "rb"]],
  ["PHP", ["php"]],
  ["Perl", ["perl", "pl"]],
  ["Haskell", ["haskell", "hs"]],
  ["Elixir", ["elixir", "ex", "exs"]],
  ["Erlang", ["erlang"]],
  ["Swift", ["swift"]],
  ["SQL", ["sql"]],
  ["YAML", ["yaml", "yml"]],
  ["TOML", ["toml"]],
  ["INI", ["ini", "cfg", "dosini"]],
  ["Diff", ["diff", "udiff", "patch"]],
  ["Markdown", ["markdown", "md"]],
  ["Docker", ["docker", "dockerfile"]],
  ["Makefile", ["make", "makefile", "mf", "bsdmake"]],
  ["Lua", ["lua"]],
  ["R", ["r", "splus", "s"]],
  ["Text only", ["text", "plain", "plaintext"]],
];
for (const [name, aliases] of NAMED) for (const alias of aliases) LANGUAGE_NAMES[alias] = name;

/** The language name the reference puts in data-code-language (unknown ones as written). */
export function codeLanguageName(lang: string): string {
  return LANGUAGE_NAMES[lang.toLowerCase()] ?? lang;
}

// A first line like `#!python`, `#!/usr/bin/python` or `:::python` picks the highlighter of an
// unlabelled block (the line itself stays, as in the reference).
const SHEBANG = /^(?:#!(?:\/[\w./-]*\/)?|:::)(\w+)/;

export function renderCodeBlock(content: string, lang: string): string {
  const lines = content
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/^\n+/, "");
  const code = `${trimEndChars(lines, "\n")}\n`;
  const attr = lang ? ` data-code-language="${escapeHtml(codeLanguageName(lang))}"` : "";
  const shebang = lang ? null : SHEBANG.exec(code);
  const highlighter = highlighterFor(codeLanguageName(lang || (shebang ? shebang[1] : "")));
  const body = highlighter ? highlight(highlighter, code) : escapeHtml(code);
  return `<div class="codehilite"${attr}><pre><span></span><code>${body}</code></pre></div>\n`;
}
