// Semaphore 2.0 pipelines: what the manifest's outputs cannot say. The workflow link's host is
// the organization name, used only when it is a plain subdomain (letters, digits, dashes), and
// the failed jobs are collected across every block's jobs. The result row, the run time and
// the commit and pull request links are outputs in integration.json.
import { defineTransform } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

const FAILED_JOBS_SHOWN = 5;

// The schema leaves blocks free-form; only these fields are read.
type Block = { jobs?: ({ name?: string | null; result?: string | null } | null)[] | null } | null;

export default defineTransform<Payload, { workflowUrl?: string; failedJobs: string[]; moreFailedJobs: number }>(
  (payload) => {
    const failed = ((payload.blocks ?? []) as Block[]).flatMap((block) =>
      (block?.jobs ?? []).filter((job) => job?.result === "failed").map((job) => job?.name ?? "(unnamed job)"),
    );
    const org = payload.organization?.name;
    const subdomain = typeof org === "string" && /^[a-z0-9-]+$/i.test(org) ? org : undefined;
    const pipelineId = payload.pipeline?.id;
    return {
      workflowUrl:
        subdomain && payload.workflow?.id
          ? `https://${subdomain}.semaphoreci.com/workflows/${payload.workflow.id}` +
            (pipelineId ? `?pipeline_id=${pipelineId}` : "")
          : undefined,
      failedJobs: failed.slice(0, FAILED_JOBS_SHOWN),
      moreFailedJobs: Math.max(0, failed.length - FAILED_JOBS_SHOWN),
    };
  },
);
