// What the Canarytoken template cannot work out itself: the alert time, which canarytokens.org
// writes as "2020-06-09 14:04:47 (UTC)" (not a format dates parse reliably), and the source IP
// and user agent, which newer versions send at the top level and older ones under
// `additional_data`. Pure: no I/O, no clock.
import { nonEmptyText as text } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

interface Details {
  src_ip?: string | null;
  useragent?: string | null;
  referer?: string | null;
  location?: string | null;
}

interface Payload extends Details {
  time?: string;
  additional_data?: Details | null;
}

/** "2020-06-09 14:04:47 (UTC)" → "2020-06-09T14:04:47Z"; other forms are returned when they parse. */
export function alertTime(value: unknown): string | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(\.\d+)?\s*(\(UTC\)|UTC|Z)?$/i.exec(raw);
  if (m) return `${m[1]}T${m[2]}Z`;
  return Number.isNaN(Date.parse(raw)) ? undefined : raw;
}

export default function transform(payload: Payload, _context: TransformContext): Record<string, unknown> {
  const extra = payload.additional_data ?? {};
  return {
    when: alertTime(payload.time),
    rawTime: text(payload.time),
    sourceIp: text(payload.src_ip) ?? text(extra.src_ip),
    userAgent: text(payload.useragent) ?? text(extra.useragent),
    referer: text(payload.referer) ?? text(extra.referer),
    location: text(payload.location) ?? text(extra.location),
  };
}
