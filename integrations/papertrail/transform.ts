// A Papertrail saved-search alert carries the matching log lines (`events`) or, when the alert
// is set to "counts only", per-source counts (`counts[].timeseries`). This formats the first
// lines as Papertrail shows them (at most MAX_LINES; `more` and the link to the rest, opened at
// the first event with centered_on_id, are manifest outputs) and totals the counts per source.
import type { TransformContext } from "../../src/webhooks/plugin";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

// The `more` output in integration.json counts beyond the same 5.
const MAX_LINES = 5;

/** "May 18 20:30:02 web-1 CROND: message", as Papertrail's log viewer shows a line. */
export function logLine(event: Obj): string {
  const when = event.display_received_at ?? event.received_at ?? "";
  const source = event.source_name ?? event.hostname ?? "";
  const program = event.program ? ` ${event.program}:` : "";
  return `${when} ${source}${program} ${String(event.message ?? "").replace(/\r?\n/g, " ")}`.trim();
}

export default function transform(payload: Obj, _context: TransformContext) {
  const events: Obj[] = Array.isArray(payload.events) ? payload.events : [];
  const counts: Obj[] = Array.isArray(payload.counts) ? payload.counts : [];
  const perSource = counts
    .map((c) => ({
      source: String(c.source_name ?? c.source_id ?? "(unknown source)"),
      count: Object.values((c.timeseries ?? {}) as Record<string, unknown>).reduce<number>(
        (sum, n) => sum + (typeof n === "number" ? n : 0),
        0,
      ),
    }))
    .filter((c) => c.count > 0);
  const total = events.length > 0 ? events.length : perSource.reduce((sum, c) => sum + c.count, 0);
  return {
    total,
    lines: events.slice(0, MAX_LINES).map(logLine).join("\n"),
    sources: perSource.map((c) => `${c.source} (${c.count})`).join(", "),
  };
}
