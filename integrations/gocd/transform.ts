// GoCD reaches us in two shapes: the pipeline instance (`name`, `counter`, `stages[]`,
// `build_cause`) that older webhook plugins post, and the stage-status notification of the
// WebHook Notifier plugin (`pipeline.name`, `pipeline.stage`, `pipeline.build-cause`). Both are
// read into one `run` view: pipeline, stage, result (its row in the manifest's table), failed
// jobs, the commit that triggered it, and links into the GoCD server when `server` is set.
import { compactDuration, scalarText as text, withoutTrailingAngle } from "../../src/webhooks/plugin";

type Text = string | null | undefined;

interface Modification {
  revision?: Text;
  comment?: Text;
  user_name?: Text;
  "user-name"?: Text;
}

interface Material {
  description?: Text;
  "git-configuration"?: { url?: Text; branch?: Text } | null;
  "scm-configuration"?: { url?: Text; branch?: Text } | null;
}

interface MaterialRevision {
  changed?: boolean;
  material?: Material | null;
  modifications?: Modification[] | null;
}

interface Job {
  name?: Text;
  result?: Text;
}

interface Stage {
  name?: Text;
  counter?: Text | number;
  result?: Text;
  state?: Text;
  "approved-by"?: Text;
  "create-time"?: Text;
  "last-transition-time"?: Text;
  jobs?: Job[] | null;
}

interface Run {
  name?: Text;
  counter?: Text | number;
  label?: Text;
}

interface Payload extends Run {
  stages?: Stage[] | null;
  build_cause?: { trigger_message?: Text; material_revisions?: MaterialRevision[] | null } | null;
  pipeline?: (Run & { stage?: Stage | null; "build-cause"?: MaterialRevision[] | null }) | null;
}

const FAILED_JOBS_SHOWN = 5;

/** "45 s", "2 min 5 s", "1 h 3 min" between two timestamps. */
const duration = (from: Text, to: Text) => compactDuration((Date.parse(to ?? "") - Date.parse(from ?? "")) / 1000);

/** "URL: https://github.com/gocd/gocd, Branch: master" → url and branch. */
function parseDescription(description: Text): { url?: string; branch?: string } {
  const url = /URL:\s*([^,\s]+)/.exec(description ?? "")?.[1];
  const branch = /Branch:\s*([^,\s]+)/.exec(description ?? "")?.[1];
  return { url, branch };
}

function commitUrl(repo: string | undefined, sha: string | undefined): string | undefined {
  if (!repo || !sha) return undefined;
  const web = repo
    .replace(/^git@([^:]+):/, "https://$1/")
    .replace(/\.git$/, "")
    .replace(/\/$/, "");
  if (!/^https:\/\/(github\.com|gitlab\.com|bitbucket\.org)\//.test(web)) return undefined;
  if (web.includes("gitlab")) return `${web}/-/commit/${sha}`;
  if (web.includes("bitbucket")) return `${web}/commits/${sha}`;
  return `${web}/commit/${sha}`;
}

/** The first changed material's newest modification (falls back to the first material). */
function triggeringChange(
  materials: MaterialRevision[],
): { material: Material; modification: Modification } | undefined {
  const chosen = materials.find((m) => m?.changed) ?? materials[0];
  const modification = chosen?.modifications?.[0];
  return chosen && modification ? { material: chosen.material ?? {}, modification } : undefined;
}

export default function transform(payload: Payload, context: { options: Record<string, string | undefined> }) {
  const notification = payload.pipeline && typeof payload.pipeline === "object" ? payload.pipeline : undefined;
  const pipeline = notification ?? payload;
  const stage: Stage =
    (notification
      ? notification.stage
      : [...(payload.stages ?? [])].reverse().find((s) => s?.result && s.result !== "Unknown")) ??
    payload.stages?.[0] ??
    {};
  const status = (text(stage.result) ?? text(stage.state) ?? "unknown").toLowerCase();
  const jobs = stage.jobs ?? [];
  const failed = jobs.filter((j) => text(j?.result)?.toLowerCase() === "failed").map((j) => text(j.name) ?? "(job)");

  const materials = notification
    ? (notification["build-cause"] ?? [])
    : (payload.build_cause?.material_revisions ?? []);
  const change = triggeringChange(materials);
  const material: Material = change?.material ?? {};
  const git = material["git-configuration"] ?? material["scm-configuration"] ?? {};
  const described = parseDescription(material.description);
  const repo = text(git.url) ?? described.url;
  const sha = text(change?.modification.revision);
  const author = text(change?.modification.user_name ?? change?.modification["user-name"]);

  const server = context.options.server?.replace(/\/$/, "");
  const name = text(pipeline.name);
  const counter = text(pipeline.counter);
  const stageName = text(stage.name);
  const stageCounter = text(stage.counter) ?? "1";
  return {
    run: {
      pipeline: name,
      counter,
      label: text(pipeline.label),
      stage: stageName,
      resultKey: status,
      took: duration(stage["create-time"], stage["last-transition-time"]),
      url:
        server && /^https?:\/\//.test(server) && name && counter && stageName
          ? `${server}/pipelines/${encodeURIComponent(name)}/${counter}/${encodeURIComponent(stageName)}/${stageCounter}`
          : undefined,
      failedJobs: failed.slice(0, FAILED_JOBS_SHOWN),
      moreFailedJobs: Math.max(0, failed.length - FAILED_JOBS_SHOWN),
      branch: text(git.branch) ?? described.branch,
      sha: sha && /^[0-9a-f]{12,}$/i.test(sha) ? sha.slice(0, 7) : sha,
      commitUrl: commitUrl(repo, sha),
      comment: text(change?.modification.comment),
      author: author === undefined ? undefined : withoutTrailingAngle(author),
      trigger: text(payload.build_cause?.trigger_message) ?? text(stage["approved-by"]),
    },
  };
}
