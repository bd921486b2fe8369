// What the Bitbucket Cloud templates cannot work out themselves: one message per changed branch
// or tag of a push (a push may update several; the `branches` filter applies per branch), the
// kind of each change, commit lists in chronological order (Bitbucket sends the newest first and
// at most five), the commit a status is about (only an API link names it), and — for event keys
// this plugin does not know — what the payload is, from its shape. Pure: no I/O, no clock.
import { isBranchFilteredOut, parsePatternList } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

// Payloads are free-form JSON read defensively field by field; `any` keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

const html = (thing: Dict | undefined | null): string => thing?.links?.html?.href ?? "";
export const userName = (user: Dict | undefined | null): string =>
  user?.display_name || user?.nickname || user?.username || "";

export interface ChangeItem {
  kind: "tag_pushed" | "tag_removed" | "branch_deleted" | "branch_created" | "force_pushed" | "commits";
  refName: string;
  /** Only for branches: the topic is `<repo> / <branch>`. */
  branchName: string;
  refUrl: string;
  compareUrl: string;
  headSha: string;
  commits: { hash: string; message: string; url: string }[];
  truncated: boolean;
}

export function changeItems(payload: Dict, branches: string[] | undefined): ChangeItem[] {
  const changes: Dict[] = Array.isArray(payload.push?.changes) ? payload.push.changes : [];
  const items: ChangeItem[] = [];
  for (const change of changes) {
    const ref: Dict = change.new ?? change.old ?? {};
    const isTag = ref.type === "tag";
    const refName: string = ref.name ?? "";
    if (!isTag && isBranchFilteredOut(refName, branches)) continue;
    // Bitbucket lists the newest commit first; shown oldest first like every other git integration.
    const commits = (Array.isArray(change.commits) ? [...change.commits].reverse() : []).map((c: Dict) => ({
      hash: c.hash ?? "",
      message: c.message ?? "",
      url: html(c),
    }));
    let kind: ChangeItem["kind"];
    if (isTag) kind = change.new ? "tag_pushed" : "tag_removed";
    else if (!change.new) kind = "branch_deleted";
    else if (change.forced) kind = "force_pushed";
    else if (commits.length > 0) kind = "commits";
    else kind = "branch_created";
    items.push({
      kind,
      refName,
      branchName: isTag ? "" : refName,
      refUrl: html(change.new),
      compareUrl: html(change),
      headSha: change.new?.target?.hash ?? "",
      commits,
      truncated: change.truncated === true,
    });
  }
  return items;
}

/** What an unknown event key's payload is, from the objects it carries. */
export function payloadKind(payload: Dict): string {
  if (payload.push) return "push";
  if (payload.fork) return "fork";
  if (payload.commit_status) return "commit_status";
  if (payload.pullrequest) return payload.comment ? "pullrequest_comment" : "pullrequest";
  if (payload.issue) return payload.comment ? "issue_comment" : "issue";
  if (payload.comment && payload.commit) return "commit_comment";
  return "";
}

export default function transform(payload: Dict, context: TransformContext): Dict {
  const kind = context.event === "repo:push" ? "push" : payloadKind(payload);
  const view: Dict = { actorName: userName(payload.actor), shape: kind };
  const branches = parsePatternList("branches", context.options.branches);
  // One message per changed ref for pushes; exactly one for anything else the plugin recognises.
  view.items = kind === "push" ? changeItems(payload, branches) : kind ? [{}] : [];
  const status: Dict | undefined = payload.commit_status;
  if (status) {
    const hash =
      String(status.links?.commit?.href ?? "")
        .split("/")
        .pop() ?? "";
    view.statusSha = hash;
    view.statusCommitUrl = hash && html(payload.repository) ? `${html(payload.repository)}/commits/${hash}` : "";
  }
  const reviewers = payload.pullrequest?.reviewers;
  if (payload.pullrequest)
    view.reviewerNames = (Array.isArray(reviewers) ? reviewers : []).map(userName).filter(Boolean);
  if (payload.commit)
    view.commitUrl = html(payload.commit) || `${html(payload.repository)}/commits/${payload.commit.hash}`;
  if (payload.issue?.assignee) view.assigneeName = userName(payload.issue.assignee);
  return view;
}
