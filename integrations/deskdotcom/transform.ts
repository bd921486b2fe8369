// A Desk.com custom action posts the text an admin wrote, with Desk's placeholders filled in;
// Desk's own examples put the case in an HTML link (`<a href='{{case.direct_url}}'>…</a>`). Those
// links become Markdown links (only for http(s) targets); every other character is shown as the
// text it is, so no HTML, Markdown, mention or channel link in the text has any effect.
import { decodeHtmlEntities, defineTransform, escapeMarkdown, markdownLink } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

// An opening <a …> tag (its attributes never hold `<` or `>`), or a closing </a>. Each attempt
// stops at the next `<`, so a long run of unclosed tags is still scanned in linear time.
const TAG = /<a\s[^<>]*>|<\/a\s*>/gi;
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>]+))/i;

/** The custom action's text as Markdown: its <a href> links as links, the rest escaped. */
export function deskText(data: string): string {
  let out = "";
  let at = 0;
  // The open link: its tag as sent (shown as text when it is never closed), target and start.
  let open: { tag: string; href: string; from: number } | undefined;
  for (const match of data.matchAll(TAG)) {
    const tag = match[0];
    const index = match.index;
    if (tag[1] !== "/") {
      // A new opening tag: text up to here (and an unclosed earlier tag) stays text.
      out += escapeMarkdown((open ? open.tag : "") + data.slice(at, index));
      const href = HREF.exec(tag);
      open = { tag, href: decodeHtmlEntities(href?.[1] ?? href?.[2] ?? href?.[3] ?? ""), from: index + tag.length };
      at = open.from;
    } else if (open) {
      const label = decodeHtmlEntities(data.slice(open.from, index)).trim();
      // markdownLink gives escaped text for anything but an http(s) target (javascript:, mailto:).
      out += markdownLink(open.href, label || undefined);
      open = undefined;
      at = index + tag.length;
    }
  }
  return (out + escapeMarkdown((open ? open.tag : "") + data.slice(at))).trim();
}

export default defineTransform<Payload, { message: string }>((payload) => ({ message: deskText(payload.data) }));
