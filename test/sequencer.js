// Test order for a run without timings (a clean clone, as in CI): the files that take longest go
// first, so no worker is left running one of them alone at the end. Jest orders the rest by file
// size, which says little here (a short file may replay every plugin's fixtures). Once Jest has
// timings (its cache, after a run), its own order (slowest first) is kept.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest reads this CommonJS file as is
const Sequencer = require("@jest/test-sequencer").default;

// Longest first, each tier's own (jest.config.js); measured in CI logs, 10 s or more on 2 cores.
const LONGEST = [
  "test/unit/integrations.test.ts",
  "test/unit/webhookFuzz.test.ts",
  "test/unit/sharedFixtures.test.ts",
  "test/unit/pluginTypes.test.ts",
  "test/unit/oddPayloads.test.ts",
  "test/api/robustness.test.ts",
  "test/fuzz/longRuns.test.ts",
  "test/webhooks/fixtureSample.test.ts",
  "test/webhooks/injection.test.ts",
  "test/web/catalogueBrowser.test.ts",
  "test/webhooks/renderThreads.test.ts",
  "test/fuzz/webhooks.test.ts",
  "test/process/lifecycle.test.ts",
  "test/process/cluster.test.ts",
  "test/process/durability.test.ts",
  "test/clients/zulipTerminal.test.ts",
  "test/api/accounts.test.ts",
];

class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const rank = (test) => {
      const index = LONGEST.findIndex((file) => test.path.endsWith(`/${file}`));
      return index < 0 ? LONGEST.length : index;
    };
    // Jest puts the files it has no timing for first; among them, the known longest lead.
    const untimed = sorted.filter((test) => test.duration == null);
    const timed = sorted.filter((test) => test.duration != null);
    const ordered = untimed.map((test, i) => ({ test, i })).sort((a, b) => rank(a.test) - rank(b.test) || a.i - b.i);
    return [...ordered.map(({ test }) => test), ...timed];
  }
}

module.exports = LongestFirst;
