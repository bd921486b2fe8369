// Rundeck job notifications: the execution status becomes an emoji and verb (the "average
// duration exceeded" trigger gets its own), start/end times a duration, and the node lists
// (comma-separated strings or arrays, depending on the version) lists cut at ten names.
import { compactDuration } from "../../src/webhooks/plugin";

type Text = string | null | undefined;

interface Stamp {
  unixtime?: number;
  date?: Text;
}

interface Payload {
  trigger?: Text;
  status?: Text;
  execution?: {
    status?: Text;
    "date-started"?: Stamp | null;
    "date-ended"?: Stamp | null;
    failedNodes?: string | string[] | null;
    succeededNodes?: string | string[] | null;
    job?: { averageDuration?: number | null } | null;
  } | null;
}

const RESULTS: Record<string, { emoji: string; word: string }> = {
  running: { emoji: ":gear:", word: "started" },
  scheduled: { emoji: ":calendar:", word: "is scheduled" },
  succeeded: { emoji: ":check:", word: "succeeded" },
  failed: { emoji: ":cross_mark:", word: "failed" },
  "failed-with-retry": { emoji: ":repeat:", word: "failed and will be retried" },
  aborted: { emoji: ":stop_button:", word: "was aborted" },
  timedout: { emoji: ":alarm_clock:", word: "timed out" },
};

const NODES_NAMED = 10;

const stampMs = (stamp: Stamp | null | undefined): number =>
  typeof stamp?.unixtime === "number" ? stamp.unixtime : Date.parse(stamp?.date ?? "");

function nodes(list: string | string[] | null | undefined): { names: string[]; more: number } {
  const all = (Array.isArray(list) ? list : (list ?? "").split(",")).map((n) => n.trim()).filter(Boolean);
  return { names: all.slice(0, NODES_NAMED), more: Math.max(0, all.length - NODES_NAMED) };
}

export default function transform(payload: Payload) {
  const execution = payload.execution ?? {};
  const status = (payload.status ?? execution.status ?? "unknown").toLowerCase();
  const overdue = payload.trigger === "avgduration" || payload.trigger === "onavgduration";
  const average = execution.job?.averageDuration;
  return {
    result: overdue
      ? { emoji: ":hourglass:", word: "is running longer than average" }
      : (RESULTS[status] ?? { emoji: ":question:", word: `ended as ${status}` }),
    took: compactDuration((stampMs(execution["date-ended"]) - stampMs(execution["date-started"])) / 1000),
    average: overdue && typeof average === "number" ? compactDuration(average / 1000) : undefined,
    failedNodes: nodes(execution.failedNodes),
  };
}
