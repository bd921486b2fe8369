// Librato posts three shapes to one URL: a triggered alert (conditions + violations), a cleared
// alert (`clear`), and a chart snapshot (Slack-style `attachments`). This tells them apart and
// joins each violation to the condition it broke, in words.
import type { TransformContext } from "../../src/webhooks/plugin";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

interface Violation {
  metric: string;
  source: string;
  value?: string;
  condition?: string;
  recordedAt?: number;
}

const MAX_VIOLATIONS = 10;

/** 300 → "5 min", 90 → "90 s", 7200 → "2 h". */
export function duration(seconds: unknown): string | undefined {
  if (typeof seconds !== "number" || seconds <= 0) return undefined;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** A condition in words: "sum below 44 for 5 min", "no data for 1 min". */
export function describeCondition(c: Obj | undefined): string | undefined {
  if (!c) return undefined;
  const summary = typeof c.summary_function === "string" ? c.summary_function.replace(/_/g, " ") : undefined;
  const during = duration(c.duration);
  const text =
    c.type === "absent"
      ? "no data"
      : [summary, c.type, c.threshold].filter((x) => x !== undefined && x !== null && x !== "").join(" ");
  return text ? `${text}${during ? ` for ${during}` : ""}` : undefined;
}

export default function transform(payload: Obj, _context: TransformContext) {
  if (Array.isArray(payload.attachments)) {
    const snapshot: Obj = payload.attachments[0] ?? {};
    return { kind: "snapshot", snapshot, more: 0, violations: [] as Violation[] };
  }
  const alert: Obj = payload.alert ?? {};
  const conditions: Obj[] = Array.isArray(payload.conditions) ? payload.conditions : [];
  const violations: Violation[] = [];
  for (const [source, list] of Object.entries((payload.violations ?? {}) as Record<string, Obj[]>)) {
    for (const v of Array.isArray(list) ? list : []) {
      violations.push({
        metric: String(v.metric ?? "(unknown metric)"),
        source,
        value: typeof v.value === "number" || typeof v.value === "string" ? String(v.value) : undefined,
        condition: describeCondition(conditions.find((c) => c.id === v.condition_violated)),
        recordedAt: typeof v.recorded_at === "number" ? v.recorded_at : undefined,
      });
    }
  }
  // Legacy (v1) alerts: one metric and its measurements per source, no conditions.
  for (const m of Array.isArray(payload.measurements) ? (payload.measurements as Obj[]) : []) {
    violations.push({
      metric: String(payload.metric?.name ?? "(unknown metric)"),
      source: String(m?.source ?? "(unknown source)"),
      value: typeof m?.value === "number" || typeof m?.value === "string" ? String(m.value) : undefined,
      recordedAt: typeof payload.trigger_time === "number" ? payload.trigger_time : undefined,
    });
  }
  return {
    kind: payload.clear ? "clear" : "alert",
    alertUrl: alert.id !== undefined ? `https://metrics.librato.com/alerts#/${alert.id}` : undefined,
    violations: violations.slice(0, MAX_VIOLATIONS),
    more: Math.max(0, violations.length - MAX_VIOLATIONS),
  };
}
