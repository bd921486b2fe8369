// Jira wiki markup (what Jira webhooks carry in comment bodies and descriptions) → Markdown,
// so a comment reads in chat as it did in Jira. Only the constructs people actually type are
// converted; anything else passes through as text. Code and noformat blocks are kept verbatim.
import { limitMarkdown, trimStartChars } from "../../src/webhooks/plugin";

/** Longest description or comment quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 2000;

// A block's body may not hold another opening of its kind, so each opening scans only up to the
// next one: "{code:x}" repeated with no closing tag stays linear.
const BLOCK = /\{(code|noformat)(?::([^}]*))?\}((?:(?!\{\1[:}])[\s\S])*?)\{\1\}/g;

function fence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/** `{code:java}` → `java`; `{code:title=A.java|borderStyle=solid}` → `` (no language given). */
function codeLanguage(params: string | undefined): string {
  if (!params) return "";
  const first = params.split("|")[0].trim();
  return /^[A-Za-z0-9+#-]+$/.test(first) ? first.toLowerCase() : "";
}

function convertInline(text: string): string {
  return (
    text
      // {quote}…{quote} → Markdown block quote
      .replace(
        /\{quote\}([\s\S]*?)\{quote\}/g,
        (_m, body: string) =>
          `\n\n${body
            .trim()
            .split("\n")
            .map((line) => `> ${line}`)
            .join("\n")}\n\n`,
      )
      // Colour and panel wrappers carry no meaning in chat.
      .replace(/\{color(?::[^}]*)?\}/g, "")
      .replace(/\{panel(?::[^}]*)?\}/g, "")
      // User mentions: [~accountid:5b10…] (Cloud) or [~jsmith] (Server) → a plain @name, never a chat mention.
      .replace(/\[~accountid:[^\]]+\]/g, "@someone")
      .replace(/\[~([^\]]+)\]/g, "@$1")
      // [text|https://…] and [https://…]
      .replace(/\[([^|[\]\n]+)\|((?:https?|mailto):[^\]\s]+)\]/g, "[$1]($2)")
      .replace(/\[((?:https?):\/\/[^\]\s|]+)\]/g, "$1")
      // !image.png! and !image.png|thumbnail!
      .replace(/!([^!\s|]+\.(?:png|jpe?g|gif|svg|webp))(?:\|[^!]*)?!/gi, "(image: $1)")
      // {{monospace}}
      .replace(/\{\{([^{}\n]+)\}\}/g, (_m, code: string) => `\`${code}\``)
      // *bold* → **bold** (a lone "* item" bullet has a space after the star and is left alone)
      .replace(/(^|[\s(])\*([^*\s](?:[^*\n]*[^*\s])?)\*(?=$|[\s.,;:!?)])/gm, "$1**$2**")
      // h1. … h6. headings → bold lines (headings are too loud inside a quote)
      .replace(/^h[1-6]\.[^\S\n]+(\S.*)$/gm, "**$1**")
      // # numbered and ** nested bullet lists
      .replace(/^(#+)\s+/gm, (_m, marks: string) => `${"   ".repeat(marks.length - 1)}1. `)
      .replace(/^(\*{2,})\s+/gm, (_m, marks: string) => `${"  ".repeat(marks.length - 1)}* `)
  );
}

/** Converts Jira wiki markup to Markdown and cuts very long texts. Empty input gives "". */
export function jiraToMarkdown(text: unknown): string {
  if (typeof text !== "string") return "";
  const source = text.replace(/\r\n?/g, "\n").trim();
  let out = "";
  let last = 0;
  for (const m of source.matchAll(BLOCK)) {
    out += convertInline(source.slice(last, m.index));
    const body = trimStartChars(m[3], "\n").trimEnd();
    const ticks = fence(body);
    const lang = m[1] === "code" ? codeLanguage(m[2]) : "";
    out += `\n${ticks}${lang}\n${body}\n${ticks}\n`;
    last = (m.index ?? 0) + m[0].length;
  }
  out += convertInline(source.slice(last));
  return limitMarkdown(out.replace(/\n{3,}/g, "\n\n").trim(), MAX_QUOTED, "[…]");
}
