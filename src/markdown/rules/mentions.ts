// Mentions as the reference marks them up:
//   @**Full Name**, @**Full Name|id** → <span class="user-mention" data-user-id="id">@Full Name</span>
//   @_**…** (silent)                  → <span class="user-mention silent" data-user-id="id">Full Name</span>
//   @**all|everyone|channel|stream**  → <span class="user-mention" data-user-id="*">@all</span>
//   @**topic**                        → <span class="topic-mention">@topic</span>
//   @*group*, @_*group*               → <span class="user-group-mention" data-user-group-id="id">@group</span>
// Names that match nobody stay text (so `**Name**` is still bold). What was mentioned is collected in
// the render context for the message service to set the flags.
import type { MarkdownIt, StateInline } from "./markdownItTypes";
import type { RenderContext } from "./context";

export const STREAM_WILDCARDS = new Set(["all", "everyone", "channel", "stream"]);
const MAX_NAME = 100;

type Mention =
  | { kind: "user"; id: number; name: string; silent: boolean }
  | { kind: "wildcard"; name: string; silent: boolean }
  | { kind: "group"; id: number; name: string; silent: boolean };

/** The text between `open` and the next `close` on the same line, bounded in length. */
function delimited(state: StateInline, from: number, close: string): string | null {
  const limit = Math.min(state.posMax, from + MAX_NAME + close.length);
  const end = state.src.indexOf(close, from);
  if (end < 0 || end + close.length > limit) return null;
  const name = state.src.slice(from, end);
  return name === "" || name.includes("\n") || name.includes("*") ? null : name;
}

function resolveUser(ctx: RenderContext, text: string): Mention | null {
  const users = ctx.users;
  if (!users) return null;
  const bar = text.lastIndexOf("|");
  if (bar >= 0 && /^\d{1,10}$/.test(text.slice(bar + 1))) {
    const user = users.byId.get(Number(text.slice(bar + 1)));
    return user ? { kind: "user", id: user.id, name: user.fullName, silent: false } : null;
  }
  const matches = users.byName.get(text.toLowerCase()) ?? [];
  // An ambiguous name (two users share it) needs the |id form, as in the reference.
  if (matches.length !== 1) return null;
  return { kind: "user", id: matches[0].id, name: matches[0].fullName, silent: false };
}

function mentionAt(state: StateInline): { mention: Mention; end: number } | null {
  const src = state.src;
  let pos = state.pos + 1;
  const silent = src.charCodeAt(pos) === 0x5f; /* _ */
  if (silent) pos++;
  if (src.charCodeAt(pos) !== 0x2a /* * */) return null;
  const ctx = (state.env ?? {}) as RenderContext;
  if (src.charCodeAt(pos + 1) === 0x2a) {
    const text = delimited(state, pos + 2, "**");
    if (text === null) return null;
    const end = pos + 2 + text.length + 2;
    const lower = text.toLowerCase();
    if (STREAM_WILDCARDS.has(lower) || lower === "topic") {
      return { mention: { kind: "wildcard", name: lower, silent }, end };
    }
    const user = resolveUser(ctx, text);
    return user ? { mention: { ...user, silent }, end } : null;
  }
  const text = delimited(state, pos + 1, "*");
  if (text === null) return null;
  const group = ctx.groups?.get(text.toLowerCase());
  if (!group) return null;
  return { mention: { kind: "group", id: group.id, name: group.name, silent }, end: pos + 1 + text.length + 1 };
}

function record(ctx: RenderContext, mention: Mention): void {
  if (mention.silent || !ctx.mentions) return;
  if (mention.kind === "user") ctx.mentions.userIds.add(mention.id);
  else if (mention.kind === "group") ctx.mentions.groupIds.add(mention.id);
  else if (mention.name === "topic") ctx.mentions.topicWildcard = true;
  else ctx.mentions.streamWildcard = true;
}

export function useMentions(md: MarkdownIt): void {
  const esc = md.utils.escapeHtml;
  md.inline.ruler.before("emphasis", "mention", (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
    const found = mentionAt(state);
    if (!found) return false;
    if (!silent) {
      state.push("mention", "span", 0).meta = found.mention;
      record((state.env ?? {}) as RenderContext, found.mention);
    }
    state.pos = found.end;
    return true;
  });
  md.renderer.rules.mention = (tokens, idx) => {
    const m = tokens[idx].meta as Mention;
    const shown = esc((m.silent ? "" : "@") + m.name);
    const silentClass = m.silent ? " silent" : "";
    if (m.kind === "user") return `<span class="user-mention${silentClass}" data-user-id="${m.id}">${shown}</span>`;
    if (m.kind === "group") {
      return `<span class="user-group-mention${silentClass}" data-user-group-id="${m.id}">${shown}</span>`;
    }
    if (m.name === "topic") return `<span class="topic-mention${silentClass}">${shown}</span>`;
    return `<span class="user-mention${silentClass}" data-user-id="*">${shown}</span>`;
  };
}
