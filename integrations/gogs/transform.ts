// What the Gogs templates cannot work out themselves: who acted (older Gogs versions name users
// only by `username`), which push message a push gets, the "Commits by A (3) and B (1)." summary,
// web links Gogs does not send (issues, releases), which side of a fork event is the fork, and the
// `branches` filter for create/delete (their `ref` is a bare name; tags are never filtered).
// Pure: no I/O, no clock.
import { giteaCommittersSummary, gitPushKind, isBranchFilteredOut, parsePatternList } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

interface User {
  login?: string;
  username?: string;
  email?: string;
}

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
  pull_request?: object | null;
}

interface Payload {
  ref?: string;
  ref_type?: string;
  before?: string;
  after?: string;
  commits?: Commit[] | null;
  pusher?: User | null;
  sender?: User | null;
  repository?: Repository | null;
  forkee?: Repository | null;
  issue?: Item;
  pull_request?: Item;
  release?: { tag_name?: string };
}

const userName = (user: User | null | undefined) => user?.login || user?.username || "";

/** The issue or pull request a delivery is about. Gogs sends no web link for issues. */
export function itemFields(payload: Payload, event: string): Record<string, unknown> {
  const repoUrl = payload.repository?.html_url ?? "";
  const { issue, pull_request: pr } = payload;
  if (event === "pull_request" && pr)
    return {
      itemKind: "PR",
      itemNumber: pr.number,
      itemTitle: pr.title,
      itemUrl: pr.html_url || `${repoUrl}/pulls/${pr.number}`,
    };
  if (!issue) return {};
  const isPull = Boolean(issue.pull_request);
  const url = isPull ? `${repoUrl}/pulls/${issue.number}` : issue.html_url || `${repoUrl}/issues/${issue.number}`;
  return { itemKind: isPull ? "PR" : "issue", itemNumber: issue.number, itemTitle: issue.title, itemUrl: url };
}

/** The `fork` flag says which repository is the new fork, whichever field Gogs puts it in. */
export function forkSides(payload: Payload): Record<string, unknown> {
  const [a, b] = [payload.forkee, payload.repository];
  return a?.fork === true || b?.fork !== true ? { forkRepo: a, originRepo: b } : { forkRepo: b, originRepo: a };
}

function pushFields(payload: Payload): Record<string, unknown> {
  // Gogs lists the newest commit first; shown oldest first like every other git integration.
  const commits = [...(payload.commits ?? [])].reverse();
  const who = userName(payload.pusher) ? payload.pusher : payload.sender;
  const pusher = userName(who);
  return {
    pushKind: gitPushKind(payload),
    pusherName: pusher,
    refName: (payload.ref ?? "").replace(/^refs\/(heads|tags)\//, ""),
    shownCommits: commits,
    committersSummary: giteaCommittersSummary(commits, { login: pusher, email: who?.email }),
  };
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const view: Record<string, unknown> = { skip: "", actor: userName(payload.sender) };
  switch (context.event) {
    case "push":
      return { ...view, ...pushFields(payload) };
    case "create":
    case "delete": {
      const branches = parsePatternList("branches", context.options.branches);
      const filtered = payload.ref_type === "branch" && isBranchFilteredOut(payload.ref, branches);
      return { ...view, skip: filtered ? "branch filtered" : "" };
    }
    case "issues":
    case "issue_comment":
    case "pull_request":
      return { ...view, ...itemFields(payload, context.event) };
    case "fork":
      return { ...view, ...forkSides(payload) };
    case "release":
      return { ...view, releaseUrl: `${payload.repository?.html_url ?? ""}/releases` };
    default:
      return view;
  }
}
