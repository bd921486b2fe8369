// Semaphore sends two shapes: Classic (`event`: build | deploy, a flat `result`) and 2.0
// (no `event`; `pipeline`, `revision`, `blocks`). This derives what the templates show for
// both: which row of the manifest's result table, the run time, the workflow and commit links
// (2.0 only gives ids and the repository URL) and the failed jobs.
import { compactDuration } from "../../src/webhooks/plugin";

type Text = string | null | undefined;

interface Job {
  name?: Text;
  result?: Text;
}

interface Payload {
  result?: Text;
  started_at?: Text;
  finished_at?: Text;
  organization?: { name?: Text } | null;
  repository?: { url?: Text } | null;
  workflow?: { id?: Text } | null;
  revision?: { commit_sha?: Text; pull_request?: { number?: Text | number } | null } | null;
  pipeline?: { id?: Text; result?: Text; running_at?: Text; created_at?: Text; done_at?: Text } | null;
  blocks?: { name?: Text; jobs?: Job[] | null }[] | null;
}

const FAILED_JOBS_SHOWN = 5;

/** "45 s", "2 min 5 s", "1 h 3 min" between two timestamps (Semaphore's "1970-…" placeholders excluded). */
export function duration(from: Text, to: Text): string | undefined {
  const start = Date.parse(from ?? "");
  return start > 0 ? compactDuration((Date.parse(to ?? "") - start) / 1000) : undefined;
}

function repoPage(repoUrl: Text, kind: "commit" | "pull", id: Text | number | undefined): string | undefined {
  if (!repoUrl || !/^https?:\/\//.test(repoUrl) || id === undefined || id === null || id === "") return undefined;
  const base = repoUrl.replace(/\.git$/, "").replace(/\/$/, "");
  if (base.includes("bitbucket")) return `${base}/${kind === "commit" ? "commits" : "pull-requests"}/${id}`;
  if (base.includes("gitlab")) return `${base}/-/${kind === "commit" ? "commit" : "merge_requests"}/${id}`;
  return `${base}/${kind}/${id}`;
}

export default function transform(payload: Payload) {
  const pipeline = payload.pipeline;
  const status = (pipeline?.result ?? payload.result ?? "unknown").toLowerCase();
  const failed = (payload.blocks ?? []).flatMap((block) =>
    (block.jobs ?? []).filter((job) => job.result === "failed").map((job) => job.name ?? "(unnamed job)"),
  );
  // The organization name is the semaphoreci.com subdomain: only letters, digits and dashes.
  const org = /^[a-z0-9-]+$/i.test(payload.organization?.name ?? "") ? payload.organization?.name : undefined;
  return {
    resultKey: status,
    took: pipeline
      ? duration(pipeline.running_at ?? pipeline.created_at, pipeline.done_at)
      : duration(payload.started_at, payload.finished_at),
    workflowUrl:
      org && payload.workflow?.id
        ? `https://${org}.semaphoreci.com/workflows/${payload.workflow.id}` +
          (pipeline?.id ? `?pipeline_id=${pipeline.id}` : "")
        : undefined,
    commitUrl: repoPage(payload.repository?.url, "commit", payload.revision?.commit_sha),
    pullRequestUrl: repoPage(payload.repository?.url, "pull", payload.revision?.pull_request?.number),
    failedJobs: failed.slice(0, FAILED_JOBS_SHOWN),
    moreFailedJobs: Math.max(0, failed.length - FAILED_JOBS_SHOWN),
  };
}
