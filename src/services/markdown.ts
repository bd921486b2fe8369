// Message Markdown → safe HTML (raw HTML in content is escaped, never passed through).
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

// Links open in a new tab and never leak the referrer, as chat clients expect.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet("target", "_blank");
  tokens[idx].attrSet("rel", "noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// Zulip's global time syntax `<time:2025-03-14T09:26:53Z>` becomes a <time> element that each
// reader's client shows in their own time zone (without this rule it would be an autolink).
const TIME_SYNTAX = /^<time:([^<>\n]{1,64})>/;
md.inline.ruler.before("autolink", "zulip_time", (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const match = TIME_SYNTAX.exec(state.src.slice(state.pos));
  if (!match) return false;
  if (!silent) state.push("zulip_time", "time", 0).content = match[1].trim();
  state.pos += match[0].length;
  return true;
});
md.renderer.rules.zulip_time = (tokens, idx) => {
  const value = md.utils.escapeHtml(tokens[idx].content);
  return `<time datetime="${value}">${value}</time>`;
};

export function renderMarkdown(content: string): string {
  return md.render(content).trimEnd();
}

export { md as markdownIt };
