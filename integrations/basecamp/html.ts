// Basecamp's rich text (Trix HTML: div, br, strong, em, a, ul/ol/li, blockquote, pre, h1,
// bc-attachment for mentions and files) → Markdown for a quote block. Only those tags matter;
// any other tag is dropped and its text kept.
import { decodeHtmlEntities } from "../../src/webhooks/plugin";

const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`, "i").exec(tag)?.[1];

// A paired tag's body may not hold another opening of the same tag, so each opening scans only up
// to the next one: "<pre>" repeated with no closing tag stays linear.
export function htmlToMarkdown(html: unknown): string {
  if (typeof html !== "string") return "";
  let s = html.replace(/\r\n?/g, "\n");
  // Mentions and attachments: <bc-attachment content-type="application/vnd.basecamp.mention">…<figcaption>Ann</figcaption>…
  s = s.replace(
    /<bc-attachment\b([^>]*)>((?:(?!<bc-attachment\b)[\s\S])*?)<\/bc-attachment>/gi,
    (_m, tag: string, inner: string) => {
      const caption = /<figcaption[^>]*>((?:(?!<figcaption)[\s\S])*?)<\/figcaption>/i
        .exec(inner)?.[1]
        ?.replace(/<[^<>]+>/g, "")
        .trim();
      if (/mention/i.test(attr(tag, "content-type") ?? "")) return caption ? `@${caption}` : "@someone";
      const name = caption || attr(tag, "filename") || "attachment";
      return `(attachment: ${name})`;
    },
  );
  s = s
    .replace(
      /<pre[^>]*>((?:(?!<pre)[\s\S])*?)<\/pre>/gi,
      (_m, code: string) => `\n\`\`\`\n${code.replace(/<br\s*\/?>/gi, "\n")}\n\`\`\`\n`,
    )
    .replace(/<a\b([^>]*)>((?:(?!<a\b)[\s\S])*?)<\/a>/gi, (_m, tag: string, label: string) => {
      const href = attr(tag, "href");
      const text = label.replace(/<[^<>]+>/g, "").trim();
      return href && /^https?:\/\//i.test(decodeHtmlEntities(href)) ? `[${text || href}](${href})` : text;
    })
    .replace(/<\/?(strong|b)>/gi, "**")
    .replace(/<\/?(em|i)>/gi, "*")
    .replace(/<(s|del|strike)>|<\/(s|del|strike)>/gi, "~~")
    .replace(/<h[1-6][^>]*>((?:(?!<h[1-6])[\s\S])*?)<\/h[1-6]>/gi, "\n**$1**\n")
    .replace(
      /<blockquote[^>]*>((?:(?!<blockquote)[\s\S])*?)<\/blockquote>/gi,
      (_m, body: string) =>
        `\n${body
          .replace(/<br\s*\/?>|<\/div>/gi, "\n")
          .replace(/<[^<>]+>/g, "")
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => `> ${l.trim()}`)
          .join("\n")}\n`,
    )
    .replace(/<li[^>]*>/gi, "\n* ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(ul|ol)>/gi, "\n\n")
    .replace(/<\/(div|p)>/gi, "\n")
    .replace(/<[^<>]+>/g, "");
  return decodeHtmlEntities(s)
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
