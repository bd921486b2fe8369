// Harbor artifact and scan events: names each artifact `repository:tag` (or a short digest when
// untagged) and reads its vulnerability scan overview (keyed by report MIME type: the first
// report present) into counts ordered by severity. Code because the templates cannot pick the
// first non-null value of an object or order the severity counts; the actor is an output.

interface Report {
  scan_status?: string;
  severity?: string;
  summary?: { total?: number; fixable?: number; summary?: Record<string, number> | null } | null;
  scanner?: { name?: string; version?: string } | null;
}

interface Resource {
  digest?: string;
  tag?: string | null;
  resource_url?: string;
  scan_overview?: Record<string, Report | null> | null;
}

interface Payload {
  event_data?: { resources?: Resource[] | null; repository?: { repo_full_name?: string } | null };
}

const SEVERITIES = ["Critical", "High", "Medium", "Low", "Negligible", "Unknown"];
const ARTIFACTS_SHOWN = 10;

function artifactName(resource: Resource, repo: string | undefined): string {
  const tag = resource.tag || undefined;
  const digest = (resource.digest ?? "").replace(/^sha256:/, "").slice(0, 12);
  if (repo) return tag ? `${repo}:${tag}` : `${repo}@${digest || "?"}`;
  return resource.resource_url ?? tag ?? digest;
}

function scanOf(resource: Resource) {
  const report = Object.values(resource.scan_overview ?? {}).find((r): r is Report => !!r && typeof r === "object");
  if (!report) return undefined;
  const counts = report.summary?.summary ?? {};
  const scanner = report.scanner?.name
    ? `${report.scanner.name}${report.scanner.version ? ` ${report.scanner.version}` : ""}`
    : undefined;
  return {
    status: report.scan_status,
    total: report.summary?.total ?? 0,
    fixable: report.summary?.fixable ?? 0,
    bySeverity: SEVERITIES.filter((s) => (counts[s] ?? 0) > 0)
      .map((s) => `${counts[s]} ${s}`)
      .join(", "),
    severity: report.severity && report.severity !== "None" ? report.severity : undefined,
    scanner,
  };
}

export default function transform(payload: Payload) {
  const repo = payload.event_data?.repository?.repo_full_name ?? undefined;
  const resources = Array.isArray(payload.event_data?.resources) ? payload.event_data.resources : [];
  const artifacts = resources.map((r) => ({ name: artifactName(r, repo), scan: scanOf(r) }));
  return {
    artifacts: artifacts.slice(0, ARTIFACTS_SHOWN),
    moreArtifacts: Math.max(0, artifacts.length - ARTIFACTS_SHOWN),
  };
}
