// What the RhodeCode templates cannot work out themselves: a push lists its commits for every
// branch together (each commit names its branch), so they are split into one message per branch
// (with the `branches` filter applied per branch), authors are "Name <email>" strings, and the
// "Commits by …" summary needs a count across the commits. Pure: no I/O, no clock.
import { isBranchFilteredOut, parsePatternList, withoutTrailingAngle } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

// Payloads are free-form JSON read defensively field by field; `any` keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

const COMMITTERS_NAMED = 3;

/** "Yuro Itaki <yuro@example.com>" → "Yuro Itaki". */
export const authorName = (author: unknown) => withoutTrailingAngle(String(author ?? "")) || "unknown";

/** "Commits by A (3), B (2) and others (4)." — only when more than one person wrote them (a
 * RhodeCode author is a name, the pusher a user name, so one author cannot be matched to the pusher). */
export function committersSummary(commits: Dict[]): string {
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(authorName(commit.author), (counts.get(authorName(commit.author)) ?? 0) + 1);
  if (counts.size < 2) return "";
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const parts = sorted.slice(0, COMMITTERS_NAMED).map(([name, n]) => `${name} (${n})`);
  const others = sorted.slice(COMMITTERS_NAMED).reduce((sum, [, n]) => sum + n, 0);
  if (others > 0) parts.push(`others (${others})`);
  return `Commits by ${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}.`;
}

export interface PushItem {
  kind: "branch" | "tag";
  refName: string;
  refUrl: string;
  commits: Dict[];
  committersSummary: string;
}

/** One item per pushed branch (with its commits) and per pushed tag. */
export function pushItems(push: Dict, branches: string[] | undefined): PushItem[] {
  const commits: Dict[] = Array.isArray(push.commits) ? push.commits : [];
  const items: PushItem[] = [];
  for (const branch of Array.isArray(push.branches) ? push.branches : []) {
    if (!branch?.name || isBranchFilteredOut(branch.name, branches)) continue;
    const own = commits.filter((c) => (c.branch ?? branch.name) === branch.name);
    items.push({
      kind: "branch",
      refName: branch.name,
      refUrl: branch.url ?? "",
      commits: own,
      committersSummary: committersSummary(own),
    });
  }
  for (const tag of Array.isArray(push.tags) ? push.tags : [])
    if (tag?.name)
      items.push({ kind: "tag", refName: tag.name, refUrl: tag.url ?? "", commits: [], committersSummary: "" });
  return items;
}

export default function transform(payload: Dict, context: TransformContext): Dict {
  const event: Dict = payload.event ?? {};
  const view: Dict = { actorName: event.actor?.username ?? "" };
  if (context.event === "repo-push")
    view.pushItems = pushItems(event.push ?? {}, parsePatternList("branches", context.options.branches));
  return view;
}
