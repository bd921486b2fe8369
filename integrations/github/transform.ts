// What the GitHub templates cannot work out themselves: which of the push message shapes a
// push gets, the "Commits by A (3), B (2) and C (1)." summary (a count across the commit list),
// which fields an `edited` delivery changed, how long a run took, the pull request behind a
// merge-queue group, and whether a delivery is dropped (see skipReason). Pure: no I/O, no clock.
import {
  committersSummary as committers,
  isBranchFilteredOut,
  parsePatternList,
  toDate,
} from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

/** At most this many committers are named; the rest are summed up as "others". */
const COMMITTERS_LIMIT = 3;
/** At most this many changed fields are named in "changed the name, color and description". */
const CHANGED_FIELDS_LIMIT = 4;
const MERGE_QUEUE_PREFIX = "refs/heads/gh-readonly-queue/";

interface Commit {
  author?: { name?: string; username?: string | null } | null;
}

interface Payload {
  action?: string;
  ref?: string;
  ref_type?: string;
  created?: boolean;
  deleted?: boolean;
  forced?: boolean;
  commits?: Commit[];
  changes?: Record<string, unknown> | null;
  sender?: { login?: string };
  repository?: { private?: boolean } | null;
  release?: { draft?: boolean } | null;
  deployment_status?: { state?: string } | null;
  workflow_job?: { conclusion?: string | null; started_at?: string | null; completed_at?: string | null } | null;
  workflow_run?: { run_started_at?: string | null; updated_at?: string | null } | null;
  build?: { status?: string | null; duration?: number | null } | null;
  merge_group?: { head_ref?: string } | null;
  package?: PackageInfo | null;
  registry_package?: PackageInfo | null;
  inputs?: Record<string, unknown> | null;
  alert?: {
    rule?: { description?: string | null; name?: string | null; id?: string | null } | null;
    security_advisory?: { summary?: string | null } | null;
  } | null;
}

interface PackageInfo {
  name?: string;
  package_version?: {
    version?: string | null;
    container_metadata?: { tag?: { name?: string | null } | null } | null;
  } | null;
}

export type PushKind = "tag_pushed" | "tag_removed" | "branch_deleted" | "branch_pushed" | "force_pushed" | "commits";

export function pushKind(payload: Payload): PushKind {
  const commits = payload.commits ?? [];
  if (payload.ref?.startsWith("refs/tags/")) return payload.deleted ? "tag_removed" : "tag_pushed";
  if (payload.deleted) return "branch_deleted";
  if (commits.length === 0) return payload.forced && !payload.created ? "force_pushed" : "branch_pushed";
  return "commits";
}

/** ["a", "b", "c"] → "a, b and c". */
function sentence(parts: string[]): string {
  return parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** "Commits by A (3), B (2) and others (4)." — empty when the pusher wrote every commit. */
export function committersSummary(commits: Commit[], pusher: string | undefined): string {
  const name = (commit: Commit) => commit.author?.username || commit.author?.name || "unknown";
  return committers(commits, name, (c) => name(c) === pusher, COMMITTERS_LIMIT);
}

/** `changes` of an `edited` delivery → "name, color and description" (… and N more). */
export function changedFields(changes: Payload["changes"]): string {
  const names = Object.keys(changes ?? {}).map((key) => key.replace(/_/g, " "));
  if (names.length <= CHANGED_FIELDS_LIMIT) return sentence(names);
  const shown = names.slice(0, CHANGED_FIELDS_LIMIT).join(", ");
  return `${shown} … and ${names.length - CHANGED_FIELDS_LIMIT} more`;
}

/** 198 s → "3 min 18 s"; 3900 s → "1 h 5 min". Empty when unknown or not positive. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return "";
  const s = Math.round(seconds);
  // A zero (or negative) span means the payload's two times are not start and end.
  if (s <= 0) return "";
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 === 0 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
  const minutes = Math.floor((s % 3600) / 60);
  return minutes === 0 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 3600)} h ${minutes} min`;
}

function secondsBetween(start: unknown, end: unknown): number | undefined {
  const [from, to] = [toDate(start), toDate(end)];
  return from && to ? (to.getTime() - from.getTime()) / 1000 : undefined;
}

/** How long the run, job or Pages build of this delivery took ("" when the payload does not say). */
export function duration(payload: Payload, event: string): string {
  if (event === "workflow_job")
    return formatDuration(secondsBetween(payload.workflow_job?.started_at, payload.workflow_job?.completed_at));
  if (event === "workflow_run")
    return formatDuration(secondsBetween(payload.workflow_run?.run_started_at, payload.workflow_run?.updated_at));
  if (event === "page_build" && typeof payload.build?.duration === "number")
    return formatDuration(payload.build.duration / 1000);
  return "";
}

/** `refs/heads/gh-readonly-queue/main/pr-104-929f…` → 104. */
export function mergeQueuePullRequest(headRef: string | undefined): number | undefined {
  const match = /\/pr-(\d+)-[0-9a-f]+$/.exec(headRef ?? "");
  return match ? Number(match[1]) : undefined;
}

/** What a security alert is about, without a final full stop (the message adds its own). */
export function alertTitle(payload: Payload, event: string): string {
  const alert = payload.alert;
  const title =
    event === "code_scanning_alert"
      ? alert?.rule?.description || alert?.rule?.name || alert?.rule?.id
      : alert?.security_advisory?.summary;
  return (title ?? "").trim().replace(/\.$/, "");
}

/** `{"env": "prod", "dry_run": true}` → "env=prod, dry_run=true" (… and N more). */
export function inputList(inputs: Payload["inputs"]): string {
  const pairs = Object.entries(inputs ?? {}).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  if (pairs.length <= CHANGED_FIELDS_LIMIT) return pairs.join(", ");
  return `${pairs.slice(0, CHANGED_FIELDS_LIMIT).join(", ")} … and ${pairs.length - CHANGED_FIELDS_LIMIT} more`;
}

/** A container's tag (or a short digest) rather than the full `sha256:…` version name. */
export function packageVersion(info: PackageInfo | null | undefined): string {
  const version = info?.package_version;
  const tag = version?.container_metadata?.tag?.name;
  if (tag) return tag;
  const name = version?.version ?? "";
  return /^sha256:[0-9a-f]{12,}$/.test(name) ? name.slice(0, "sha256:".length + 12) : name;
}

const isTrue = (value: string | undefined) => /^(1|true|yes|on)$/i.test(value?.trim() ?? "");

/** Deployment states that only say "still going" or "superseded": the creation and the outcome are posted. */
const QUIET_DEPLOYMENT_STATES = new Set(["pending", "queued", "in_progress", "waiting", "inactive"]);
/** Job outcomes that the workflow run's own message reports: only failing jobs are posted. */
const QUIET_JOB_CONCLUSIONS = new Set(["success", "skipped", "neutral"]);

/** Why this delivery is dropped (non-empty text drops it, via the manifest's `ignoreWhen`). */
export function skipReason(payload: Payload, context: TransformContext): string {
  const { event, action } = context;
  if (isTrue(context.options.ignore_private_repositories) && payload.repository?.private === true)
    return "private repository";
  if (event === "push" && payload.ref?.startsWith(MERGE_QUEUE_PREFIX)) return "merge queue";
  // create/delete carry a bare ref name; only branches are subject to the `branches` filter.
  if ((event === "create" || event === "delete") && payload.ref_type === "branch") {
    if (isBranchFilteredOut(payload.ref, parsePatternList("branches", context.options.branches)))
      return "branch filtered";
  }
  // GitHub sends `created` beside `published` for every release that was not saved as a draft first.
  if (event === "release" && action === "created" && payload.release?.draft !== true) return "published separately";
  if (event === "deployment_status" && QUIET_DEPLOYMENT_STATES.has(payload.deployment_status?.state ?? ""))
    return "deployment still running";
  if (event === "workflow_job" && action === "completed") {
    if (QUIET_JOB_CONCLUSIONS.has(payload.workflow_job?.conclusion ?? "")) return "job passed";
  }
  if (event === "page_build" && payload.build?.status === "building") return "build still running";
  return "";
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const view: Record<string, unknown> = { skip: skipReason(payload, context) };
  switch (context.event) {
    case "push":
      view.pushKind = pushKind(payload);
      view.refName = (payload.ref ?? "").replace(/^refs\/(heads|tags)\//, "");
      view.committersSummary = committersSummary(payload.commits ?? [], payload.sender?.login);
      break;
    case "workflow_job":
    case "workflow_run":
    case "page_build":
      view.duration = duration(payload, context.event);
      break;
    case "merge_group":
      view.queuedPullRequest = mergeQueuePullRequest(payload.merge_group?.head_ref);
      break;
    case "package":
    case "registry_package": {
      // Both events describe a package the same way, under different keys.
      const pkg = payload.package ?? payload.registry_package;
      view.pkg = pkg;
      view.packageLabel = [pkg?.name, packageVersion(pkg)].filter(Boolean).join(" ");
      break;
    }
    case "workflow_dispatch":
      view.inputList = inputList(payload.inputs);
      break;
    case "code_scanning_alert":
    case "dependabot_alert":
      view.alertTitle = alertTitle(payload, context.event);
      break;
  }
  if (payload.changes && typeof payload.changes === "object") view.changedFields = changedFields(payload.changes);
  return view;
}
