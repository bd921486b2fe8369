// Ansible Tower / AWX notifications: the per-host statistics become a summary (counts, and the
// hosts that failed or were unreachable, named). The status table, duration and creator are
// manifest data (tables, outputs).
import { defineTransform } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

interface HostStats {
  ok?: number;
  changed?: number;
  dark?: number;
  failures?: number;
  failed?: boolean;
}

const HOSTS_NAMED = 10;

export default defineTransform<Payload, { hostSummary?: Record<string, unknown> }>((payload) => {
  const hosts = Object.entries((payload.hosts ?? {}) as Record<string, HostStats | null>);
  const unreachable = hosts.filter(([, s]) => (s?.dark ?? 0) > 0).map(([name]) => name);
  // An unreachable host is also flagged failed: name it once, as unreachable.
  const failed = hosts
    .filter(([, s]) => (s?.failed || (s?.failures ?? 0) > 0) && !((s?.dark ?? 0) > 0))
    .map(([name]) => name);
  const changed = hosts.filter(([, s]) => (s?.changed ?? 0) > 0).length;
  const problems = [...new Set([...failed, ...unreachable])];
  // undefined, not absent: a payload field of the same name is not shown as a summary.
  if (hosts.length === 0) return { hostSummary: undefined };
  return {
    hostSummary: {
      total: hosts.length,
      ok: hosts.length - problems.length,
      changed,
      failed: failed.slice(0, HOSTS_NAMED),
      moreFailed: Math.max(0, failed.length - HOSTS_NAMED),
      unreachable: unreachable.slice(0, HOSTS_NAMED),
      moreUnreachable: Math.max(0, unreachable.length - HOSTS_NAMED),
    },
  };
});
