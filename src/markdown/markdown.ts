// Message Markdown → safe HTML in the reference server's dialect (raw HTML in content is escaped,
// never passed through). A pure module: text + a RenderContext the caller resolved (custom emoji,
// users, channels, linkifiers…); the message service does the database lookups.
import MarkdownIt from "markdown-it";
import { noMentions, type MentionsFound, type RenderContext } from "./rules/context";
import { useChannelLinks } from "./rules/channelLinks";
import { useEmoji } from "./rules/emoji";
import { useFences } from "./rules/fences";
import { useInlineDialect } from "./rules/inlineDialect";
import { nestListsByTwoSpaces, useReferenceLists } from "./rules/listIndent";
import { useLinkifiers } from "./rules/linkifiers";
import { useInlineMath } from "./rules/math";
import { useMentions } from "./rules/mentions";
import { useTimeSyntax } from "./rules/time";
import { trimEndChars } from "../text";

export type { MentionsFound, RenderContext } from "./rules/context";

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

// The reference has no reference-style links (`[x]: url` stays text) and no `_`/`__` emphasis.
md.disable("reference");
type InlineRule = Parameters<typeof md.inline.ruler.at>[1];
const emphasis = (md.inline.ruler as unknown as { __rules__: { name: string; fn: InlineRule }[] }).__rules__.find(
  (rule) => rule.name === "emphasis",
)!.fn;
md.inline.ruler.at("emphasis", (state, silent) =>
  state.src.charCodeAt(state.pos) === 0x5f /* _ */ ? false : emphasis(state, silent),
);

useFences(md);
useReferenceLists(md);
useInlineDialect(md);
useInlineMath(md);
useEmoji(md);
useMentions(md);
useChannelLinks(md);
useTimeSyntax(md);
useLinkifiers(md);

// Most links are plain ASCII http(s) URLs, which markdown-it's normalizeLink (parse, punycode,
// percent-encoding, format again) returns unchanged: those skip the work.
const PLAIN_URL = /^https?:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:[/?#][A-Za-z0-9\-._~!$&'()*+,;=:@/?#]*)?$/;
const normalizeLink = md.normalizeLink.bind(md);
md.normalizeLink = (url) => (PLAIN_URL.test(url) ? url : normalizeLink(url));

// Links into the organization itself become fragment links (`#narrow/…`), as the reference stores
// them, so they open in the client instead of a new tab.
const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const realmUrl = (env as RenderContext | undefined)?.realmUrl;
  const href = String(tokens[idx].attrGet("href") ?? "");
  if (realmUrl && href) {
    const base = trimEndChars(realmUrl, "/");
    if (href.startsWith(`${base}/#`)) tokens[idx].attrSet("href", href.slice(base.length + 1));
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// Images are embedded only when this server serves them (uploads, custom emoji): a remote
// <img> would make every reader's client fetch a third-party URL (tracking, mixed content).
// Remote images become plain links to the image.
const LOCAL_IMAGE = /^\/(user_uploads|user_avatars|static)\//;
const defaultImage = md.renderer.rules.image!;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = String(token.attrGet("src") ?? "");
  if (LOCAL_IMAGE.test(src)) return defaultImage(tokens, idx, options, env, self);
  const text = md.utils.escapeHtml(self.renderInlineAsText(token.children ?? [], options, env) || src);
  const href = md.utils.escapeHtml(src);
  return `<a href="${href}">${text}</a>`;
};

/** A message's HTML, rendered against what the caller resolved for it. */
export function renderMessageHtml(content: string, context: RenderContext = {}): string {
  return md.render(nestListsByTwoSpaces(content), { ...context }).trimEnd();
}

/** A message's HTML and what it mentions (for the recipients' flags). */
export function renderMessage(content: string, context: RenderContext = {}): { html: string; mentions: MentionsFound } {
  const mentions = noMentions();
  return { html: renderMessageHtml(content, { ...context, mentions }), mentions };
}

/** Markdown with no message context (channel and folder descriptions). */
export function renderMarkdown(content: string): string {
  return renderMessageHtml(content);
}
