// What the Statuspage templates cannot work out themselves: the newest incident update
// (Statuspage lists them newest first, but sorting by time keeps us safe), its status in words
// (`under_maintenance` → `under maintenance`) and the components whose status it changed. The
// impact and a component's statuses are manifest `outputs`. Pure: no I/O, no clock.
import { limitMarkdown, nonEmptyText, toDate, type TransformContext } from "../../src/webhooks/plugin";

/** Longest update text quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 1500;
/** At most this many affected components are listed, then "… and N more". */
export const COMPONENTS_LIMIT = 5;

interface Affected {
  name?: string;
  old_status?: string;
  new_status?: string;
}

interface Update {
  status?: string;
  body?: string;
  created_at?: string;
  display_at?: string;
  affected_components?: Affected[] | null;
}

interface Payload {
  incident?: { incident_updates?: Update[] };
}

const words = (v: unknown): string | undefined => nonEmptyText(v)?.replace(/_/g, " ");
const time = (u: Update) => toDate(u.display_at ?? u.created_at)?.getTime() ?? 0;

export default function transform(payload: Payload, _context: TransformContext): Record<string, unknown> {
  const updates = [...(payload.incident?.incident_updates ?? [])].sort((a, b) => time(b) - time(a));
  const latest = updates[0];
  const affected = (latest?.affected_components ?? [])
    .filter((c) => c && typeof c.name === "string")
    .map((c) => ({ name: c.name, from: words(c.old_status), to: words(c.new_status) }));
  return {
    latestBody: latest?.body?.trim() ? limitMarkdown(latest.body.trim(), MAX_QUOTED, "[…]") : "",
    statusText: words(latest?.status),
    affected: affected.slice(0, COMPONENTS_LIMIT),
    moreAffected: Math.max(0, affected.length - COMPONENTS_LIMIT),
  };
}
