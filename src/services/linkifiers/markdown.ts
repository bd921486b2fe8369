// Applies a realm's linkifiers while rendering Markdown: a markdown-it core rule rewrites text
// tokens outside links into link tokens, so code spans/blocks and existing links are untouched.
import type { Queryable } from "../../db/knex";
import { listLinkifiers } from "../../db/linkifiers";
import { markdownIt, renderMessageHtml } from "../messages/markdown";
import { buildMatcher, findMatches, type LinkifierMatcher } from "./pattern";
import { expandUrlTemplate } from "./urlTemplate";

type CoreRule = Parameters<typeof markdownIt.core.ruler.push>[1];
type Token = Parameters<CoreRule>[0]["tokens"][number];

export interface ActiveLinkifier {
  matcher: LinkifierMatcher;
  urlTemplate: string;
}

interface LinkifierEnv {
  linkifiers?: ActiveLinkifier[];
}

// Compiled matchers by pattern; bounded so a realm churning through patterns cannot grow it forever.
const compiled = new Map<string, LinkifierMatcher | null>();
function matcherFor(pattern: string): LinkifierMatcher | null {
  if (!compiled.has(pattern)) {
    if (compiled.size >= 1000) compiled.delete(compiled.keys().next().value!);
    let matcher: LinkifierMatcher | null = null;
    try {
      matcher = buildMatcher(pattern);
    } catch {
      /* an invalid stored pattern never matches */
    }
    compiled.set(pattern, matcher);
  }
  return compiled.get(pattern)!;
}

function linkifyText(
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
  for (const hit of findMatches(linkifier.matcher, text)) {
    const url = markdownIt.normalizeLink(expandUrlTemplate(linkifier.urlTemplate, hit.groups));
    if (!markdownIt.validateLink(url)) continue;
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

markdownIt.core.ruler.push("realm_linkifiers", (state) => {
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
        if (token.type === "text" && depth === 0) next.push(...linkifyText(token, linkifier, make));
        else next.push(token);
      }
      block.children = next;
    }
  }
});

/** The realm's linkifiers, compiled, in their configured order (for the render context). */
export async function activeLinkifiers(q: Queryable, realmId: number): Promise<ActiveLinkifier[]> {
  const linkifiers: ActiveLinkifier[] = [];
  for (const row of await listLinkifiers(q, realmId)) {
    const matcher = matcherFor(row.pattern);
    if (matcher) linkifiers.push({ matcher, urlTemplate: row.url_template });
  }
  return linkifiers;
}

/** Markdown → HTML with the realm's linkifiers applied. */
export async function renderWithLinkifiers(q: Queryable, realmId: number, content: string): Promise<string> {
  return renderMessageHtml(content, { linkifiers: await activeLinkifiers(q, realmId) });
}
