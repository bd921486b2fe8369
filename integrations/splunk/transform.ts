// A Splunk alert sends the first result row of the search. For event searches that row has the
// raw event (`_raw`) plus dozens of extracted fields; for statistics searches (`| stats count by
// host`) it has only the computed columns, which are the numbers the alert is about. This keeps
// the fields worth showing: no internal `_` fields, no date_* parts, no bookkeeping, no blanks.
// Kept as code: filtering an object's keys by name, then counting what is left, is not a
// template's job.
import type { TransformContext } from "../../src/webhooks/plugin";

export const FIELD_LIMIT = 10;
const BOOKKEEPING = new Set([
  "punct",
  "linecount",
  "timestartpos",
  "timeendpos",
  "splunk_server",
  "splunk_server_group",
  "index",
  "eventtype",
  "tag",
  "tag::eventtype",
  "host",
  "source",
  "sourcetype",
]);

export function resultFields(result: Record<string, unknown> | undefined): { name: string; value: string }[] {
  return Object.entries(result ?? {})
    .filter(([name]) => !name.startsWith("_") && !name.startsWith("date_") && !BOOKKEEPING.has(name))
    .map(([name, value]) => ({ name, value: Array.isArray(value) ? value.join(", ") : String(value ?? "") }))
    .filter((f) => f.value.trim() !== "");
}

export default function transform(payload: { result?: Record<string, unknown> }, _context: TransformContext) {
  const fields = resultFields(payload.result);
  return { fields: fields.slice(0, FIELD_LIMIT), moreFields: Math.max(0, fields.length - FIELD_LIMIT) };
}
