// Slack "mrkdwn" → Zulip Markdown. Slack differs from Markdown in a few ways: a single `*` is
// bold, `_` is italic, `~` is strike-through, links/mentions/dates are `<…>` entities, and `&`,
// `<`, `>` arrive HTML-escaped. Code is copied untouched (only unescaped). Every regex here is
// linear in the input: a delimited run can never extend past the next delimiter.
import { escapeLinkText, escapeMarkdown, escapeUrl, trimEndChars, trimStartChars } from "../../src/webhooks/plugin";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">" };

/** One pass, so `&amp;lt;` becomes `&lt;` and not `<`. */
export function unescapeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (_m, name: string) => ENTITIES[name]);
}

/** `[label](url)` with both made safe; no URL → the escaped label alone. */
export function link(url: unknown, label: string): string {
  if (typeof url !== "string" || url.trim() === "") return escapeMarkdown(label);
  return `[${escapeLinkText(label || url)}](${escapeUrl(url.trim())})`;
}

/** Slack timestamps are epoch seconds (a number or a "1655945306.000" string) → `<time:…>`. */
export function timeMention(value: unknown): string {
  const seconds =
    typeof value === "number" ? value : typeof value === "string" && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  const date = new Date(Math.floor(seconds) * 1000);
  if (!(seconds > 0) || Number.isNaN(date.getTime())) return "";
  return `<time:${date.toISOString().replace(/\.000Z$/, "Z")}>`;
}

const BROADCASTS = new Set(["here", "channel", "everyone"]);

/** `<…>` entities: links, user/channel/group mentions, broadcasts and dates. */
function renderEntity(inner: string): string {
  const bar = inner.indexOf("|");
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? "" : unescapeEntities(inner.slice(bar + 1));
  const name = (fallback: string) => escapeMarkdown((label || fallback).replace(/^[@#]/, ""));
  // Slack ids cannot be mapped to people or channels here, so these are shown, not linked;
  // broadcasts are shown in bold instead of notifying everyone in the Zulip channel.
  if (target.startsWith("@")) return `@${name(target.slice(1))}`;
  if (target.startsWith("#")) return `#${name(target.slice(1))}`;
  if (target.startsWith("!")) {
    const [command, arg] = target.slice(1).split("^");
    if (BROADCASTS.has(command)) return `**@${command}**`;
    if (command === "subteam") return `@${name(arg ?? "")}`;
    if (command === "date") return timeMention(arg) || escapeMarkdown(label);
    return escapeMarkdown(label || command);
  }
  const url = unescapeEntities(target).trim();
  if (!/^[a-z][a-z0-9+.-]*:\S/i.test(url)) return escapeMarkdown(unescapeEntities(`<${inner}>`));
  if (!label) return /^https?:/i.test(url) ? escapeUrl(url) : link(url, url.replace(/^mailto:/i, ""));
  return link(url, label);
}

// A run opens after a non-word character and closes before one, with no space inside the
// markers and no line break or marker inside the run (Slack's rules, roughly).
const BOLD = /(?<![\p{L}\p{N}*\\])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\p{L}\p{N}*])/gu;
const ITALIC = /(?<![\p{L}\p{N}_\\])_(?!\s)([^_\n]+?)(?<!\s)_(?![\p{L}\p{N}_])/gu;
const STRIKE = /(?<![\p{L}\p{N}~\\])~(?!\s)([^~\n]+?)(?<!\s)~(?![\p{L}\p{N}~])/gu;

/** Converts one mrkdwn string; non-strings give "". */
export function convertMrkdwn(input: unknown): string {
  if (typeof input !== "string") return "";
  const kept: string[] = [];
  const keep = (markdown: string) => `\uE000${kept.push(markdown) - 1}\uE001`;
  let text = input.replace(/\r\n?/g, "\n").replace(/[\uE000\uE001]/g, "");
  // Slack code blocks may sit inside a line (```ls -la```); Markdown needs the fence on its own lines.
  text = text.replace(
    /```([\s\S]*?)```/g,
    (_m, code: string) => `\n${keep(`\`\`\`\n${unescapeEntities(code.replace(/^\n|\n$/g, ""))}\n\`\`\``)}\n`,
  );
  text = text.replace(/`([^`\n]+)`/g, (_m, code: string) => keep(`\`${unescapeEntities(code)}\``));
  text = text.replace(/<([^<>\n]*)>/g, (_m, inner: string) => keep(renderEntity(inner)));
  text = text.replace(/\b(?:https?|ftp):\/\/[^\s<>]+/g, (url) => keep(unescapeEntities(url)));
  // Slack shows `2*3*4` as typed; Markdown would put the 3 in italics.
  text = text.replace(/(?<=[\p{L}\p{N}])\*(?=[\p{L}\p{N}])/gu, "\\*");
  text = text.replace(BOLD, "**$1**").replace(ITALIC, "*$1*").replace(STRIKE, "~~$1~~");
  // Slack shows indented lines as text; Markdown would turn 4+ spaces into a code block.
  text = unescapeEntities(text)
    .split("\n")
    .map((line) => trimEndChars(trimStartChars(line, " \t"), " \t"))
    .join("\n");
  // A Slack quote is one line; in Markdown the next line would join the quote unless a blank line ends it.
  text = text
    .replace(/^(>.*)\n(?=[^>\n])/gm, "$1\n\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return text.replace(/\uE000(\d+)\uE001/g, (_m, i: string) => kept[Number(i)]);
}

/** A Block Kit `plain_text` value: shown literally. */
export function convertPlain(input: unknown): string {
  return typeof input === "string" ? escapeMarkdown(input.replace(/\r\n?/g, "\n")).trim() : "";
}
