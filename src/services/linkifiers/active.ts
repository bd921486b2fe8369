// A realm's linkifiers ready for the renderer: the stored patterns compiled (cached), each turned
// into what the Markdown rule asks of a linkifier (src/markdown/rules/linkifiers.ts).
import type { Queryable } from "../../db/knex";
import { listLinkifiers } from "../../db/linkifiers";
import { renderMessageHtml } from "../../markdown/markdown";
import type { ActiveLinkifier } from "../../markdown/rules/linkifiers";
import { buildMatcher, findMatches, type LinkifierMatcher } from "./pattern";
import { expandUrlTemplate } from "./urlTemplate";

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

/** The realm's linkifiers, compiled, in their configured order (for the render context). */
export async function activeLinkifiers(q: Queryable, realmId: number): Promise<ActiveLinkifier[]> {
  const linkifiers: ActiveLinkifier[] = [];
  for (const row of await listLinkifiers(q, realmId)) {
    const matcher = matcherFor(row.pattern);
    const template = row.url_template;
    if (matcher)
      linkifiers.push({
        links: (text) =>
          findMatches(matcher, text).map((hit) => ({
            start: hit.start,
            end: hit.end,
            url: expandUrlTemplate(template, hit.groups),
          })),
      });
  }
  return linkifiers;
}

/** Markdown → HTML with the realm's linkifiers applied. */
export async function renderWithLinkifiers(q: Queryable, realmId: number, content: string): Promise<string> {
  return renderMessageHtml(content, { linkifiers: await activeLinkifiers(q, realmId) });
}
