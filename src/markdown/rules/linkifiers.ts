// Applies a realm's linkifiers while rendering Markdown: a markdown-it core rule rewrites text
// tokens outside links into link tokens, so code spans/blocks and existing links are untouched.
// The renderer only sees where each linkifier matches and the URL it makes (the linkifier service
// compiles the patterns: services/linkifiers/active.ts).
import type { MarkdownIt, Token } from "./markdownItTypes";

/** A match of a linkifier in a text: the span it links and the URL (before normalising). */
export interface LinkifierLink {
  start: number;
  end: number;
  url: string;
}

/** One of the realm's linkifiers, compiled, as the renderer uses it. */
export interface ActiveLinkifier {
  links(text: string): LinkifierLink[];
}

interface LinkifierEnv {
  linkifiers?: ActiveLinkifier[];
}

function linkifyText(
  md: MarkdownIt,
  token: Token,
  linkifier: ActiveLinkifier,
  make: (type: string, tag: string, nesting: -1 | 0 | 1) => Token,
): Token[] {
  const text = token.content;
  const out: Token[] = [];
  let pos = 0;
  const pushText = (content: string) => {
    if (!content) return;
    const t = make("text", "", 0);
    t.content = content;
    out.push(t);
  };
  for (const hit of linkifier.links(text)) {
    const url = md.normalizeLink(hit.url);
    if (!md.validateLink(url)) continue;
    pushText(text.slice(pos, hit.start));
    const open = make("link_open", "a", 1);
    open.attrs = [["href", url]];
    open.markup = "linkifier";
    out.push(open);
    pushText(text.slice(hit.start, hit.end));
    out.push(make("link_close", "a", -1));
    pos = hit.end;
  }
  if (pos === 0) return [token];
  pushText(text.slice(pos));
  return out;
}

/** Registered last among the core rules, so it sees the final text tokens. */
export function useLinkifiers(md: MarkdownIt): void {
  md.core.ruler.push("realm_linkifiers", (state) => {
    const linkifiers = (state.env as LinkifierEnv | undefined)?.linkifiers;
    if (!linkifiers || linkifiers.length === 0) return;
    const make = (type: string, tag: string, nesting: -1 | 0 | 1) => new state.Token(type, tag, nesting);
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue;
      // Linkifiers apply in their configured order; earlier ones win overlapping text.
      for (const linkifier of linkifiers) {
        let depth = 0;
        const next: Token[] = [];
        for (const token of block.children) {
          if (token.type === "link_open") depth++;
          if (token.type === "link_close") depth--;
          if (token.type === "text" && depth === 0) next.push(...linkifyText(md, token, linkifier, make));
          else next.push(token);
        }
        block.children = next;
      }
    }
  });
}
