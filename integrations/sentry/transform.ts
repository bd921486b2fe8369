// Sentry posts several resources (issue, event alert, metric alert, error, comment,
// installation, and the legacy WebHooks plugin's payload) and names the resource only in the
// Sentry-Hook-Resource header, which proxies and test senders often drop. The event key is the
// payload's `action`, so this works out the resource from the payload's shape, the topic that
// keeps one issue's or one alert rule's lifecycle together, and the event's tags as a map.
import { durationInWords, type TransformContext } from "../../src/webhooks/plugin";

export type SentryKind = "issue" | "metric_alert" | "event_alert" | "error" | "comment" | "installation" | "legacy";

type Tags = [string, string][] | { key: string; value: string }[] | undefined;

interface Payload {
  action?: string;
  data?: {
    issue?: { id?: string; title?: string; shortId?: string };
    metric_alert?: { title?: string; date_started?: string; date_closed?: string; alert_rule?: { name?: string } };
    description_title?: string;
    event?: { title?: string; tags?: Tags };
    error?: { title?: string; tags?: Tags };
    comment?: string;
    issue_id?: string | number;
    installation?: unknown;
  };
  url?: string;
  message?: string;
  culprit?: string;
  event?: { title?: string; tags?: Tags };
}

export function sentryKind(payload: Payload): SentryKind | undefined {
  const data = payload.data;
  if (payload.action === undefined) return typeof payload.url === "string" ? "legacy" : undefined;
  if (!data || typeof data !== "object") return undefined;
  if (data.issue) return "issue";
  if (data.metric_alert) return "metric_alert";
  if (data.event) return "event_alert";
  if (data.error) return "error";
  if (data.comment !== undefined && data.issue_id !== undefined) return "comment";
  if (data.installation) return "installation";
  return undefined;
}

/** Sentry sends tags as [key, value] pairs (events) or {key, value} objects (some error payloads). */
export function tagMap(tags: Tags): Record<string, string> {
  const map: Record<string, string> = {};
  for (const tag of Array.isArray(tags) ? tags : []) {
    if (Array.isArray(tag) && typeof tag[0] === "string") map[tag[0]] = String(tag[1]);
    else if (tag && typeof tag === "object" && "key" in tag) map[String(tag.key)] = String(tag.value);
  }
  return map;
}

/** "40 minutes", "2 hours 5 minutes", "3 days 4 hours": how long a metric alert was open. */
export function duration(from: unknown, to: unknown): string | undefined {
  const start = typeof from === "string" ? Date.parse(from) : NaN;
  const end = typeof to === "string" ? Date.parse(to) : NaN;
  return durationInWords(end - start);
}

function subject(kind: SentryKind | undefined, payload: Payload): string {
  const data = payload.data ?? {};
  switch (kind) {
    case "issue":
      return data.issue?.title || data.issue?.shortId || `Issue ${data.issue?.id ?? ""}`.trim();
    case "metric_alert":
      return (
        data.metric_alert?.alert_rule?.name || data.metric_alert?.title || data.description_title || "Metric alert"
      );
    case "event_alert":
      return data.event?.title || "Sentry alert";
    case "error":
      return data.error?.title || "Sentry error";
    case "comment":
      return `Issue ${data.issue_id}`;
    case "installation":
      return "Sentry integration";
    case "legacy":
      return payload.event?.title || payload.message || payload.culprit || "Sentry alert";
    default:
      return "Sentry";
  }
}

export default function transform(payload: Payload, _context: TransformContext) {
  const kind = sentryKind(payload);
  const tags =
    kind === "error" ? payload.data?.error?.tags : kind === "legacy" ? payload.event?.tags : payload.data?.event?.tags;
  const alert = payload.data?.metric_alert;
  const openFor = kind === "metric_alert" ? duration(alert?.date_started, alert?.date_closed) : undefined;
  return { kind, subject: subject(kind, payload), eventTags: tagMap(tags), openFor };
}
