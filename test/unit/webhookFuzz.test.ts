// The webhook fuzzer, pure half: every event of every plugin, one of its fixtures mutated
// (test/fuzz/webhookDeliveries.ts; fixed seed, bounded runs), and every security probe, through
// the pure pipeline as a delivery runs it (src/services/webhooks/dryRun.ts: the stored forms of
// its messages included). Each result must be a message, an ignore or an answer below 500; a
// throw that is not an ApiError, or a 5xx, is what the server would answer with a 500.
// test/fuzz/webhooks.test.ts posts a sample of the same deliveries through the real app and
// database, where a refused delivery must also store nothing.
//   FUZZ_SEED=n FUZZ_WEBHOOK_RUNS=n npx jest test/unit/webhookFuzz  → other mutations, more
import path from "node:path";
import { dryRunDelivery } from "../../src/services/webhooks/dryRun";
import type { FixtureCase } from "../../src/webhooks/fixtures";
import { loadIntegrations } from "../../src/webhooks/loader";
import type { Integration } from "../../src/webhooks/registry";
import { check } from "../fuzz/support";
import {
  casePerEvent,
  deliveryArb,
  mutatedRequest,
  REGRESSIONS,
  RUNS,
  securityProbes,
  type Delivery,
} from "../fuzz/webhookDeliveries";

const integrations = loadIntegrations(path.resolve(__dirname, "../../integrations"), undefined, { checks: false });

/** The delivery's status as the server would answer it (200 for a message or an ignore). */
function dryRunStatus(integration: Integration, c: FixtureCase, d: Delivery): number {
  const { headers, query, body } = mutatedRequest(integration, c, d, "general");
  const lowerCase = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const result = dryRunDelivery(integration, {
    headers: { "content-type": c.contentType, ...lowerCase },
    query,
    body,
  });
  return result.error?.status ?? 200;
}

describe.each(integrations.map((i) => [i.name, i] as const))("integration %s", (name, integration) => {
  const events = casePerEvent(integration);

  it("has a fixture for every event it declares", () => {
    expect(events.map(([event]) => event).sort()).toEqual([...integration.events.keys()].sort());
  });

  it("answers every mutated event below 500", async () => {
    for (const [event, c] of events) {
      await check(
        `${name} ${event} (${c.name})`,
        deliveryArb,
        // A throw fails the property too; `check` names the delivery, its seed and the counterexample.
        async (d) => expect(dryRunStatus(integration, c, d)).toBeLessThan(500),
        RUNS,
        REGRESSIONS[`${name} ${event}`],
      );
    }
  });

  it("answers bad filters, refused XML names and unstorable text below 500", () => {
    const [, c] = events[0] ?? [];
    if (!c) return;
    const { filters, text, xml } = securityProbes(c);
    const failures = [...filters, ...text, ...xml]
      .map((probe) => ({ probe: probe.label, status: dryRunStatus(integration, probe.c, probe.d) }))
      .filter((r) => r.status >= 500);
    expect(failures).toEqual([]);
  });
});
