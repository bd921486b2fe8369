// The fixture suite end to end, on a sample: test/unit/integrations.test.ts checks every case
// through the pure pipeline; here one message case per plugin, plus an error, an ignored, a
// direct-message and a missing-channel delivery, go through the real app and database and must
// store exactly what their expected files say.
//   FIXTURES_COMPARE=1 (npm run fixtures:compare) → every case, each replayed both ways: the pure
//     result must equal what the server stored, message for message (proves the pure replay).
//   TEST_PLUGIN=github (npm run test:plugin -- github) → that plugin's sample only.
import { settlePipeline } from "../../src/webhooks/pipeline";
import { fixtureRequest, type FixtureCase } from "../../src/webhooks/fixtures";
import type { Integration } from "../../src/webhooks/registry";
import {
  compareWithExpected,
  loadFixtureCases,
  pluginsUnderTest,
  replayHttp,
  replayPure,
} from "../support/fixtureReplay";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince } from "../support/webhooks";

const COMPARE_ALL = process.env.FIXTURES_COMPARE === "1";
// The server loads the sampled plugins with every check; this copy only picks the cases.
const integrations = pluginsUnderTest({ checks: false });

const postsMessage = (c: FixtureCase) => Boolean(c.expected && !c.expected.error && !c.expected.ignored);
// A direct message is stored without a topic: a case whose expected messages all have one is not
// direct, without rendering it (the search for a direct-message case would render most cases).
const mayBeDirect = (c: FixtureCase) =>
  (c.expected?.messages ?? [c.expected ?? {}]).some((m) => (m as { topic?: string }).topic === "");
const isDirect = (integration: Integration, c: FixtureCase) => {
  if (!mayBeDirect(c)) return false;
  const result = settlePipeline(integration, fixtureRequest(c));
  return "outcome" in result && result.outcome.kind === "messages" && result.outcome.messages.some((m) => m.direct);
};

type Pick = { integration: Integration; c: FixtureCase; why: string };

/** The first case (plugins and cases in name order) that matches. */
function first(why: string, matches: (integration: Integration, c: FixtureCase) => boolean): Pick[] {
  for (const integration of integrations)
    for (const c of loadFixtureCases(integration)) if (matches(integration, c)) return [{ integration, c, why }];
  return [];
}

function sample(): Pick[] {
  if (COMPARE_ALL)
    return integrations.flatMap((integration) =>
      loadFixtureCases(integration).map((c) => ({ integration, c, why: "every case" })),
    );
  const perPlugin = integrations.flatMap((integration) => {
    const c = loadFixtureCases(integration).find((x) => postsMessage(x) && !isDirect(integration, x));
    return c ? [{ integration, c, why: "a message" }] : [];
  });
  return [
    ...perPlugin,
    ...first("an error", (_i, c) =>
      Boolean(c.expected?.error && c.expected.error.code !== "UNSUPPORTED_WEBHOOK_EVENT_TYPE"),
    ),
    ...first("an unsupported event", (_i, c) => c.expected?.error?.code === "UNSUPPORTED_WEBHOOK_EVENT_TYPE"),
    ...first("ignored", (_i, c) => c.expected?.ignored === true),
    ...first("a direct message", (i, c) => postsMessage(c) && isDirect(i, c)),
  ];
}

const picks = sample();
// A case whose messages name their own channel (manifest `channel`) does not need the URL's.
const namesChannel = (c: FixtureCase) =>
  (c.expected?.messages ?? [c.expected ?? {}]).some((m) => (m as { channel?: string }).channel !== undefined);
const missingChannel = picks.find((p) => p.why === "a message" && !namesChannel(p.c));

let server: TestServer;
beforeAll(async () => {
  // Every case is its own delivery: fixtures may reuse a sender delivery id, so no de-duplication here.
  const names = [...new Set(picks.map((p) => p.integration.name))];
  server = await startTestServer({ WEBHOOK_DEDUP_WINDOW_SECONDS: "0" }, { integrations: names });
});
afterAll(() => server.close());

describe("fixture cases through the real app", () => {
  for (const { integration, c, why } of picks) {
    it(`${integration.name} ${c.name} (${why})`, async () => {
      const stored = await replayHttp(server, integration, c);
      if (!c.expected) throw new Error(`${c.expectedPath} is missing (test/unit/integrations.test.ts writes it)`);
      compareWithExpected(c.expected, stored);
      // The pure replay is the one every case goes through: it must say exactly what was stored.
      expect(replayPure(integration, c)).toEqual(stored);
    });
  }

  if (missingChannel)
    it(`${missingChannel.integration.name} ${missingChannel.c.name} to a channel that does not exist: 200, nothing in a channel`, async () => {
      const { integration, c } = missingChannel;
      const before = await latestMessageId(server);
      const result = await replayHttp(server, integration, c, "no-such-channel");
      expect(result).toMatchObject({ ignored: true });
      // No channel message is stored; the bot's owner is told by one direct message instead.
      const stored = await messagesSince(server, before);
      expect(stored.map((m) => m.type)).toEqual(["private"]);
    });
});
