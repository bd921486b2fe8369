// What the Bitbucket Server templates cannot work out themselves: web links (the payload has the
// repository's "browse" link only, commit and branch links are built from it), one item per
// changed ref of a push (each gets its own message and topic, and the `branches` filter applies
// per ref), a pull request's source when it comes from a fork, and reviewer names. Pure.
import { isBranchFilteredOut, parsePatternList } from "../../../src/webhooks/plugin";
import type { TransformContext } from "../../../src/webhooks/plugin";

// Payloads are free-form JSON read defensively field by field; `any` keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

const selfLink = (thing: Dict | undefined): string => thing?.links?.self?.[0]?.href ?? "";
/** ".../projects/KEY/repos/slug/browse" → ".../projects/KEY/repos/slug". */
export const repoBase = (repo: Dict | undefined): string => selfLink(repo).replace(/\/browse\/?$/, "");
const userName = (user: Dict | undefined): string => user?.displayName || user?.name || "";
/** "PAY/ledger", "~MLIN/ledger": a fork usually keeps the name of its origin, the project tells them apart. */
const fullName = (repo: Dict | undefined): string =>
  repo?.project?.key && repo?.slug ? `${repo.project.key}/${repo.slug}` : (repo?.name ?? "");

export interface RefChangeItem {
  kind: "branch_created" | "branch_updated" | "branch_deleted" | "tag_created" | "tag_updated" | "tag_deleted";
  refName: string;
  /** Only for branches: the topic is `<repo> / <branch>`. */
  branchName: string;
  refUrl: string;
  headSha: string;
  headUrl: string;
}

export function refChangeItems(payload: Dict, branches: string[] | undefined): RefChangeItem[] {
  const base = repoBase(payload.repository);
  const changes: Dict[] = Array.isArray(payload.changes) ? payload.changes : [];
  return changes
    .filter((c) => c?.ref?.type === "TAG" || !isBranchFilteredOut(c?.refId ?? c?.ref?.id, branches))
    .map((c) => {
      const isTag = c.ref?.type === "TAG";
      const refId = String(c.refId ?? c.ref?.id ?? "");
      const type = String(c.type ?? "UPDATE").toUpperCase();
      const verb = type === "ADD" ? "created" : type === "DELETE" ? "deleted" : "updated";
      const refName = c.ref?.displayId || refId.replace(/^refs\/(heads|tags)\//, "");
      return {
        kind: `${isTag ? "tag" : "branch"}_${verb}` as RefChangeItem["kind"],
        refName,
        branchName: isTag ? "" : refName,
        refUrl: base ? `${base}/browse?at=${encodeURIComponent(refId)}` : "",
        headSha: c.toHash ?? "",
        headUrl: base && c.toHash ? `${base}/commits/${c.toHash}` : "",
      };
    });
}

function pullRequestFields(pr: Dict): Dict {
  const from: Dict = pr.fromRef ?? {};
  const to: Dict = pr.toRef ?? {};
  const fromFork = from.repository?.id !== undefined && from.repository?.id !== to.repository?.id;
  const reviewers: Dict[] = Array.isArray(pr.reviewers) ? pr.reviewers : [];
  return {
    prUrl: selfLink(pr),
    fromLabel: fromFork ? `${fullName(from.repository)}:${from.displayId}` : from.displayId,
    toLabel: to.displayId,
    reviewerNames: reviewers.map((r) => userName(r?.user)).filter(Boolean),
  };
}

export default function transform(payload: Dict, context: TransformContext): Dict {
  const repo: Dict | undefined = payload.repository ?? payload.pullRequest?.toRef?.repository ?? payload.new;
  const view: Dict = { actorName: userName(payload.actor), repoName: repo?.name ?? "", repoUrl: repoBase(repo) };
  if (context.event === "repo:refs_changed")
    view.changeItems = refChangeItems(payload, parsePatternList("branches", context.options.branches));
  if (payload.pullRequest) Object.assign(view, pullRequestFields(payload.pullRequest));
  if (payload.commit && view.repoUrl) view.commitUrl = `${view.repoUrl}/commits/${payload.commit}`;
  if (context.event === "pr:reviewer:updated") {
    view.addedNames = (payload.addedReviewers ?? []).map(userName).filter(Boolean);
    view.removedNames = (payload.removedReviewers ?? []).map(userName).filter(Boolean);
  }
  if (context.event === "repo:forked")
    Object.assign(view, {
      originUrl: repoBase(payload.repository?.origin),
      originName: fullName(payload.repository?.origin),
      forkName: fullName(payload.repository),
    });
  if (context.event === "repo:modified") view.newUrl = repoBase(payload.new);
  return view;
}
