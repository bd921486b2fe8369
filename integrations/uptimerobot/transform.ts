// UptimeRobot posts the JSON the user typed into the alert contact, with its *variables*
// replaced. Monitors of type keyword/port/ping have a host rather than an http(s) URL, and a
// variable UptimeRobot does not fill for this alert stays as its literal `*name*`: both are
// sorted out here so the template only sees usable values.
import type { TransformContext } from "../../src/webhooks/plugin";

/** A value still reading `*alertFriendlyDuration*` was not filled in by UptimeRobot. */
export function filled(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return text === "" || /^\*\w+\*$/.test(text) ? undefined : text;
}

export default function transform(payload: Record<string, unknown>, _context: TransformContext) {
  const url = filled(payload.monitor_url);
  const isHttp = url !== undefined && /^https?:\/\//i.test(url);
  return {
    monitorName: filled(payload.monitor_friendly_name) ?? url ?? "Monitor",
    monitorLink: isHttp ? url : undefined,
    monitorHost: isHttp ? undefined : url,
    details: filled(payload.alert_details),
    duration: filled(payload.alert_friendly_duration),
    alertTime: filled(payload.alert_datetime),
    sslExpiry: filled(payload.ssl_expiry_date),
    sslDaysLeft: filled(payload.ssl_expiry_days_left),
  };
}
