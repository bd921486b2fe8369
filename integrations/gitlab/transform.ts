// What the GitLab templates cannot work out themselves: what an issue or merge request "update"
// actually changed (GitLab sends one `update` action for labels, assignees, title, description…),
// which deliveries carry nothing worth a message (pipelines and jobs that have not finished, updates
// that only touched bookkeeping fields), durations, failed-job lists, web links GitLab leaves out,
// and the `branches` filter for pipelines and jobs (their `ref` may be a tag). Pure: no I/O, no clock.
import {
  committersSummary as committers,
  firstLine,
  isBranchFilteredOut,
  parsePatternList,
} from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

const COMMITS_SHOWN = 20;
const FAILED_JOBS_SHOWN = 10;
const COMMITTERS_NAMED = 3;
const ZERO_SHA = /^0+$/;
/** Pipeline and job statuses that end a run; the others (created, pending, running…) are skipped. */
const FINISHED = new Set(["success", "failed", "canceled", "skipped"]);

// Payloads are free-form JSON read defensively field by field; `any` keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

interface Change {
  previous?: unknown;
  current?: unknown;
}

/** One value in a sentence ("A, B and C"): `sep` is what goes before it. */
export interface Listed {
  v: string;
  sep: string;
}

/** One phrase of an update ("added the **bug** label"): words are ours, `values` come from the payload. */
export interface ChangePhrase {
  sep: string;
  text: string;
  values: Listed[];
  style: "bold" | "code" | "plain";
  suffix: string;
}

export function listed(values: string[]): Listed[] {
  return values.map((v, i) => ({ v, sep: i === 0 ? "" : i === values.length - 1 ? " and " : ", " }));
}

const names = (list: unknown, key: string): string[] =>
  Array.isArray(list) ? list.map((x) => String((x as Dict)?.[key] ?? "")).filter((x) => x !== "") : [];
const minus = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));

function phrase(text: string, values: string[] = [], style: ChangePhrase["style"] = "plain", suffix = "") {
  return { sep: "", text, values: listed(values), style, suffix };
}

/** The phrases describing an issue/MR `changes` object; bookkeeping fields produce none. */
export function describeChanges(changes: Record<string, Change> | undefined): ChangePhrase[] {
  if (!changes) return [];
  const out: Omit<ChangePhrase, "sep">[] = [];
  const c = changes;
  if (c.title) out.push(phrase("changed the title", [], "plain", ""));
  if (c.description) out.push(phrase("edited the description"));
  if (c.labels) {
    const before = names(c.labels.previous, "title");
    const after = names(c.labels.current, "title");
    const added = minus(after, before);
    const removed = minus(before, after);
    if (added.length) out.push(phrase("added the", added, "bold", added.length === 1 ? "label" : "labels"));
    if (removed.length) out.push(phrase("removed the", removed, "bold", removed.length === 1 ? "label" : "labels"));
  }
  for (const [key, verbAdd, verbRemove] of [
    ["assignees", "assigned", "unassigned"],
    ["reviewers", "requested a review from", "removed the review request for"],
  ] as const) {
    const change = c[key];
    if (!change) continue;
    const before = names(change.previous, "name");
    const after = names(change.current, "name");
    if (minus(after, before).length) out.push(phrase(verbAdd, minus(after, before)));
    if (minus(before, after).length) out.push(phrase(verbRemove, minus(before, after)));
  }
  if (c.milestone_id)
    out.push(phrase(c.milestone_id.current == null ? "removed the milestone" : "changed the milestone"));
  if (c.due_date)
    out.push(
      c.due_date.current == null
        ? phrase("removed the due date")
        : phrase("set the due date to", [String(c.due_date.current)]),
    );
  if (c.target_branch) out.push(phrase("changed the target branch to", [String(c.target_branch.current)], "code"));
  const draft = c.draft ?? c.work_in_progress;
  if (draft) out.push(phrase(draft.current ? "marked it as draft" : "marked it as ready"));
  if (c.confidential) out.push(phrase(c.confidential.current ? "made it confidential" : "made it public"));
  if (c.discussion_locked)
    out.push(phrase(c.discussion_locked.current ? "locked the discussion" : "unlocked the discussion"));
  if (c.weight)
    out.push(
      phrase(
        c.weight.current == null ? "removed the weight" : "set the weight to",
        c.weight.current == null ? [] : [String(c.weight.current)],
      ),
    );
  return out.map((p, i) => ({ ...p, sep: i === 0 ? "" : i === out.length - 1 ? " and " : ", " }));
}

/** 84 → "1m 24s", 3725 → "1h 2m 5s". */
export function duration(seconds: unknown): string {
  const total = Math.round(Number(seconds));
  if (!Number.isFinite(total) || total < 0 || seconds === null || seconds === undefined || seconds === "") return "";
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  return [h ? `${h}h` : "", m ? `${m}m` : "", s || (!h && !m) ? `${s}s` : ""].filter(Boolean).join(" ");
}

/** "Commits by A (3), B (2) and others (4)." — empty when the pusher wrote every commit. */
export function committersSummary(commits: Dict[], pusher: { name?: string; email?: string }): string {
  const byPusher = (c: Dict) =>
    (!!c.author?.email && c.author.email === pusher.email) || (!!c.author?.name && c.author.name === pusher.name);
  return committers(commits, (c) => c.author?.name || "unknown", byPusher, COMMITTERS_NAMED);
}

function pushFields(p: Dict): Dict {
  const commits: Dict[] = Array.isArray(p.commits) ? p.commits : [];
  const shown = commits.slice(0, COMMITS_SHOWN);
  const total = Math.max(commits.length, Number(p.total_commits_count) || 0);
  const web = p.project?.web_url ?? p.repository?.homepage ?? "";
  const refName = String(p.ref ?? "").replace(/^refs\/(heads|tags)\//, "");
  const deleted = ZERO_SHA.test(p.after ?? "");
  const created = ZERO_SHA.test(p.before ?? "");
  return {
    refName,
    pushKind: deleted ? "deleted" : commits.length === 0 ? (created ? "created" : "no_commits") : "commits",
    refUrl: `${web}/-/${String(p.ref ?? "").startsWith("refs/tags/") ? "tags" : "tree"}/${refName}`,
    compareUrl: created || deleted ? "" : `${web}/-/compare/${p.before}...${p.after}`,
    commitCount: total,
    shownCommits: shown,
    moreCommits: total - shown.length,
    committersSummary: committersSummary(commits, { name: p.user_name, email: p.user_email }),
  };
}

/** The issue, merge request, commit or snippet a delivery (or a comment) is about. */
export function itemFields(p: Dict, event: string): Dict {
  const attrs: Dict = p.object_attributes ?? {};
  if (event.includes("Note")) {
    const type = attrs.noteable_type;
    if (type === "MergeRequest" && p.merge_request)
      return {
        itemKind: "MR",
        itemNumber: p.merge_request.iid,
        itemTitle: p.merge_request.title,
        itemUrl: p.merge_request.url,
      };
    if (type === "Issue" && p.issue)
      return { itemKind: "issue", itemNumber: p.issue.iid, itemTitle: p.issue.title, itemUrl: p.issue.url };
    if (type === "Snippet" && p.snippet)
      return { itemKind: "snippet", itemNumber: p.snippet.id, itemTitle: p.snippet.title, itemUrl: p.snippet.url };
    if (type === "Commit" && p.commit) return { itemKind: "commit", commitTitle: firstLine(p.commit.message) };
    return {};
  }
  const kind = event.startsWith("Merge Request") ? "MR" : "issue";
  return { itemKind: kind, itemNumber: attrs.iid, itemTitle: attrs.title, itemUrl: attrs.url };
}

function pipelineFields(p: Dict): Dict {
  const attrs: Dict = p.object_attributes ?? {};
  const builds: Dict[] = Array.isArray(p.builds) ? p.builds : [];
  const failed = builds.filter((b) => b?.status === "failed" && !b?.allow_failure);
  return {
    pipelineUrl: attrs.url || `${p.project?.web_url ?? ""}/-/pipelines/${attrs.id}`,
    took: duration(attrs.duration),
    failedJobs: failed.slice(0, FAILED_JOBS_SHOWN).map((b, i) => ({ ...b, sep: i === 0 ? "" : ", " })),
    moreFailedJobs: Math.max(0, failed.length - FAILED_JOBS_SHOWN),
  };
}

/** Why a delivery is dropped (non-empty text drops it, via the manifest's `ignoreWhen`). */
export function skipReason(p: Dict, context: TransformContext, changes: ChangePhrase[]): string {
  const branches = parsePatternList("branches", context.options.branches);
  const event = context.event;
  // Project push hooks are filtered by the manifest's branchPath already; this also covers system hooks.
  if (event === "Push Hook" && isBranchFilteredOut(p.ref, branches)) return "branch filtered";
  if (event === "Pipeline Hook") {
    const attrs: Dict = p.object_attributes ?? {};
    if (!FINISHED.has(attrs.status)) return "pipeline not finished";
    if (!attrs.tag && isBranchFilteredOut(attrs.ref, branches)) return "branch filtered";
  }
  if (event === "Job Hook" || event === "Build Hook") {
    if (!FINISHED.has(p.build_status)) return "job not finished";
    if (!p.tag && isBranchFilteredOut(p.ref, branches)) return "branch filtered";
  }
  const isUpdate = context.action === "update" && (event.includes("Issue") || event.startsWith("Merge Request"));
  if (isUpdate && changes.length === 0 && !p.object_attributes?.oldrev) return "nothing worth telling changed";
  return "";
}

/** System hooks carry project-hook payloads (push, tag push, merge request): named by `object_kind`. */
const SYSTEM_KINDS: Record<string, string> = {
  push: "Push Hook",
  tag_push: "Tag Push Hook",
  merge_request: "Merge Request Hook",
};

export default function transform(payload: Dict, rawContext: TransformContext): Dict {
  const event =
    rawContext.event === "System Hook" ? (SYSTEM_KINDS[payload.object_kind] ?? "System Hook") : rawContext.event;
  const context = { ...rawContext, event };
  const user: Dict = payload.user ?? {};
  const view: Dict = { actor: user.name || payload.user_name || user.username || payload.user_username || "" };
  const changes = describeChanges(payload.changes);
  if (event === "Push Hook" || event === "Tag Push Hook") Object.assign(view, pushFields(payload));
  if (/Issue|Merge Request|Note/.test(event)) Object.assign(view, itemFields(payload, event), { changeList: changes });
  if (event === "Pipeline Hook") Object.assign(view, pipelineFields(payload));
  if (event === "Job Hook" || event === "Build Hook") {
    const web = payload.project?.web_url ?? payload.repository?.homepage ?? "";
    Object.assign(view, { jobUrl: `${web}/-/jobs/${payload.build_id}`, took: duration(payload.build_duration) });
  }
  view.skip = skipReason(payload, context, changes);
  return view;
}
