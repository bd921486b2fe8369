// CircleCI puts the commit in different places depending on how the pipeline was triggered:
// `pipeline.vcs` (OAuth GitHub/Bitbucket projects), `pipeline.trigger_parameters.<provider>`
// (GitLab and GitHub App projects) and `trigger_parameters.git`. This gathers one `source`
// view from whichever is present, builds the commit link for the VCS host, and turns the
// start/stop times into a duration (the status line is the manifest's result table).
import { compactDuration, nonEmptyText as text, shortSha } from "../../src/webhooks/plugin";

type Text = string | null | undefined;

interface Vcs {
  provider_name?: Text;
  origin_repository_url?: Text;
  target_repository_url?: Text;
  revision?: Text;
  branch?: Text;
  tag?: Text;
  commit?: { subject?: Text; author?: { name?: Text } | null } | null;
}

interface Pipeline {
  number?: number;
  trigger?: { type?: Text; actor?: { login?: Text } | null } | null;
  vcs?: Vcs | null;
  trigger_parameters?: Record<string, Record<string, unknown> | null> | null;
}

interface Payload {
  pipeline?: Pipeline | null;
  workflow?: { status?: Text; created_at?: Text; stopped_at?: Text; url?: Text } | null;
  job?: { status?: Text; started_at?: Text; stopped_at?: Text; number?: number } | null;
}

/** "45 s", "2 min 5 s", "1 h 3 min" between two timestamps; undefined when either is missing. */
export function duration(from: Text, to: Text): string | undefined {
  return compactDuration((Date.parse(to ?? "") - Date.parse(from ?? "")) / 1000);
}

/** Web URL of a commit on GitHub, GitLab or Bitbucket (git@ and .git forms accepted). */
export function commitUrl(repo: string | undefined, sha: string | undefined): string | undefined {
  if (!repo || !sha) return undefined;
  const web = repo
    .replace(/^git@([^:]+):/, "https://$1/")
    .replace(/\.git$/, "")
    .replace(/\/$/, "");
  if (!/^https?:\/\//.test(web)) return undefined;
  if (web.includes("gitlab")) return `${web}/-/commit/${sha}`;
  if (web.includes("bitbucket")) return `${web}/commits/${sha}`;
  return `${web}/commit/${sha}`;
}

export default function transform(payload: Payload) {
  const pipeline = payload.pipeline ?? {};
  const vcs = pipeline.vcs ?? {};
  const params = pipeline.trigger_parameters ?? {};
  const git = params.git ?? {};
  // The provider block (gitlab, github_app, …): everything in trigger_parameters but git/circleci.
  const provider =
    Object.entries(params).find(([key, value]) => key !== "git" && key !== "circleci" && value)?.[1] ?? {};
  const sha = text(vcs.revision) ?? text(provider.checkout_sha) ?? text(provider.commit_sha) ?? text(git.checkout_sha);
  const repo = text(vcs.origin_repository_url) ?? text(provider.web_url) ?? text(git.checkout_url);
  const author = text(vcs.commit?.author?.name) ?? text(provider.commit_author_name);
  const actor = text(provider.user_name) ?? text(pipeline.trigger?.actor?.login);
  const run = payload.job ?? payload.workflow ?? {};
  const status = text(run.status) ?? "unknown";
  return {
    source: {
      branch: text(vcs.branch) ?? text(provider.branch) ?? text(git.branch),
      tag: text(vcs.tag) ?? text(provider.tag) ?? text(git.tag),
      sha: sha && shortSha(sha, 7),
      commitUrl: commitUrl(repo, sha),
      subject: text(vcs.commit?.subject) ?? text(provider.commit_title),
      author,
      actor: actor !== author ? actor : undefined,
      scheduled: pipeline.trigger?.type === "schedule" || undefined,
    },
    resultKey: status,
    duration: payload.job
      ? duration(payload.job.started_at, payload.job.stopped_at)
      : duration(payload.workflow?.created_at, payload.workflow?.stopped_at),
    jobUrl:
      payload.job && payload.workflow?.url && payload.job.number !== undefined
        ? `${payload.workflow.url}/jobs/${payload.job.number}`
        : undefined,
  };
}
