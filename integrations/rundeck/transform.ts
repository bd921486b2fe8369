// Rundeck job notifications: the status row of the manifest's result table (the "average duration
// exceeded" trigger gets its own), start/end times a duration, and the node lists (comma-separated
// strings or arrays, depending on the version) lists cut at ten names.
import { compactDuration, defineTransform } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

interface Stamp {
  unixtime?: unknown;
  date?: unknown;
}

const NODES_NAMED = 10;

const stampMs = (stamp: Stamp | null | undefined): number =>
  typeof stamp?.unixtime === "number" ? stamp.unixtime : Date.parse(typeof stamp?.date === "string" ? stamp.date : "");

function nodes(list: unknown): { names: string[]; more: number } {
  const all = (Array.isArray(list) ? list : typeof list === "string" ? list.split(",") : [])
    .map((n) => String(n).trim())
    .filter(Boolean);
  return { names: all.slice(0, NODES_NAMED), more: Math.max(0, all.length - NODES_NAMED) };
}

export default defineTransform<Payload, Record<string, unknown>>((payload) => {
  const execution = payload.execution ?? {};
  const overdue = payload.trigger === "avgduration" || payload.trigger === "onavgduration";
  const average = execution.job?.averageDuration;
  return {
    status: overdue ? "(overdue)" : (payload.status ?? execution.status ?? "unknown").toLowerCase(),
    took: compactDuration((stampMs(execution["date-ended"]) - stampMs(execution["date-started"])) / 1000),
    average: overdue && typeof average === "number" ? compactDuration(average / 1000) : undefined,
    failedNodes: nodes(execution.failedNodes),
  };
});
