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
import { loadIntegrationFolder, loadIntegrations, type LoadOptions } from "../../src/webhooks/loader";
import type { Integration } from "../../src/webhooks/registry";
import { withTransaction } from "../../src/db/transaction";
import { nameKey } from "../../src/names";
import { insertChannel } from "../../src/services/channels/channels";
import type { TestServer } from "./harness";
import { latestMessageId, messagesSince, postWebhook } from "./webhooks";

export const ROOT = path.resolve(__dirname, "../..");
const INTEGRATIONS = path.join(ROOT, "integrations");
export const RECORD = process.env.UPDATE_FIXTURES === "1" && process.env.CI !== "true";

/**
 * TEST_PLUGIN=github[,gitlab] (npm run test:plugin -- github): only those plugins; else all. With
 * every loader check unless `options` says otherwise (a file whose server loads them checked).
 */
export function pluginsUnderTest(options: LoadOptions = {}): Integration[] {
  const only = (process.env.TEST_PLUGIN ?? "").split(",").filter(Boolean);
  if (only.length === 0) return loadIntegrations(INTEGRATIONS, ROOT, options);
  return only.map((name) => loadIntegrationFolder(path.join(INTEGRATIONS, name), ROOT, options));
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

/**
 * The URL's channel in replays. Not `general`: a message whose own `channel` (manifest `channel`)
 * names `general` is then told apart from one that went to the URL's channel.
 */
export const REPLAY_URL_CHANNEL = "fixture replays";

/** The channel's id, creating it (public, by the owner) when the realm has none of that name. */
async function ensureChannel(server: TestServer, name: string): Promise<number> {
  const rows: { id: number; name: string }[] = await server
    .db("streams")
    .where({ realm_id: server.realm.id })
    .select("id", "name");
  const found = rows.find((r) => nameKey(r.name) === nameKey(name));
  if (found) return found.id;
  const created = await withTransaction(server.db, (trx) =>
    insertChannel(trx, server.realm, server.users.owner, { name, description: "Fixture replays" }),
  );
  return created.id;
}

/**
 * The case posted to a real server; what the bot stored (or the error answer). The channels its
 * expected file names are created first, as the bot owner would have.
 */
export async function replayHttp(
  server: TestServer,
  integration: Integration,
  c: FixtureCase,
  stream?: string,
): Promise<ExpectedCase> {
  const urlChannel = stream ?? REPLAY_URL_CHANNEL;
  if (stream === undefined) await ensureChannel(server, urlChannel);
  const wanted = c.expected?.messages ?? (c.expected?.content !== undefined ? [c.expected] : []);
  for (const m of wanted) if ("channel" in m && m.channel) await ensureChannel(server, m.channel);
  const before = await latestMessageId(server);
  const res = await postWebhook(server, integration.name, {
    query: { stream: urlChannel, ...c.query },
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
    const names = new Map(
      (await server.db("streams").where({ realm_id: server.realm.id }).select("id", "name")).map(
        (r: { id: number; name: string }) => [r.id, r.name],
      ),
    );
    const messages = stored.map((m) => {
      const channel = m.stream_id === null ? undefined : names.get(m.stream_id);
      return {
        topic: m.topic,
        content: m.content,
        ...(channel !== undefined && nameKey(channel) !== nameKey(urlChannel) ? { channel } : {}),
      };
    });
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
    // A message's own channel (manifest `channel`) is part of what it is: compared when either names one.
    const one = (e: ExpectedCase) => ({
      topic: e.topic,
      content: e.content,
      ...(e.channel !== undefined ? { channel: e.channel } : {}),
    });
    const want = expected.messages ?? [one(expected)];
    const got = actual.messages ?? (actual.content !== undefined ? [one(actual)] : actual);
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
