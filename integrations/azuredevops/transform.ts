// What the Azure DevOps templates cannot work out themselves: web links (commit and compare links
// are built from the repository's web URL; the payload's own `url`s point at the REST API),
// which kind of ref a push changed, work-item fields (their names contain dots, e.g.
// `System.Title`, and updates nest old/new values), and which deliveries are dropped: merge
// attempts (Azure fires `git.pullrequest.merged` for every test merge) and pushes to branches
// outside the `branches` option. Pure: no I/O, no clock.
import { isBranchFilteredOut, parsePatternList, withoutTrailingAngle } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

// Payloads are free-form JSON read defensively field by field; `any` keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

const COMMITS_SHOWN = 20;
const ZERO_SHA = /^0+$/;

/** The repository's web URL: `webUrl`, else `remoteUrl` without the user part Azure sometimes adds. */
export function repoWebUrl(repo: Dict | undefined): string {
  const given: unknown = repo?.webUrl || repo?.remoteUrl;
  const url = typeof given === "string" ? given : ""; // any JSON type may arrive here
  return url.replace(/^(https?:\/\/)[^@/]+@/, "$1").replace(/\/$/, "");
}

const branchOf = (ref: unknown) => String(ref ?? "").replace(/^refs\/(heads|tags)\//, "");

function pushFields(resource: Dict, branches: string[] | undefined): Dict {
  const web = repoWebUrl(resource.repository);
  const update: Dict = resource.refUpdates?.[0] ?? {};
  const refName = branchOf(update.name);
  const isTag = String(update.name ?? "").startsWith("refs/tags/");
  const deleted = ZERO_SHA.test(update.newObjectId ?? "");
  const created = ZERO_SHA.test(update.oldObjectId ?? "");
  const commits: Dict[] = Array.isArray(resource.commits) ? resource.commits : [];
  // Azure lists the newest commit first; shown oldest first like every other git integration.
  const ordered = [...commits].reverse().map((c) => ({
    id: c.commitId,
    message: c.comment ?? "",
    url: web && c.commitId ? `${web}/commit/${c.commitId}` : "",
  }));
  const kind = isTag
    ? deleted
      ? "tag_removed"
      : "tag_pushed"
    : deleted
      ? "branch_deleted"
      : commits.length
        ? "commits"
        : created
          ? "branch_created"
          : "no_commits";
  return {
    pushKind: kind,
    refName,
    isTag,
    refUrl: web ? `${web}?version=${isTag ? "GT" : "GB"}${encodeURIComponent(refName)}` : "",
    compareUrl:
      web && !created && !deleted
        ? `${web}/branchCompare?baseVersion=GC${update.oldObjectId}&targetVersion=GC${update.newObjectId}&_a=files`
        : "",
    headSha: update.newObjectId ?? "",
    shownCommits: ordered.slice(0, COMMITS_SHOWN),
    moreCommits: Math.max(0, ordered.length - COMMITS_SHOWN),
    skip: !isTag && isBranchFilteredOut(update.name, branches) ? "branch filtered" : "",
  };
}

function pullRequestFields(pr: Dict, event: string): Dict {
  const web = repoWebUrl(pr.repository);
  const reviewers: Dict[] = Array.isArray(pr.reviewers) ? pr.reviewers : [];
  const merged = event === "git.pullrequest.merged";
  return {
    prNumber: pr.pullRequestId,
    prTitle: pr.title ?? "",
    prUrl: pr._links?.web?.href || (web ? `${web}/pullrequest/${pr.pullRequestId}` : ""),
    sourceBranch: branchOf(pr.sourceRefName),
    targetBranch: branchOf(pr.targetRefName),
    reviewerNames: reviewers.map((r) => r?.displayName).filter(Boolean),
    // A merge attempt is a test merge, not the pull request being completed.
    skip: merged && pr.status !== "completed" ? "merge attempt" : "",
  };
}

/** A work item field, plain (`created`) or as `{oldValue, newValue}` (`updated`). */
const fieldValue = (v: unknown) => (v && typeof v === "object" && "newValue" in (v as Dict) ? (v as Dict).newValue : v);
const person = (v: unknown): string =>
  typeof v === "string" ? withoutTrailingAngle(v) : ((v as Dict)?.displayName ?? "");

/** Work item comments arrive as HTML: tags dropped, paragraphs and line breaks kept. */
export function htmlToText(html: unknown): string {
  if (typeof html !== "string") return "";
  return html
    .replace(/<br\s*\/?>|<\/(p|div|li)>/gi, "\n")
    .replace(/<[^<>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function workItemFields(resource: Dict): Dict {
  const fields: Dict = { ...(resource.revision?.fields ?? {}), ...(resource.fields ?? {}) };
  const get = (name: string) => fieldValue(fields[name]);
  const changed: Dict = resource.fields ?? {};
  const stateChange = changed["System.State"]?.newValue !== undefined ? changed["System.State"] : undefined;
  const assigned = changed["System.AssignedTo"]?.newValue !== undefined ? changed["System.AssignedTo"] : undefined;
  return {
    wi: {
      id: resource.workItemId ?? resource.id,
      title: get("System.Title") ?? "",
      type: get("System.WorkItemType") ?? "work item",
      state: get("System.State") ?? "",
      project: get("System.TeamProject") ?? "",
      url: resource._links?.html?.href ?? "",
      assignedTo: person(get("System.AssignedTo")),
      by: person(resource.revisedBy) || person(get("System.ChangedBy")) || person(get("System.CreatedBy")),
      oldState: stateChange?.oldValue ?? "",
      newState: stateChange?.newValue ?? "",
      assignedChanged: Boolean(assigned),
      newAssignee: assigned ? person(assigned.newValue) : "",
      comment: htmlToText(get("System.History")),
      // An update that also added a comment carries it as a changed System.History.
      newComment: changed["System.History"] ? htmlToText(fieldValue(changed["System.History"])) : "",
      otherChanges: Object.keys(changed)
        .filter(
          (k) =>
            !/^System\.(Rev|AuthorizedDate|RevisedDate|ChangedDate|ChangedBy|Watermark|State|AssignedTo|Reason|History|CommentCount)$/.test(
              k,
            ),
        )
        .map((k) => k.replace(/^.*\./, "")),
    },
  };
}

export default function transform(payload: Dict, context: TransformContext): Dict {
  const resource: Dict = payload.resource ?? {};
  const event = context.event;
  const view: Dict = { skip: "" };
  if (event === "git.push")
    Object.assign(view, pushFields(resource, parsePatternList("branches", context.options.branches)));
  if (event.startsWith("git.pullrequest.")) Object.assign(view, pullRequestFields(resource, event));
  if (event === "ms.vss-code.git-pullrequest-comment-event" && resource.pullRequest)
    Object.assign(view, pullRequestFields(resource.pullRequest, event));
  if (event.startsWith("workitem.")) Object.assign(view, workItemFields(resource));
  if (event === "build.complete") {
    const requested = resource.requestedFor ?? resource.requests?.[0]?.requestedFor;
    Object.assign(view, {
      buildUrl: resource._links?.web?.href ?? "",
      buildResult: resource.result ?? resource.status ?? "",
      buildBranch: branchOf(resource.sourceBranch ?? String(resource.sourceGetVersion ?? "").split(":")[1]),
      requestedBy: person(requested),
    });
  }
  return view;
}
