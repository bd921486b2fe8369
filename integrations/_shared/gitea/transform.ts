// What the Gitea templates cannot work out themselves: which push message a push gets, how many
// commits Gitea left out of the payload (it lists at most a few and reports `total_commits`), the
// "Commits by A (3) and B (1)." summary, and the `branches` filter for create/delete (their `ref`
// is a bare name, and tags must never be filtered). Pure: no I/O, no clock.
import {
  giteaCommittersSummary,
  gitPushKind,
  isBranchFilteredOut,
  parsePatternList,
} from "../../../src/webhooks/plugin";
import type { TransformContext } from "../../../src/webhooks/plugin";

/** The commit list shows at most this many rows, as every git integration does. */
const COMMITS_SHOWN = 20;

interface Commit {
  author?: { name?: string; username?: string; email?: string } | null;
}

interface Repository {
  html_url?: string;
  fork?: boolean;
}

interface Item {
  number?: number;
  title?: string;
  html_url?: string;
  pull_request?: { html_url?: string } | null;
}

interface Payload {
  ref?: string;
  ref_type?: string;
  before?: string;
  after?: string;
  commits?: Commit[] | null;
  total_commits?: number;
  pusher?: { login?: string; username?: string; email?: string } | null;
  sender?: { login?: string; username?: string; email?: string } | null;
  repository?: Repository | null;
  forkee?: Repository | null;
  issue?: Item;
  pull_request?: Item;
  is_pull?: boolean;
}

/** The issue or pull request a delivery is about: kind, number, title and a web link (older Gitea
 * versions send only the API URL of an issue, so the link is built from the repository's). */
export function itemFields(payload: Payload, event: string): Record<string, unknown> {
  const repoUrl = payload.repository?.html_url ?? "";
  const issue = payload.issue;
  if (event === "issues" && issue)
    return {
      itemKind: "issue",
      itemNumber: issue.number,
      itemTitle: issue.title,
      itemUrl: issue.html_url || `${repoUrl}/issues/${issue.number}`,
    };
  if (event === "issue_comment" && issue) {
    const isPull = payload.is_pull === true || Boolean(issue.pull_request);
    const url = isPull
      ? issue.pull_request?.html_url || `${repoUrl}/pulls/${issue.number}`
      : issue.html_url || `${repoUrl}/issues/${issue.number}`;
    return { itemKind: isPull ? "PR" : "issue", itemNumber: issue.number, itemTitle: issue.title, itemUrl: url };
  }
  const pr = payload.pull_request;
  if (event.startsWith("pull_request") && pr)
    return {
      itemKind: "PR",
      itemNumber: pr.number,
      itemTitle: pr.title,
      itemUrl: pr.html_url || `${repoUrl}/pulls/${pr.number}`,
    };
  return {};
}

/** pull_request_approved / _rejected / _comment (and the older pull_request_review_* names). */
const reviewKind = (event: string) => event.replace(/^pull_request_(review_)?/, "");

/** Which repository of a fork event is the new fork: Gitea sends the original as `forkee` and the
 * fork as `repository` (GitHub does the opposite), so the `fork` flag decides. */
export function forkSides(payload: Payload): Record<string, unknown> {
  const [a, b] = [payload.repository, payload.forkee];
  return a?.fork === true || b?.fork !== true ? { forkRepo: a, originRepo: b } : { forkRepo: b, originRepo: a };
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  if (context.event === "fork") return { skip: "", ...forkSides(payload) };
  if (context.event.startsWith("pull_request_"))
    return { skip: "", reviewKind: reviewKind(context.event), ...itemFields(payload, context.event) };
  if (context.event === "issues" || context.event === "issue_comment" || context.event === "pull_request")
    return { skip: "", ...itemFields(payload, context.event) };
  if (context.event === "create" || context.event === "delete") {
    const filtered =
      payload.ref_type === "branch" &&
      isBranchFilteredOut(payload.ref, parsePatternList("branches", context.options.branches));
    return { skip: filtered ? "branch filtered" : "" };
  }
  if (context.event !== "push") return { skip: "" };
  // Gitea lists the newest commit first (and, for a big push, only the newest few): shown oldest
  // first like every other git integration.
  const commits = [...(payload.commits ?? [])].reverse();
  const total = Math.max(commits.length, payload.total_commits ?? 0);
  const who = payload.pusher?.login || payload.pusher?.username ? payload.pusher : payload.sender;
  const pusher = who?.login || who?.username || "";
  return {
    skip: "",
    pushKind: gitPushKind(payload),
    pusherName: pusher,
    refName: (payload.ref ?? "").replace(/^refs\/(heads|tags)\//, ""),
    commitCount: total,
    shownCommits: commits.slice(0, COMMITS_SHOWN),
    moreCommits: total - Math.min(commits.length, COMMITS_SHOWN),
    committersSummary: giteaCommittersSummary(commits, { login: pusher, email: who?.email }),
  };
}
