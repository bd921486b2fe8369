// The one thing the Canarytoken template cannot work out itself: the alert time, which
// canarytokens.org writes as "2020-06-09 14:04:47 (UTC)" (a zone in parentheses and no `T`, which
// dates do not parse reliably), so it is parsed here. The source IP, user agent, referer and
// location (top level in newer versions, under `additional_data` in older ones) are manifest
// `outputs`. Pure: no I/O, no clock.
import { defineTransform, nonEmptyText } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

/** "2020-06-09 14:04:47 (UTC)" → "2020-06-09T14:04:47Z"; other forms are returned when they parse. */
export function alertTime(value: unknown): string | undefined {
  const raw = nonEmptyText(value);
  if (!raw) return undefined;
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(\.\d+)?\s*(\(UTC\)|UTC|Z)?$/i.exec(raw);
  if (m) return `${m[1]}T${m[2]}Z`;
  return Number.isNaN(Date.parse(raw)) ? undefined : raw;
}

export default defineTransform<Payload, { when?: string }>((payload) => ({ when: alertTime(payload.time) }));
