// Travis CI names a build's outcome in `status_message` (Passed, Fixed, Broken, Failed, Still Failing,
// Errored, Canceled, Pending) and its length in seconds; this turns them into an emoji, a verb and
// a readable duration, and decides whether pull-request builds are dropped (URL option).
import { compactDuration } from "../../src/webhooks/plugin";

const RESULTS: Record<string, { emoji: string; word: string }> = {
  pending: { emoji: ":gear:", word: "started" },
  passed: { emoji: ":check:", word: "passed" },
  fixed: { emoji: ":check:", word: "was fixed" },
  broken: { emoji: ":cross_mark:", word: "is broken" },
  failed: { emoji: ":cross_mark:", word: "failed" },
  "still failing": { emoji: ":cross_mark:", word: "is still failing" },
  errored: { emoji: ":warning:", word: "errored" },
  canceled: { emoji: ":stop_button:", word: "was canceled" },
};

interface Payload {
  type?: string;
  status_message?: string | null;
  state?: string | null;
  duration?: number | null;
  compare_url?: string | null;
  pull_request_number?: number | null;
  repository?: { name?: string; owner_name?: string };
}

/** Travis's compare_url is the pull request's page for PR builds; otherwise build the GitHub one. */
function pullRequestUrl(payload: Payload): string | undefined {
  if (payload.compare_url && /\/pull\/\d+/.test(payload.compare_url)) return payload.compare_url;
  const repo = payload.repository;
  if (repo?.owner_name && repo.name && payload.pull_request_number)
    return `https://github.com/${repo.owner_name}/${repo.name}/pull/${payload.pull_request_number}`;
  return undefined;
}

/** The commit's page, derived from the compare/PR URL of a GitHub-style host; else the compare URL. */
function commitUrl(payload: Payload & { commit?: string | null }): string | undefined {
  const repoUrl = /^(https?:\/\/[^/]+\/[^/]+\/[^/]+)\/(compare|pull)\//.exec(payload.compare_url ?? "")?.[1];
  if (repoUrl && payload.commit) return `${repoUrl}/commit/${payload.commit}`;
  return payload.compare_url ?? undefined;
}

export default function transform(payload: Payload, context: { options: Record<string, string | undefined> }) {
  const status = (payload.status_message ?? payload.state ?? "unknown").toLowerCase();
  return {
    result: RESULTS[status] ?? { emoji: ":question:", word: `ended as ${status}` },
    commitUrl: commitUrl(payload),
    pullRequestUrl: payload.type === "pull_request" ? pullRequestUrl(payload) : undefined,
    took: typeof payload.duration === "number" ? compactDuration(payload.duration) : undefined,
    skip: context.options.ignore_pull_requests === "true" && payload.type === "pull_request" ? "skip" : "",
  };
}
