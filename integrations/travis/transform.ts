// Travis CI gives a pull request's page and a commit's only inside compare_url: this derives the
// two links (the status table, duration and the pull-request filter are in integration.json).
// Kept as code: taking a GitHub-style repository URL apart is pattern matching, not a lookup.
import { defineTransform } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

/** Travis's compare_url is the pull request's page for PR builds; otherwise build the GitHub one. */
function pullRequestUrl(payload: Payload): string | undefined {
  if (payload.compare_url && /\/pull\/\d+/.test(payload.compare_url)) return payload.compare_url;
  const repo = payload.repository;
  if (repo?.owner_name && repo.name && payload.pull_request_number)
    return `https://github.com/${repo.owner_name}/${repo.name}/pull/${payload.pull_request_number}`;
  return undefined;
}

/** The commit's page, derived from the compare/PR URL of a GitHub-style host; else the compare URL. */
function commitUrl(payload: Payload): string | undefined {
  const repoUrl = /^(https?:\/\/[^/]+\/[^/]+\/[^/]+)\/(compare|pull)\//.exec(payload.compare_url ?? "")?.[1];
  if (repoUrl && payload.commit) return `${repoUrl}/commit/${payload.commit}`;
  return payload.compare_url ?? undefined;
}

export default defineTransform<Payload, { commitUrl?: string; pullRequestUrl?: string }>((payload) => ({
  commitUrl: commitUrl(payload),
  pullRequestUrl: payload.type === "pull_request" ? pullRequestUrl(payload) : undefined,
}));
