// A Google Chat webhook message → Markdown: the text (Google Chat's own formatting: *bold*,
// <url|label> links, <users/…> mentions), then each card — v1 `cards` and `cardsV2` — as its
// header, section headers and widgets. Widget text is a small HTML subset; buttons and
// clickable widgets become links (a chat message cannot run a card action).
import { defineTransform, escapeMarkdown, htmlToMarkdown, markdownLink, nonEmptyText } from "../../src/webhooks/plugin";

type Obj = Record<string, unknown>;
interface Payload {
  text?: string | null;
  fallbackText?: string | null;
  cards?: Obj[] | null;
  cardsV2?: Obj[] | null;
}

const obj = (v: unknown): Obj => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);

/** Google Chat text formatting → Markdown; every regex stops at its closing delimiter (linear). */
export function convertText(input: unknown): string {
  const text = nonEmptyText(input);
  if (!text) return "";
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/<(https?:\/\/[^|<>\s]+)\|([^<>]+)>/g, (_m, url: string, label: string) => markdownLink(url, label))
    .replace(/<users\/all>/g, "@all")
    .replace(/<users\/([^<>\s]{1,80})>/g, (_m, id: string) => escapeMarkdown(`@${id}`))
    .replace(/(?<![\w*])\*(?![\s*])([^*\n]{1,500}?)(?<!\s)\*(?![\w*])/g, "**$1**");
}

/** Widget HTML (`<b>Message:</b>\n…`): line breaks kept, bold kept, links as links, the rest as text. */
function widgetText(html: unknown): string {
  const text = nonEmptyText(html);
  if (!text) return "";
  const marked = text.replace(/\r?\n/g, "<br>").replace(/<\/?(?:b|strong)>/gi, "\uE000");
  return htmlToMarkdown(marked)
    .replace(/\uE000/g, "**")
    .trim();
}

/** The URL a click opens, for v1 (`onClick.openLink.url`) and v2 (the same, or `openDynamicLinkAction`). */
const clickUrl = (w: Obj): string | undefined => nonEmptyText(obj(obj(w.onClick).openLink).url);

function buttons(list: unknown): string {
  return objects(list)
    .map((b) => {
      const button = Object.keys(obj(b.textButton)).length ? obj(b.textButton) : obj(b.imageButton);
      const source = Object.keys(button).length ? button : b;
      const label = nonEmptyText(source.text) ?? nonEmptyText(source.altText) ?? nonEmptyText(source.icon) ?? "link";
      const url = clickUrl(source);
      return url ? markdownLink(url, label) : escapeMarkdown(label);
    })
    .join(" · ");
}

function widget(w: Obj): string {
  if (w.textParagraph) return widgetText(obj(w.textParagraph).text);
  const pair = obj(w.decoratedText ?? w.keyValue);
  if (Object.keys(pair).length) {
    const top = widgetText(pair.topLabel);
    const main = widgetText(pair.text ?? pair.content);
    const bottom = widgetText(pair.bottomLabel);
    const url = clickUrl(pair);
    const line = [top ? `**${top}**:` : "", url && main ? markdownLink(url, main.replace(/\*\*/g, "")) : main]
      .filter(Boolean)
      .join(" ");
    const button = pair.button ? buttons([pair.button]) : "";
    return [line, bottom, button].filter(Boolean).join("\n");
  }
  if (w.buttonList) return buttons(obj(w.buttonList).buttons);
  if (w.buttons) return buttons(w.buttons);
  if (w.image) {
    const image = obj(w.image);
    const url = nonEmptyText(image.imageUrl);
    return url ? markdownLink(clickUrl(image) ?? url, nonEmptyText(image.altText) ?? "image") : "";
  }
  if (w.columns)
    return objects(obj(w.columns).columnItems)
      .flatMap((c) => objects(c.widgets).map(widget))
      .filter(Boolean)
      .join("\n\n");
  return "";
}

function card(c: Obj): string {
  const header = obj(c.header);
  const title = widgetText(header.title);
  const subtitle = widgetText(header.subtitle);
  const sections = objects(c.sections).map((s) =>
    [widgetText(s.header) ? `**${widgetText(s.header).replace(/\*\*/g, "")}**` : "", ...objects(s.widgets).map(widget)]
      .filter(Boolean)
      .join("\n\n"),
  );
  const head = [title ? `**${title.replace(/\*\*/g, "")}**` : "", subtitle].filter(Boolean).join("\n");
  return [head, ...sections].filter(Boolean).join("\n\n");
}

export default defineTransform<Payload, { chat_markdown: string }>((payload) => {
  const cards = [...objects(payload.cards), ...objects(payload.cardsV2).map((c) => obj(c.card))].map(card);
  const parts = [convertText(payload.text), ...cards].filter(Boolean);
  // fallbackText is the notification summary: shown only when nothing else says anything.
  return { chat_markdown: (parts.length ? parts : [convertText(payload.fallbackText)]).join("\n\n") };
});
