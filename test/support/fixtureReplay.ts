// The fixture cases (integrations/<name>/fixtures/) replayed two ways: pure (the pipeline and what
// the delivery does to its messages, src/services/webhooks/dryRun.ts: no HTTP, no database) and
// end to end (posted to a real server as the incoming-webhook bot, the stored rows read back). Both
// give the expected-file format, so test/unit/integrations.test.ts (every case, pure) and
// test/webhooks/fixtureSample.test.ts (a sample end to end, or every case with FIXTURES_COMPARE=1)
// share the comparison and the UPDATE_FIXTURES rules.
import fs from "node:fs";
import path from "node:path";
import { dryRunDelivery } from "../../src/services/webhooks/dryRun";
import {
  fixtureRequest,
  loadFixtureCases,
  refusalToRecord,
  type ExpectedCase,
  type FixtureCase,
} from "../../src/webhooks/fixtures";
import { loadIntegrationFolder, loadIntegrations } from "../../src/webhooks/loader";
import type { Integration } from "../../src/webhooks/registry";
import type { TestServer } from "./harness";
import { latestMessageId, messagesSince, postWebhook } from "./webhooks";

export const ROOT = path.resolve(__dirname, "../..");
const INTEGRATIONS = path.join(ROOT, "integrations");
export const RECORD = process.env.UPDATE_FIXTURES === "1" && process.env.CI !== "true";

/** TEST_PLUGIN=github[,gitlab] (npm run test:plugin -- github): only those plugins; else all. */
export function pluginsUnderTest(): Integration[] {
  const only = (process.env.TEST_PLUGIN ?? "").split(",").filter(Boolean);
  if (only.length === 0) return loadIntegrations(INTEGRATIONS);
  return only.map((name) => loadIntegrationFolder(path.join(INTEGRATIONS, name), ROOT));
}

/** The request fields of the old expected file, kept when a result is recorded. */
function requestFields(c: FixtureCase): ExpectedCase {
  const request: ExpectedCase = {};
  for (const key of ["headers", "query", "contentType"] as const)
    if (c.expected?.[key] !== undefined) (request as Record<string, unknown>)[key] = c.expected[key];
  return request;
}

/** The case through the pure pipeline, posted to channel `general` as the suite's server would. */
export function replayPure(integration: Integration, c: FixtureCase): ExpectedCase {
  return { ...requestFields(c), ...dryRunDelivery(integration, fixtureRequest(c, { stream: "general" })) };
}

/** The case posted to a real server; what the bot stored (or the error answer). */
export async function replayHttp(
  server: TestServer,
  integration: Integration,
  c: FixtureCase,
  stream = server.general.name,
): Promise<ExpectedCase> {
  const before = await latestMessageId(server);
  const res = await postWebhook(server, integration.name, {
    query: { stream, ...c.query },
    headers: c.headers,
    body: c.body,
    contentType: c.contentType,
  });
  const stored = await messagesSince(server, before, server.users.bot.id);
  const request = requestFields(c);
  if (res.status === 200 && res.body.code === undefined) {
    // The answer's own fields beyond the envelope (manifest `reply`); msg only when the plugin sets one.
    const { result: _result, msg, ignored_parameters_unsupported: _ignored, ...rest } = res.body;
    const fields = { ...(msg ? { msg } : {}), ...rest } as Record<string, string>;
    const reply = Object.keys(fields).length > 0 ? { reply: fields } : {};
    if (stored.length === 0) return { ...request, ignored: true, ...reply };
    const messages = stored.map((m) => ({ topic: m.topic, content: m.content }));
    return messages.length === 1 ? { ...request, ...messages[0], ...reply } : { ...request, messages, ...reply };
  }
  if (stored.length > 0)
    throw new Error(`${c.name}: an error response (${res.body.code}) but ${stored.length} message(s) stored`);
  return { ...request, error: { status: res.status, code: res.body.code, msg: res.body.msg } };
}

export function compareWithExpected(expected: ExpectedCase, actual: ExpectedCase): void {
  if (expected.reply !== undefined) expect(actual.reply).toEqual(expected.reply);
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

/**
 * Checks a case's result against its expected file; with UPDATE_FIXTURES=1 (not in CI) writes a
 * missing or changed one instead, never an error or ignore for a case not named as one.
 */
export function checkOrRecord(integration: Integration, c: FixtureCase, actual: ExpectedCase, record = RECORD): void {
  const file = path.relative(ROOT, c.expectedPath);
  const wouldWrite = record && (!c.expected || JSON.stringify(actual) !== JSON.stringify(c.expected));
  const refusal = wouldWrite ? refusalToRecord(c.name, actual) : undefined;
  if (refusal) throw new Error(`UPDATE_FIXTURES did not record ${file}: ${refusal}`);
  if (!c.expected) {
    if (!record)
      throw new Error(
        `${file} is missing: run UPDATE_FIXTURES=1 npm run test:plugin -- ${integration.name}, then review it`,
      );
    fs.writeFileSync(c.expectedPath, JSON.stringify(actual, null, 2) + "\n");
    process.stdout.write(`wrote ${file}: review it\n`);
    return;
  }
  if (wouldWrite) {
    fs.writeFileSync(c.expectedPath, JSON.stringify(actual, null, 2) + "\n");
    process.stdout.write(`updated ${file}: review the diff\n`);
    return;
  }
  compareWithExpected(c.expected, actual);
}

export { loadFixtureCases };
