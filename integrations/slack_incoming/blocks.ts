// Block Kit → Markdown. Every block type Slack documents for messages is rendered; unknown or
// future types still show whatever text they carry. Values are read defensively (payloads are
// user-written), so odd shapes give less output, never an exception.
import { codeBlock, codeSpan } from "../../src/webhooks/plugin";
import { escapeMarkdown } from "../../src/webhooks/plugin";
import { convertMrkdwn, convertPlain, link, timeMention } from "./mrkdwn";

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
export const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
/** Non-empty parts joined as separate paragraphs. */
export const paragraphs = (parts: string[]): string => parts.filter((p) => p.trim() !== "").join("\n\n");

/** The raw text of a text object (or of a bare string, as legacy attachments use). */
const rawText = (v: unknown): string => (isObj(v) ? str(v.text) : str(v));

/** A text object: `mrkdwn` (the default for bare strings) is converted, `plain_text` escaped. */
export function textObject(v: unknown): string {
  if (isObj(v) && v.type === "plain_text") return convertPlain(v.text);
  return convertMrkdwn(isObj(v) ? v.text : v);
}

/** A Markdown list item; continuation lines are indented so they stay inside the item. */
export const listItem = (markdown: string): string => `* ${markdown.replace(/\n(?=.)/g, "\n  ")}`;

/** Section fields are usually "*Label*\nvalue": shown as `* **Label**: value`. */
function fieldItem(field: unknown): string {
  const md = textObject(field);
  const label = /^(\*\*[^*\n]+\*\*)\n([^\n]+)$/.exec(md);
  if (label) return listItem(`${label[1]}${/:\*\*$/.test(label[1]) ? "" : ":"} ${label[2]}`);
  return md === "" ? "" : listItem(md);
}

const imageLink = (url: unknown, label: unknown): string => link(url, str(label) || "image");

/** Interactive elements (accessories, actions, context items): links where they have a URL. */
export function renderElement(e: Obj): string {
  if (e.type === "image") return imageLink(e.image_url, e.alt_text);
  if (e.type === "mrkdwn" || e.type === "plain_text") return textObject(e);
  const label = rawText(e.text) || rawText(e.placeholder) || str(e.initial_date) || str(e.initial_time);
  const main = typeof e.url === "string" && e.url !== "" ? link(e.url, label) : escapeMarkdown(label);
  const options = objects(e.options).map((o) =>
    typeof o.url === "string" ? link(o.url, rawText(o.text)) : escapeMarkdown(rawText(o.text)),
  );
  const choices = options.filter((o) => o !== "").join(", ");
  return main && choices ? `${main}: ${choices}` : main || choices;
}

const elements = (v: unknown, separator: string): string =>
  objects(v)
    .map(renderElement)
    .filter((s) => s !== "")
    .join(separator);

type Style = { bold?: unknown; italic?: unknown; strike?: unknown; code?: unknown };

/** Rich-text styling, applied per line with the surrounding spaces kept outside the markers. */
function styled(text: string, style: unknown): string {
  const s: Style = isObj(style) ? style : {};
  if (s.code) return codeSpan(text);
  return text
    .split("\n")
    .map((line) => {
      const core = line.trim();
      const lead = line.slice(0, line.length - line.trimStart().length);
      const tail = line.slice(line.trimEnd().length);
      if (core === "") return line;
      let out = escapeMarkdown(core);
      if (s.strike) out = `~~${out}~~`;
      if (s.italic) out = `*${out}*`;
      if (s.bold) out = `**${out}**`;
      return lead + out + tail;
    })
    .join("\n");
}

function richInline(e: Obj): string {
  switch (e.type) {
    case "text":
      return styled(str(e.text), e.style);
    case "link":
      return link(e.url, str(e.text));
    case "emoji":
      return str(e.name) ? `:${str(e.name)}:` : "";
    case "user":
      return `@${escapeMarkdown(str(e.user_id))}`;
    case "usergroup":
      return `@${escapeMarkdown(str(e.usergroup_id))}`;
    case "channel":
      return `#${escapeMarkdown(str(e.channel_id))}`;
    case "broadcast":
      return `**@${escapeMarkdown(str(e.range))}**`;
    case "date":
      return timeMention(e.timestamp) || escapeMarkdown(str(e.fallback));
    default:
      return styled(str(e.text) || str(e.value), e.style);
  }
}

const inline = (e: Obj): string => objects(e.elements).map(richInline).join("").trim();
const plainInline = (e: Obj): string =>
  objects(e.elements)
    .map((x) => str(x.text) || str(x.url))
    .join("");

function richElement(e: Obj): string {
  switch (e.type) {
    case "rich_text_list": {
      const indent = "   ".repeat(Math.min(Math.max(Number(e.indent) || 0, 0), 5));
      const start = Math.max(Number(e.offset) || 0, 0);
      return objects(e.elements)
        .map(
          (item, i) =>
            `${indent}${e.style === "ordered" ? `${start + i + 1}.` : "*"} ${inline(item).replace(/\n/g, " ")}`,
        )
        .join("\n");
    }
    case "rich_text_preformatted":
      return codeBlock(plainInline(e));
    case "rich_text_quote":
      return inline(e).replace(/^/gm, "> ");
    default:
      return inline(e);
  }
}

/** Consecutive list elements (nesting levels) form one Markdown list. */
function renderRichText(block: Obj): string {
  const parts = objects(block.elements).map((e) => ({ list: e.type === "rich_text_list", md: richElement(e) }));
  return parts
    .filter((p) => p.md.trim() !== "")
    .map((p, i, all) => (i === 0 ? "" : p.list && all[i - 1].list ? "\n" : "\n\n") + p.md)
    .join("");
}

export function renderBlock(block: Obj): string {
  switch (block.type) {
    case "section":
      return paragraphs([
        textObject(block.text),
        objects(block.fields).map(fieldItem).filter(Boolean).join("\n"),
        isObj(block.accessory) ? renderElement(block.accessory) : "",
      ]);
    case "header":
      return rawText(block.text).trim() ? `### ${convertPlain(rawText(block.text).replace(/\s+/g, " "))}` : "";
    case "divider":
      return "---";
    case "context":
      return elements(block.elements, " · ");
    case "actions":
      return elements(block.elements, " · ");
    case "image":
      return imageLink(block.image_url, rawText(block.title) || block.alt_text);
    case "video":
      return paragraphs([
        link(block.title_url || block.video_url, rawText(block.title) || str(block.alt_text) || "video"),
        textObject(block.description),
      ]);
    case "rich_text":
      return renderRichText(block);
    case "markdown": // Slack's newer block whose text is already standard Markdown
      return str(block.text).trim();
    default: // input, file and types we do not know yet: whatever text they carry
      return paragraphs([
        textObject(block.label),
        textObject(block.text),
        isObj(block.element) ? renderElement(block.element) : "",
      ]);
  }
}

export function renderBlocks(blocks: unknown): string {
  return paragraphs(objects(blocks).map(renderBlock));
}

/**
 * `marker` (an emoji) in front of the first line, or on a line of its own when that line is
 * Markdown structure (a heading, list, quote, fence, table…) that would lose its meaning after it.
 */
export function withMarker(marker: string, markdown: string): string {
  if (marker === "" || markdown === "") return markdown;
  return /^(#{1,6}\s|>|[*+-]\s|\d+[.)]\s|```|~~~|---|\|)/.test(markdown)
    ? `${marker}\n\n${markdown}`
    : `${marker} ${markdown}`;
}
