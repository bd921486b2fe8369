// The generated fixture suite, pure: every integrations/<name>/fixtures/<case>.json goes through the
// pipeline and what the delivery does to its messages (limits, stored forms) without HTTP or a
// database, and the result (message, error, or silence) is compared with <case>.expected.json.
// Adding a file adds a test; no test code per plugin. test/webhooks/fixtureSample.test.ts posts a
// sample of the cases through the real app; `npm run fixtures:compare` posts all of them and checks
// that both replays agree.
//   UPDATE_FIXTURES=1 npm run test:plugin -- github   → writes missing/changed expected files
//     (never an error or an ignored result for a case not named as one: see refusalToRecord)
//   CI=true                                          → a missing expected file always fails
//   TEST_PLUGIN=github                               → only that plugin (what test:plugin sets)
import fs from "node:fs";
import path from "node:path";
import { unexercisedEvents } from "../../src/webhooks/fixtures";
import { INTEGRATIONS_DOC, integrationsTableMarkdown } from "../../src/tools/integrationsTable";
import { checkOrRecord, loadFixtureCases, pluginsUnderTest, replayPure, ROOT } from "../support/fixtureReplay";

const integrations = pluginsUnderTest();

for (const integration of integrations) {
  describe(`integration ${integration.name}`, () => {
    const cases = loadFixtureCases(integration);
    for (const c of cases) it(c.name, () => checkOrRecord(integration, c, replayPure(integration, c)));

    it("has fixtures and a doc page", () => {
      if (cases.length === 0)
        throw new Error(
          `add at least one payload to integrations/${integration.name}/fixtures/ (npm run new-integration scaffolds one)`,
        );
      expect(fs.existsSync(path.join(integration.dir, integration.manifest.docs ?? "doc.md"))).toBe(true);
    });

    it("exercises every event declared in integration.json", () => {
      const missing = unexercisedEvents(integration, cases);
      if (missing.length > 0)
        throw new Error(
          `no fixture in integrations/${integration.name}/fixtures/ exercises event(s) ${missing.join(", ")}: add one per event`,
        );
    });
  });
}

if (!process.env.TEST_PLUGIN)
  describe("docs/integrations.md", () => {
    it("is the table generated from the manifests (npm run integrations-table)", () => {
      const file = path.join(ROOT, INTEGRATIONS_DOC);
      const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
      // Without TEST_PLUGIN, the plugins under test are all of them.
      if (current !== integrationsTableMarkdown(integrations))
        throw new Error(`${INTEGRATIONS_DOC} is out of date: run npm run integrations-table and commit the result`);
    });
  });

describe("fixture folders", () => {
  it("live in their plugin: there is no top-level fixtures/ tree", () => {
    if (fs.existsSync(path.join(ROOT, "fixtures")))
      throw new Error("fixtures/ at the top level: move each fixtures/<name>/ to integrations/<name>/fixtures/");
  });
});
