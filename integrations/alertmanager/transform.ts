// Alertmanager sends several alerts per delivery, possibly for different hosts and in both
// states. Group them by the `name` label (one message per name and state; `alertname` by default,
// so a 60-host alert is one topic, not 60), pick the description via `desc`, and point Prometheus
// graph links at the graph tab, not the table.
import type { TransformContext } from "../../src/webhooks/plugin";

interface Alert {
  status: "firing" | "resolved";
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  generatorURL?: string | null;
}

export interface AlertGroup {
  name: string;
  status: "firing" | "resolved";
  alerts: { description: string; instance?: string; url?: string }[];
}

const field = (alert: Alert, key: string): string | undefined => alert.labels?.[key] ?? alert.annotations?.[key];

/** Prometheus `g0.tab=1` (table view) → `g0.tab=0` (graph view). */
export function graphUrl(url: string): string {
  return url.replace(/([?&]g\d+\.tab=)1(?=&|#|$)/g, "$10");
}

export default function transform(payload: { alerts: Alert[] }, context: TransformContext): { groups: AlertGroup[] } {
  const nameKey = context.options.name || "alertname";
  const descKey = context.options.desc;
  // Without `desc`: the alert rule's own words (its `description`, else `summary` annotation).
  const describe = (alert: Alert) =>
    descKey
      ? (field(alert, descKey) ?? `<missing field: ${descKey}>`)
      : (field(alert, "description") ?? field(alert, "summary") ?? field(alert, "alertname") ?? "(no description)");
  // When the topic is not per instance, each line says which instance it is about.
  const showInstance = nameKey !== "instance" && descKey !== "instance";
  // Names in order of first appearance; within a name, firing before resolved.
  const byName = new Map<string, Record<Alert["status"], AlertGroup>>();
  for (const alert of payload.alerts) {
    const name = field(alert, nameKey) ?? "(unknown)";
    if (!byName.has(name))
      byName.set(name, {
        firing: { name, status: "firing", alerts: [] },
        resolved: { name, status: "resolved", alerts: [] },
      });
    byName.get(name)![alert.status].alerts.push({
      description: describe(alert),
      instance: showInstance ? field(alert, "instance") : undefined,
      url: alert.generatorURL ? graphUrl(alert.generatorURL) : undefined,
    });
  }
  const groups = [...byName.values()].flatMap((g) => [g.firing, g.resolved]).filter((g) => g.alerts.length > 0);
  return { groups };
}
