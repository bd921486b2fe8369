// UptimeRobot posts the JSON the user typed into the alert contact, with its *variables*
// replaced; a variable it does not fill for this alert stays as its literal `*name*`. Telling a
// leftover variable from a value is a pattern match, so it stays code: this returns only the
// filled values, and the monitor's name, link and host are manifest outputs.
import { defineTransform } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

/** A value still reading `*alertFriendlyDuration*` was not filled in by UptimeRobot. */
export function filled(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return text === "" || /^\*\w+\*$/.test(text) ? undefined : text;
}

export default defineTransform<Payload, Record<string, string | undefined>>((payload) => ({
  friendlyName: filled(payload.monitor_friendly_name),
  monitorUrl: filled(payload.monitor_url),
  details: filled(payload.alert_details),
  duration: filled(payload.alert_friendly_duration),
  alertTime: filled(payload.alert_datetime),
  sslExpiry: filled(payload.ssl_expiry_date),
  sslDaysLeft: filled(payload.ssl_expiry_days_left),
}));
