// A Discord webhook execute body → one Markdown message: the content, then each embed in the
// order Discord draws it (colour and author, title, description, fields, image, footer and
// time), a poll, and the names of attached files. Discord's own markup for mentions, channels,
// custom emoji and timestamps (`<@id>`, `<#id>`, `<:name:id>`, `<t:unix:F>`) becomes text that
// pings nobody; `@everyone` and `@here` are plain words here.
import { colorMarker, defineTransform, escapeMarkdown, markdownLink, nonEmptyText } from "../../src/webhooks/plugin";

type Obj = Record<string, unknown>;
interface Payload {
  content?: string | null;
  embeds?: Obj[] | null;
  attachments?: Obj[] | null;
  poll?: Obj | null;
}

const objects = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.filter((x): x is Obj => x !== null && typeof x === "object") : [];
const obj = (v: unknown): Obj => (v !== null && typeof v === "object" ? (v as Obj) : {});

/** `<t:1768473067:F>` → `<time:2026-01-15T10:31:07Z>`. */
function time(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? "" : `<time:${date.toISOString().replace(/\.000Z$/, "Z")}>`;
}

/** Discord message Markdown → ours: its `<…>` entities become harmless text; the rest is Markdown already. */
export function convert(text: unknown): string {
  const value = nonEmptyText(text);
  if (value === undefined) return "";
  return value
    .replace(/\r\n?/g, "\n")
    .replace(/<@!?(\d{1,25})>/g, (_m, id: string) => escapeMarkdown(`@user-${id}`))
    .replace(/<@&(\d{1,25})>/g, (_m, id: string) => escapeMarkdown(`@role-${id}`))
    .replace(/<#(\d{1,25})>/g, (_m, id: string) => escapeMarkdown(`#channel-${id}`))
    .replace(/<a?:(\w{1,40}):\d{1,25}>/g, ":$1:")
    .replace(/<t:(-?\d{1,13})(?::[tTdDfFR])?>/g, (m, s: string) => time(Number(s)) || m);
}

/** Embed times are ISO 8601; some senders give an SQL time (`2026-01-15 10:36:07.456`), read as UTC. */
function embedTime(value: unknown): string {
  const text = nonEmptyText(value);
  if (!text) return "";
  const iso = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d(\.\d+)?)?$/.test(text) ? `${text.replace(" ", "T")}Z` : text;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? escapeMarkdown(text) : `<time:${date.toISOString().replace(/\.000Z$/, "Z")}>`;
}

/** An image shown by URL; `attachment://name` points at an uploaded file, named instead. */
function image(value: unknown, label: string): string {
  const url = nonEmptyText(obj(value).url);
  if (!url) return "";
  if (url.startsWith("attachment://")) return escapeMarkdown(`${label}: ${url.slice("attachment://".length)}`);
  return markdownLink(url, label);
}

function embed(e: Obj): string {
  const author = obj(e.author);
  const authorName = nonEmptyText(author.name);
  const title = nonEmptyText(e.title);
  const head = [
    authorName ? markdownLink(author.url, authorName) : "",
    title ? `**${markdownLink(e.url, title)}**` : "",
  ];
  const fields = objects(e.fields)
    .map((f) => {
      const name = nonEmptyText(f.name);
      const value = convert(f.value);
      if (!name) return value ? `* ${value}` : "";
      // A multi-line value (often a list) starts below its name, indented into the list item.
      const shown = value.includes("\n") ? `\n${value.replace(/^/gm, "  ")}` : ` ${value}`;
      return `* **${escapeMarkdown(name)}**${value ? `:${shown}` : ""}`;
    })
    .filter(Boolean);
  const footer = [convert(obj(e.footer).text), embedTime(e.timestamp)].filter(Boolean).join(" · ");
  const body = [
    head.filter(Boolean).join(" "),
    convert(e.description),
    fields.join("\n"),
    [image(e.image, "image"), image(e.thumbnail, "thumbnail")].filter(Boolean).join(" · "),
    footer,
  ]
    .filter(Boolean)
    .join("\n\n");
  // The colour is the embed's status (green up, red down): a marker in front of its first line.
  const marker = colorMarker(e.color);
  if (!marker || !body) return body;
  return head.some(Boolean) || !/^[*#>]/.test(body) ? `${marker} ${body}` : `${marker}\n\n${body}`;
}

function poll(p: Obj): string {
  const question = convert(obj(p.question).text);
  const answers = objects(p.answers).map((a) => {
    const media = obj(a.poll_media);
    const emoji = nonEmptyText(obj(media.emoji).name);
    return `* ${emoji ? `${emoji} ` : ""}${convert(media.text)}`;
  });
  return question ? [`**Poll:** ${question}`, ...answers].join("\n") : "";
}

function attachmentNames(list: Obj[]): string {
  const names = list
    .map((a) => {
      const name = nonEmptyText(a.filename);
      const about = nonEmptyText(a.description);
      return name ? escapeMarkdown(about ? `${name} (${about})` : name) : "";
    })
    .filter(Boolean);
  return names.length ? `Attachments: ${names.join(", ")}` : "";
}

export default defineTransform<Payload, { discord_markdown: string }>((payload) => ({
  discord_markdown: [
    convert(payload.content),
    ...objects(payload.embeds).map(embed),
    poll(obj(payload.poll)),
    attachmentNames(objects(payload.attachments)),
  ]
    .filter(Boolean)
    .join("\n\n"),
}));
