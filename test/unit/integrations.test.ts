// The generated fixture suite: every fixtures/<integration>/<case>.json is posted through the real
// app and database as the incoming-webhook bot, and the stored message (or error, or silence) is
// compared with <case>.expected.json. Adding a file adds a test; no test code per plugin.
//   UPDATE_FIXTURES=1 npx jest test/integrations -t github   → writes missing/changed expected files
//     (never an error or an ignored result for a case not named as one: see refusalToRecord)
//   CI=true                                                   → a missing expected file always fails
import fs from "node:fs";
import path from "node:path";
import {
  loadFixtureCases,
  orphanFixtureFolders,
  refusalToRecord,
  unexercisedEvents,
  type ExpectedCase,
  type FixtureCase,
} from "../src/webhooks/fixtures";
import { loadIntegrations } from "../src/webhooks/loader";
import type { Integration } from "../src/webhooks/registry";
import { INTEGRATIONS_DOC, integrationsTableMarkdown } from "../src/tools/integrationsTable";
import { startTestServer, type TestServer } from "./support/harness";
import { latestMessageId, messagesSince, postWebhook } from "./support/webhooks";

const ROOT = path.resolve(__dirname, "..");
const FIXTURES = path.join(ROOT, "fixtures");
const integrations = loadIntegrations(path.join(ROOT, "integrations"));
const RECORD = process.env.UPDATE_FIXTURES === "1" && process.env.CI !== "true";

let server: TestServer;
beforeAll(async () => {
  // Every case is its own delivery: fixtures may reuse a sender delivery id, so no de-duplication here.
  server = await startTestServer({ WEBHOOK_DEDUP_WINDOW_SECONDS: "0" });
});
afterAll(async () => {
  await server.close();
});

/** What actually happened, in the expected-file format (request fields kept from the old file). */
async function runCase(integration: Integration, c: FixtureCase): Promise<ExpectedCase> {
  const before = await latestMessageId(server);
  const res = await postWebhook(server, integration.name, {
    query: { stream: server.general.name, ...c.query },
    headers: c.headers,
    body: c.body,
    contentType: c.contentType,
  });
  const stored = await messagesSince(server, before, server.users.bot.id);
  const request: ExpectedCase = {};
  for (const key of ["headers", "query", "contentType"] as const)
    if (c.expected?.[key] !== undefined) (request as any)[key] = c.expected[key];
  if (res.status === 200 && res.body.code === undefined) {
    if (stored.length === 0) return { ...request, ignored: true };
    const messages = stored.map((m) => ({ topic: m.topic, content: m.content }));
    return messages.length === 1 ? { ...request, ...messages[0] } : { ...request, messages };
  }
  if (stored.length > 0)
    throw new Error(`${c.name}: an error response (${res.body.code}) but ${stored.length} message(s) stored`);
  return { ...request, error: { status: res.status, code: res.body.code, msg: res.body.msg } };
}

function compare(expected: ExpectedCase, actual: ExpectedCase): void {
  if (expected.error) {
    expect(actual.error).toMatchObject(
      expected.error.msg === undefined ? { status: expected.error.status, code: expected.error.code } : expected.error,
    );
  } else if (expected.ignored) {
    expect(actual).toMatchObject({ ignored: true });
  } else {
    const want = expected.messages ?? [{ topic: expected.topic, content: expected.content }];
    const got =
      actual.messages ?? (actual.content !== undefined ? [{ topic: actual.topic, content: actual.content }] : actual);
    expect(got).toEqual(want);
  }
}

for (const integration of integrations) {
  describe(`integration ${integration.name}`, () => {
    const cases = loadFixtureCases(FIXTURES, integration);
    for (const c of cases) {
      it(c.name, async () => {
        const actual = await runCase(integration, c);
        const wouldWrite = RECORD && (!c.expected || JSON.stringify(actual) !== JSON.stringify(c.expected));
        const refusal = wouldWrite ? refusalToRecord(c.name, actual) : undefined;
        if (refusal)
          throw new Error(`UPDATE_FIXTURES did not record ${path.relative(ROOT, c.expectedPath)}: ${refusal}`);
        if (!c.expected) {
          if (!RECORD)
            throw new Error(
              `${path.relative(ROOT, c.expectedPath)} is missing: run UPDATE_FIXTURES=1 npx jest test/integrations -t ${integration.name}, then review it`,
            );
          fs.writeFileSync(c.expectedPath, JSON.stringify(actual, null, 2) + "\n");
          process.stdout.write(`wrote ${path.relative(ROOT, c.expectedPath)}: review it\n`);
          return;
        }
        if (RECORD && JSON.stringify(actual) !== JSON.stringify(c.expected)) {
          fs.writeFileSync(c.expectedPath, JSON.stringify(actual, null, 2) + "\n");
          process.stdout.write(`updated ${path.relative(ROOT, c.expectedPath)}: review the diff\n`);
          return;
        }
        compare(c.expected, actual);
      });
    }

    it("has fixtures and a doc page", () => {
      if (cases.length === 0)
        throw new Error(
          `add at least one payload to fixtures/${integration.name}/ (npm run new-integration scaffolds one)`,
        );
      expect(fs.existsSync(path.join(integration.dir, integration.manifest.docs ?? "doc.md"))).toBe(true);
    });

    it("exercises every event declared in integration.json", () => {
      const missing = unexercisedEvents(integration, cases);
      if (missing.length > 0)
        throw new Error(
          `no fixture in fixtures/${integration.name}/ exercises event(s) ${missing.join(", ")}: add one per event`,
        );
    });
  });
}

describe("docs/integrations.md", () => {
  it("is the table generated from the manifests (npm run integrations-table)", () => {
    const file = path.join(ROOT, INTEGRATIONS_DOC);
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (current !== integrationsTableMarkdown(integrations))
      throw new Error(`${INTEGRATIONS_DOC} is out of date: run npm run integrations-table and commit the result`);
  });
});

describe("fixture folders", () => {
  it("every fixture folder belongs to an integration", () => {
    const orphans = orphanFixtureFolders(
      FIXTURES,
      integrations.map((i) => i.name),
    );
    if (orphans.length > 0)
      throw new Error(
        `fixtures/${orphans.join(", fixtures/")} has no integrations/<name>/ folder: rename or remove it`,
      );
  });
});
