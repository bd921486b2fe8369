// Logic that several plugins' transforms share (HTML bodies, durations, git push summaries).
// Plugins reach it through src/webhooks/plugin.ts, the one module they may import.
import { escapeLinkText, escapeMarkdown, escapeUrl } from "./safeMarkdown";
import { sentenceList } from "./helpers";

// nonEmptyText and compactDuration are template helpers too, so they live in helpers.ts.
export { compactDuration, nonEmptyText } from "./helpers";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Decodes `&amp;`-style named entities (the common few) and numeric ones; unknown ones stay as written. */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      // parseInt of the matched digits is never NaN; an overlong one is Infinity, which fails the range check.
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return m ? decodeHtmlEntities(m[2] ?? m[3] ?? m[4]) : undefined;
};
const isHttp = (url: string | undefined): url is string => !!url && /^https?:\/\//i.test(url);

/** `<!-- … -->` removed; an unclosed one stays text (found with indexOf: linear on "<!--<!--…"). */
function withoutHtmlComments(html: string): string {
  let out = "";
  for (let from = 0; ;) {
    const open = html.indexOf("<!--", from);
    const close = open < 0 ? -1 : html.indexOf("-->", open + 4);
    if (close < 0) return out + html.slice(from);
    out += html.slice(from, open);
    from = close + 3;
  }
}

/**
 * Text and tags alternating, as `split(/(<[^>]*>)/)` gives them (a tag runs from a `<` to the next
 * `>`), found with indexOf: the pattern rescans "<<<<…" from every `<`.
 */
function splitTags(html: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    const open = html.indexOf("<", from);
    const close = open < 0 ? -1 : html.indexOf(">", open + 1);
    if (close < 0) break;
    parts.push(html.slice(from, open), html.slice(open, close + 1));
    from = close + 1;
  }
  parts.push(html.slice(from));
  return parts;
}

/** HTML → Markdown with every text run escaped: block elements become line breaks, http(s) links
 * and images Markdown links; unknown tags are dropped, their text kept. */
export function htmlToMarkdown(html: string): string {
  let out = "";
  let link: string | undefined;
  for (const part of splitTags(withoutHtmlComments(html))) {
    if (!part.startsWith("<")) {
      const text = decodeHtmlEntities(part.replace(/\s+/g, " "));
      out += link ? escapeLinkText(text) : escapeMarkdown(text);
      continue;
    }
    const name = /^<\/?\s*([a-z0-9]+)/i.exec(part)?.[1].toLowerCase() ?? "";
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

/** Milliseconds → "less than a minute", "6 minutes", "2 hours 5 minutes", "3 days 4 hours" (the two
 * largest units, whole minutes); undefined for a negative or unknown span. */
export function durationInWords(ms: number): string | undefined {
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  let rest = Math.round(ms / 60000);
  if (rest < 1) return "less than a minute";
  const parts: string[] = [];
  for (const [size, unit] of [
    [1440, "day"],
    [60, "hour"],
    [1, "minute"],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 && parts.length < 2) parts.push(`${n} ${unit}${n === 1 ? "" : "s"}`);
  }
  return parts.join(" ");
}

/** "Commits by A (3), B (2) and others (4)." — most commits first, ties in code-point order of the
 * name, `named` names at most; "" when every commit is the pusher's (or there is none). */
export function committersSummary<C>(
  commits: C[],
  authorOf: (commit: C) => string,
  byPusher: (commit: C) => boolean,
  named = 3,
): string {
  if (commits.every(byPusher)) return "";
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(authorOf(commit), (counts.get(authorOf(commit)) ?? 0) + 1);
  // Names are Map keys, so two of them are never equal.
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const parts = sorted.slice(0, named).map(([name, n]) => `${name} (${n})`);
  const others = sorted.slice(named).reduce((sum, [, n]) => sum + n, 0);
  if (others > 0) parts.push(`others (${others})`);
  return `Commits by ${sentenceList(parts)}.`;
}

export type GitPushKind = "tag_pushed" | "tag_removed" | "branch_deleted" | "branch_created" | "no_commits" | "commits";

const ZERO_SHA = /^0+$/;

/** Which message a push in Gitea/Gogs form gets: an all-zero `after` is a deletion, an all-zero
 * `before` a new branch. */
export function gitPushKind(push: {
  ref?: string;
  before?: string;
  after?: string;
  commits?: unknown[] | null;
}): GitPushKind {
  const deleted = ZERO_SHA.test(push.after ?? "");
  if (push.ref?.startsWith("refs/tags/")) return deleted ? "tag_removed" : "tag_pushed";
  if (deleted) return "branch_deleted";
  if ((push.commits ?? []).length > 0) return "commits";
  return ZERO_SHA.test(push.before ?? "") ? "branch_created" : "no_commits";
}

type GiteaCommit = { author?: { name?: string; username?: string; email?: string } | null };

/** committersSummary for Gitea and Gogs pushes: authors named by user name, the pusher recognised by
 * user name or e-mail (commits pushed from a laptop often carry no user name). */
export function giteaCommittersSummary(commits: GiteaCommit[], pusher: { login: string; email?: string }): string {
  const byPusher = (c: GiteaCommit) =>
    (!!c.author?.username && c.author.username === pusher.login) ||
    (!!c.author?.email && c.author.email === pusher.email);
  return committersSummary(commits, (c) => c.author?.username || c.author?.name || "unknown", byPusher);
}
