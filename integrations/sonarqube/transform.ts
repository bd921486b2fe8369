// SonarQube quality-gate webhooks: each failing condition becomes a readable line
// ("Coverage is 61.2% (required ≥ 80%)"): metric keys in words, ratings as letters,
// densities and coverage as percentages, long decimals rounded.

interface Condition {
  metric?: string;
  operator?: string;
  value?: string;
  status?: string;
  errorThreshold?: string;
}

interface Payload {
  qualityGate?: { conditions?: Condition[] | null } | null;
}

const CONDITIONS_SHOWN = 10;
const RATINGS = ["A", "B", "C", "D", "E"];
const NAMES: Record<string, string> = {
  new_coverage: "Coverage on new code",
  new_duplicated_lines_density: "Duplicated lines on new code",
  new_security_hotspots_reviewed: "Security hotspots reviewed on new code",
  ncloc: "Lines of code",
  sqale_rating: "Maintainability rating",
  new_sqale_rating: "Maintainability rating on new code",
  violations: "Issues",
  new_violations: "Issues on new code",
};

export function metricName(metric: string): string {
  if (NAMES[metric]) return NAMES[metric];
  const words = metric.replace(/^new_(.*)$/, "$1 on new code").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function formatValue(metric: string, value: string | undefined): string {
  if (value === undefined || value === "") return "no value";
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  if (metric.endsWith("_rating")) return RATINGS[Math.round(n) - 1] ?? value;
  const rounded = Number.isInteger(n) ? String(n) : String(Math.round(n * 10) / 10);
  return /coverage|density|percent|reviewed/.test(metric) ? `${rounded}%` : rounded;
}

function describe(c: Condition): string {
  const metric = c.metric ?? "condition";
  const required =
    c.errorThreshold === undefined
      ? ""
      : ` (required ${c.operator === "LESS_THAN" ? "≥" : "≤"} ${formatValue(metric, c.errorThreshold)})`;
  return `${metricName(metric)} is ${formatValue(metric, c.value)}${required}`;
}

export default function transform(payload: Payload) {
  const conditions = payload.qualityGate?.conditions ?? [];
  const failing = conditions.filter((c) => c.status === "ERROR" || c.status === "WARN").map(describe);
  return {
    failing: failing.slice(0, CONDITIONS_SHOWN),
    moreFailing: Math.max(0, failing.length - CONDITIONS_SHOWN),
    conditionCount: conditions.length,
  };
}
