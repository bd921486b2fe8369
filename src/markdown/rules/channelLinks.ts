// Channel, topic and message links as the reference marks them up:
//   #**channel**             → <a class="stream" data-stream-id="id" href="/#narrow/channel/id-name">#channel</a>
//   #**channel>topic**       → <a class="stream-topic" data-stream-id="id" href="…/topic/topic">#channel &gt; topic</a>
//   #**channel>topic@123**   → <a class="message-link" href="…/topic/topic/near/123">#channel &gt; topic @ 💬</a>
// Channels the context does not know (missing, or not visible) stay text.
import type { MarkdownIt } from "./markdownItTypes";
import type { RenderContext } from "./context";

const MAX_LINK = 200;

/** The reference's URL-fragment encoding: percent-encode all but [A-Za-z0-9_~*-], then `%` → `.`. */
export function encodeHashComponent(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9_~*-]/.test(ch) ? ch : `.${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export function channelNarrow(id: number, name: string): string {
  return `/#narrow/channel/${id}-${encodeHashComponent(name.replace(/ /g, "-"))}`;
}

type ChannelLink = {
  id: number;
  name: string;
  topic?: string;
  messageId?: number;
};

export function useChannelLinks(md: MarkdownIt): void {
  const esc = md.utils.escapeHtml;
  md.inline.ruler.before("emphasis", "channel_link", (state, silent) => {
    const src = state.src;
    if (src.charCodeAt(state.pos) !== 0x23 /* # */ || !src.startsWith("**", state.pos + 1)) return false;
    const start = state.pos + 3;
    const end = src.indexOf("**", start);
    if (end < 0 || end - start > MAX_LINK || end + 2 > state.posMax) return false;
    const text = src.slice(start, end);
    if (text === "" || text.includes("\n")) return false;
    const gt = text.indexOf(">");
    const channelName = gt < 0 ? text : text.slice(0, gt);
    const channel = ((state.env ?? {}) as RenderContext).channels?.get(channelName.toLowerCase());
    if (!channel) return false;
    const link: ChannelLink = { id: channel.id, name: channel.name };
    if (gt >= 0) {
      const rest = text.slice(gt + 1);
      const near = /@(\d{1,12})$/.exec(rest);
      link.topic = near ? rest.slice(0, near.index) : rest;
      if (near) link.messageId = Number(near[1]);
    }
    if (!silent) state.push("channel_link", "a", 0).meta = link;
    state.pos = end + 2;
    return true;
  });
  md.renderer.rules.channel_link = (tokens, idx) => {
    const link = tokens[idx].meta as ChannelLink;
    const base = channelNarrow(link.id, link.name);
    if (link.topic === undefined) {
      return `<a class="stream" data-stream-id="${link.id}" href="${esc(base)}">#${esc(link.name)}</a>`;
    }
    const topicUrl = `${base}/topic/${encodeHashComponent(link.topic)}`;
    const label = `#${esc(link.name)} &gt; ${esc(link.topic)}`;
    if (link.messageId === undefined) {
      return `<a class="stream-topic" data-stream-id="${link.id}" href="${esc(topicUrl)}">${label}</a>`;
    }
    return `<a class="message-link" href="${esc(`${topicUrl}/near/${link.messageId}`)}">${label} @ 💬</a>`;
  };
}
