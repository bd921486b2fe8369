// Ansible Tower / AWX notifications: turns the status into an emoji and verb, start/finish
// times into a duration, and the per-host statistics into a summary (counts, and the hosts
// that failed or were unreachable, named).
import { compactDuration } from "../../src/webhooks/plugin";

type Text = string | null | undefined;

interface HostStats {
  ok?: number;
  changed?: number;
  dark?: number;
  failures?: number;
  failed?: boolean;
}

interface Payload {
  status?: Text;
  started?: Text;
  finished?: Text;
  created_by?: Text;
  hosts?: Record<string, HostStats> | null;
}

const RESULTS: Record<string, { emoji: string; word: string }> = {
  successful: { emoji: ":check:", word: "succeeded" },
  failed: { emoji: ":cross_mark:", word: "failed" },
  error: { emoji: ":warning:", word: "errored" },
  canceled: { emoji: ":stop_button:", word: "was canceled" },
  running: { emoji: ":gear:", word: "started" },
  pending: { emoji: ":hourglass:", word: "is pending" },
  waiting: { emoji: ":hourglass:", word: "is waiting" },
  approved: { emoji: ":check:", word: "was approved" },
  denied: { emoji: ":no_entry:", word: "was denied" },
  timed_out: { emoji: ":alarm_clock:", word: "timed out" },
};

const HOSTS_NAMED = 10;

export default function transform(payload: Payload) {
  const status = (payload.status ?? "unknown").toLowerCase();
  const hosts = Object.entries(payload.hosts ?? {});
  const unreachable = hosts.filter(([, s]) => (s?.dark ?? 0) > 0).map(([name]) => name);
  // An unreachable host is also flagged failed: name it once, as unreachable.
  const failed = hosts
    .filter(([, s]) => (s?.failed || (s?.failures ?? 0) > 0) && !((s?.dark ?? 0) > 0))
    .map(([name]) => name);
  const changed = hosts.filter(([, s]) => (s?.changed ?? 0) > 0).length;
  const problems = [...new Set([...failed, ...unreachable])];
  const creator = payload.created_by && payload.created_by !== "None" ? payload.created_by : undefined;
  return {
    result: RESULTS[status] ?? { emoji: ":question:", word: `ended as ${status}` },
    took: compactDuration((Date.parse(payload.finished ?? "") - Date.parse(payload.started ?? "")) / 1000),
    creator,
    hostSummary:
      hosts.length > 0
        ? {
            total: hosts.length,
            ok: hosts.length - problems.length,
            changed,
            failed: failed.slice(0, HOSTS_NAMED),
            moreFailed: Math.max(0, failed.length - HOSTS_NAMED),
            unreachable: unreachable.slice(0, HOSTS_NAMED),
            moreUnreachable: Math.max(0, unreachable.length - HOSTS_NAMED),
          }
        : undefined,
  };
}
