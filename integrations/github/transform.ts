// What the GitHub templates cannot work out themselves: which of the push message shapes a
// push gets, the "Commits by A (3), B (2) and C (1)." summary (a count across the commit list),
// and whether a delivery is dropped (private repository when `ignore_private_repositories` is
// set, merge-queue pushes, create/delete of a branch outside `branches`). Pure: no I/O, no clock.
import { isBranchFilteredOut, parsePatternList } from "../../src/webhooks/events";
import type { TransformContext } from "../../src/webhooks/registry";

/** At most this many committers are named; the rest are summed up as "others". */
const COMMITTERS_LIMIT = 3;
const MERGE_QUEUE_PREFIX = "refs/heads/gh-readonly-queue/";

interface Commit {
  author?: { name?: string; username?: string | null } | null;
}

interface Payload {
  ref?: string;
  ref_type?: string;
  created?: boolean;
  deleted?: boolean;
  forced?: boolean;
  commits?: Commit[];
  sender?: { login?: string };
  repository?: { private?: boolean };
}

export type PushKind = "tag_pushed" | "tag_removed" | "branch_deleted" | "branch_pushed" | "force_pushed" | "commits";

export function pushKind(payload: Payload): PushKind {
  const commits = payload.commits ?? [];
  if (payload.ref?.startsWith("refs/tags/")) return payload.deleted ? "tag_removed" : "tag_pushed";
  if (payload.deleted) return "branch_deleted";
  if (commits.length === 0) return payload.forced && !payload.created ? "force_pushed" : "branch_pushed";
  return "commits";
}

/** "Commits by A (3), B (2) and others (4)." — empty when the pusher wrote every commit. */
export function committersSummary(commits: Commit[], pusher: string | undefined): string {
  const counts = new Map<string, number>();
  for (const commit of commits) {
    const name = commit.author?.username || commit.author?.name || "unknown";
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  if (counts.size === 0 || (counts.size === 1 && counts.has(pusher ?? ""))) return "";
  // Most commits first, ties in name order (code-point order, so the result is stable).
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const named = sorted.slice(0, COMMITTERS_LIMIT);
  const others = sorted.slice(COMMITTERS_LIMIT).reduce((sum, [, n]) => sum + n, 0);
  const parts = named.map(([name, n]) => `${name} (${n})`);
  if (others > 0) parts.push(`others (${others})`);
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `Commits by ${list}.`;
}

const isTrue = (value: string | undefined) => /^(1|true|yes|on)$/i.test(value?.trim() ?? "");

/** Why this delivery is dropped (non-empty text drops it, via the manifest's `ignoreWhen`). */
export function skipReason(payload: Payload, context: TransformContext): string {
  if (isTrue(context.options.ignore_private_repositories) && payload.repository?.private === true) return "private repository";
  if (context.event === "push" && payload.ref?.startsWith(MERGE_QUEUE_PREFIX)) return "merge queue";
  // create/delete carry a bare ref name; only branches are subject to the `branches` filter.
  if ((context.event === "create" || context.event === "delete") && payload.ref_type === "branch") {
    if (isBranchFilteredOut(payload.ref, parsePatternList("branches", context.options.branches))) return "branch filtered";
  }
  return "";
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const view: Record<string, unknown> = { skip: skipReason(payload, context) };
  if (context.event === "push") {
    view.pushKind = pushKind(payload);
    view.refName = (payload.ref ?? "").replace(/^refs\/(heads|tags)\//, "");
    view.committersSummary = committersSummary(payload.commits ?? [], payload.sender?.login);
  }
  return view;
}
