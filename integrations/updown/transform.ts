// updown.io posts a JSON array of events (one delivery may hold a check going down and coming
// back up). Each event becomes one message; this reads the list (the array itself, or an object
// holding it under `events`, or a single event), and works out per event the check's name, the
// error in words and the outage's duration.
import type { TransformContext } from "../../src/webhooks/plugin";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely shaped third-party payloads, read defensively
type Obj = Record<string, any>;

export interface CheckUpdate {
  kind: string;
  name: string;
  url?: string;
  error?: string;
  since?: string;
  until?: string;
  lasted?: string;
  uptime?: number;
  sslError?: string;
  sslDays?: number;
  sslExpires?: string;
  description?: string;
  topic: string;
}

/** 265 → "4 minutes 25 seconds"; 5400 → "1 hour 30 minutes". */
export function duration(seconds: unknown): string | undefined {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return undefined;
  let rest = Math.round(seconds);
  if (rest === 0) return "less than a second";
  const parts: string[] = [];
  for (const [size, unit] of [
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
    [1, "second"],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 && parts.length < 2) parts.push(`${n} ${unit}${n === 1 ? "" : "s"}`);
  }
  return parts.join(" ");
}

/** updown reports HTTP failures as the bare status code ("500"). */
export function errorText(error: unknown): string | undefined {
  if (error === null || error === undefined || error === "") return undefined;
  const text = String(error);
  return /^\d{3}$/.test(text) ? `HTTP ${text}` : text;
}

function update(event: Obj): CheckUpdate {
  const check: Obj = event.check ?? {};
  const downtime: Obj = event.downtime ?? {};
  const ssl: Obj = event.ssl ?? {};
  const name: string = check.alias || check.url || check.token || "updown check";
  return {
    kind: String(event.event ?? "").replace(/^check\./, ""),
    name,
    url: typeof check.url === "string" && /^https?:\/\//.test(check.url) ? check.url : undefined,
    error: errorText(downtime.error ?? check.error),
    since: downtime.started_at ?? check.down_since ?? undefined,
    until: downtime.ended_at ?? undefined,
    lasted: duration(downtime.duration),
    uptime: typeof check.uptime === "number" ? check.uptime : undefined,
    sslError: ssl.error ?? undefined,
    sslDays: typeof ssl.days_before_expiration === "number" ? ssl.days_before_expiration : undefined,
    sslExpires: ssl.expires_at ?? ssl.cert?.not_after ?? undefined,
    description: typeof event.description === "string" && event.description ? event.description : undefined,
    topic: name,
  };
}

export default function transform(payload: unknown, _context: TransformContext): { updates: CheckUpdate[] } {
  const list = Array.isArray(payload)
    ? payload
    : Array.isArray((payload as Obj)?.events)
      ? (payload as Obj).events
      : [payload];
  return { updates: list.filter((e: unknown) => e && typeof e === "object" && (e as Obj).event).map(update) };
}
