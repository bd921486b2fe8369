// Grafana sends two payload shapes. Unified alerting (Grafana 8+) is Alertmanager-like: one
// delivery carries several alerts, possibly of different rules and states, so they are grouped
// by rule name (`alertname`) and state into one message each, in a topic named after the rule.
// Legacy dashboard alerts (Grafana ≤ 10) carry one rule and its evaluated series (`evalMatches`).
import { durationInWords, type TransformContext } from "../../src/webhooks/plugin";

/** Series listed per legacy alert and alerts listed per group before "… and N more". */
export const LIST_LIMIT = 10;
/** Labels that name or file the rule rather than tell instances apart. */
const RULE_LABELS = new Set(["alertname", "grafana_folder"]);

interface UnifiedAlert {
  status?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
  silenceURL?: string;
  dashboardURL?: string;
  panelURL?: string;
  imageURL?: string;
  values?: Record<string, unknown> | null;
}

interface Payload {
  status?: string;
  title?: string;
  alerts?: UnifiedAlert[];
  commonLabels?: Record<string, string>;
  evalMatches?: { metric?: string; value?: unknown }[] | null;
}

export interface AlertItem {
  summary?: string;
  labelText?: string;
  valueText?: string;
  url?: string;
  startsAt?: string;
  endsAt?: string;
  lasted?: string;
  links: { text: string; url: string }[];
}

export interface AlertGroup {
  name: string;
  status: string;
  folder?: string;
  /** Named apart from the payload's own `alerts`, which the view also holds. */
  instances: AlertItem[];
  more: number;
}

/** 44.23943737541908 → "44.24"; integers and non-numbers unchanged. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "no value";
  if (typeof value !== "number" || Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(4)));
}

const present = (url: string | undefined) => (url && /^https?:\/\//.test(url) ? url : undefined);
/** Grafana writes 0001-01-01T00:00:00Z for "not ended". */
const realTime = (t: string | undefined) => (t && !t.startsWith("0001-") ? t : undefined);

export function duration(from: string | undefined, to: string | undefined): string | undefined {
  return durationInWords(Date.parse(to ?? "") - Date.parse(from ?? ""));
}

function item(alert: UnifiedAlert): AlertItem {
  const labels = Object.entries(alert.labels ?? {}).filter(([k]) => !RULE_LABELS.has(k) && !k.startsWith("__"));
  const values = Object.entries(alert.values ?? {});
  const annotations = alert.annotations ?? {};
  const startsAt = realTime(alert.startsAt);
  const endsAt = alert.status === "resolved" ? realTime(alert.endsAt) : undefined;
  return {
    summary: annotations.summary || annotations.description || annotations.message || undefined,
    labelText: labels.map(([k, v]) => `${k}=${v}`).join(", ") || undefined,
    valueText: values.map(([k, v]) => `${k}=${formatValue(v)}`).join(", ") || undefined,
    url: present(alert.generatorURL),
    startsAt,
    endsAt,
    lasted: endsAt ? duration(startsAt, endsAt) : undefined,
    links: [
      ["dashboard", alert.dashboardURL],
      ["panel", alert.panelURL],
      ["silence", alert.status === "resolved" ? undefined : alert.silenceURL],
      ["runbook", annotations.runbook_url],
      ["image", alert.imageURL],
    ].flatMap(([text, url]) => (present(url) ? [{ text: text!, url: url! }] : [])),
  };
}

/** "[FIRING:2] High CPU (blue)" → "High CPU (blue)": the title without its changing count. */
export function ruleTitle(title: string | undefined): string | undefined {
  const stripped = title?.replace(/^\s*\[[A-Z]+(:\d+)?\]\s*/, "").trim();
  return stripped || undefined;
}

export function groupAlerts(payload: Payload): AlertGroup[] {
  const fallbackName = payload.commonLabels?.alertname || ruleTitle(payload.title) || "Grafana alert";
  const groups = new Map<string, AlertGroup & { all: UnifiedAlert[] }>();
  for (const alert of payload.alerts ?? []) {
    const name = alert.labels?.alertname || fallbackName;
    const status = alert.status ?? payload.status ?? "firing";
    const key = JSON.stringify([name, status]);
    if (!groups.has(key))
      groups.set(key, { name, status, folder: alert.labels?.grafana_folder, instances: [], more: 0, all: [] });
    groups.get(key)!.all.push(alert);
  }
  // Firing before resolved, rules in order of first appearance.
  const ordered = [...groups.values()].sort((a, b) => Number(a.status !== "firing") - Number(b.status !== "firing"));
  return ordered.map(({ all, ...group }) => ({
    ...group,
    instances: all.slice(0, LIST_LIMIT).map(item),
    more: Math.max(0, all.length - LIST_LIMIT),
  }));
}

export default function transform(payload: Payload, context: TransformContext) {
  if (context.event === "legacy") {
    const matches = (payload.evalMatches ?? []).map((m) => ({ metric: m.metric, value: formatValue(m.value) }));
    return { matches: matches.slice(0, LIST_LIMIT), moreMatches: Math.max(0, matches.length - LIST_LIMIT) };
  }
  return { groups: groupAlerts(payload) };
}
