// The webhook fuzzer, end-to-end half: a sample of test/fuzz/webhookDeliveries.ts's deliveries
// posted through the real app and database as the incoming-webhook bot. For each plugin: one
// mutated event (the first it declares a fixture for) and every event with a regression below,
// and one security probe of each kind. Every answer must be the JSON envelope, never a 5xx, and a
// refused delivery must store nothing (the Notification Bot's notices to the bot owner aside, by
// design). Every event of every plugin, and every probe, goes through the pure pipeline in
// test/unit/webhookFuzz.test.ts: what is left for this half is what only the app does (bodies,
// authentication, delivery ids, storing and refusing to store).
//   FUZZ_SEED=n FUZZ_WEBHOOK_RUNS=n FUZZ_TIMEOUT_MS=n npx jest test/fuzz/webhooks  → other mutations, more
import type { FixtureCase } from "../../src/webhooks/fixtures";
import type { Integration } from "../../src/webhooks/registry";
import { startTestServer, type TestServer } from "../support/harness";
import { pluginNames } from "../support/pluginFolders";
import { check, expectEnvelope, rowCounts } from "./support";
import {
  casePerEvent,
  deliveryArb,
  mutatedRequest,
  REGRESSIONS,
  RUNS,
  securityProbes,
  type Delivery,
} from "./webhookDeliveries";

// Longer runs (FUZZ_RUNS) need longer tests.
if (process.env.FUZZ_TIMEOUT_MS) jest.setTimeout(Number(process.env.FUZZ_TIMEOUT_MS));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: "all" });
});
afterAll(async () => {
  await server.close();
});

async function post(integration: Integration, c: FixtureCase, d: Delivery) {
  const { headers, query, body } = mutatedRequest(integration, c, d, server.general.name);
  const qs = new URLSearchParams({ api_key: server.users.bot.apiKey, ...query }).toString();
  const res = await fetch(`${server.url}/api/v1/external/${integration.name}?${qs}`, {
    method: "POST",
    headers: { "content-type": c.contentType, ...headers },
    body,
  });
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
}

// The Notification Bot tells a bot's owner about misconfigured deliveries, by design.
const notificationBot = () => Number(server.realm.notification_bot_id);

/** The delivery's answer must be the envelope; when it is refused, nothing may have been stored. */
async function postAndCheck(label: string, integration: Integration, c: FixtureCase, d: Delivery) {
  const before = await rowCounts(server, notificationBot());
  const answer = await post(integration, c, d);
  expectEnvelope(label, answer);
  if (answer.status >= 400) expect(await rowCounts(server, notificationBot())).toEqual(before);
}

// The plugins are the server's own (loaded once, in beforeAll); only their names are read here.
describe.each(pluginNames())("integration %s", (name) => {
  const integration = () => server.deps.integrations.get(name)!;

  it("answers mutated events with the envelope, no 5xx, nothing stored when refused", async () => {
    const events = casePerEvent(integration());
    const sample = events.filter(([event], i) => i === 0 || REGRESSIONS[`${name} ${event}`] !== undefined);
    for (const [event, c] of sample) {
      await check(
        `${name} ${event} (${c.name})`,
        deliveryArb,
        (d) => postAndCheck(`${name} ${event}`, integration(), c, d),
        RUNS,
        REGRESSIONS[`${name} ${event}`],
      );
    }
  });

  it("answers a bad filter, a refused XML name and unstorable text with the envelope", async () => {
    const [, c] = casePerEvent(integration())[0] ?? [];
    if (!c) return;
    const { filters, text, xml } = securityProbes(c);
    // NUL and an unpaired surrogate (three places each): the first of each.
    for (const probe of [filters[0], text[0], text[3], ...xml.slice(0, 1)])
      await postAndCheck(`${name} ${probe.label}`, integration(), probe.c, probe.d);
  });
});
