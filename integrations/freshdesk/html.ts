// Freshdesk's {{ticket.description}} placeholder is HTML. Chat wants Markdown: text is escaped,
// block elements become line breaks, links and images become Markdown links.
import { escapeLinkText, escapeMarkdown, escapeUrl } from "../../src/webhooks/plugin";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4]) : undefined;
};
const isHttp = (url: string | undefined): url is string => !!url && /^https?:\/\//i.test(url);

/** HTML → Markdown with every text run escaped; unknown tags are dropped, their text kept. */
export function htmlToMarkdown(html: string): string {
  let out = "";
  let link: string | undefined;
  for (const part of html.replace(/<!--[\s\S]*?-->/g, "").split(/(<[^>]*>)/)) {
    if (!part.startsWith("<")) {
      const text = decodeEntities(part.replace(/\s+/g, " "));
      out += link ? escapeLinkText(text) : escapeMarkdown(text);
      continue;
    }
    const name = /^<\/?\s*([a-z0-9]+)/i.exec(part)?.[1]?.toLowerCase() ?? "";
    const closing = part.startsWith("</");
    if (name === "br" || name === "p" || name === "div" || /^h[1-6]$/.test(name) || name === "tr") out += "\n";
    else if (name === "li" && !closing) out += "\n* ";
    else if (name === "img" && isHttp(attr(part, "src")))
      out += `[${escapeLinkText(attr(part, "alt") || "image")}](${escapeUrl(attr(part, "src")!)})`;
    else if (name === "a" && !closing) {
      const href = attr(part, "href");
      if (isHttp(href)) {
        link = href;
        out += "[";
      }
    } else if (name === "a" && closing && link) {
      out += `](${escapeUrl(link)})`;
      link = undefined;
    }
  }
  if (link) out += `](${escapeUrl(link)})`;
  return out
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
