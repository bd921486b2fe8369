// Long runs of one character in user-supplied text: the inputs on which a regular expression like
// `/\s+$/` or `/<[^>]*>/g` rescans the run from each position in it (quadratic time: 1 MB of spaces
// held the event loop for minutes). Every string in real fixtures of each integration, and a message's
// content, is replaced by such runs; each delivery must be answered with the envelope, no 5xx.
// ESLint (regexp/no-super-linear-*) is the guard against super-linear patterns; this suite checks
// that every plugin's own handling of such text (trims, splits, HTML and wiki markup) ends in an
// answer, never an exception: runs of 1–8k characters, all of a payload's strings at once.
import { encodeBody, loadFixtureCases, type FixtureCase } from "../../src/webhooks/fixtures";
import type { Integration } from "../../src/webhooks/registry";
import { startTestServer, type TestServer } from "../support/harness";
import { pluginNames } from "../support/pluginFolders";
import { expectEnvelope } from "./support";

// The plugins are the server's own (loaded once, in beforeAll); only their names are read here.
const names = pluginNames();

/** The runs that made some pattern of ours quadratic, `size` characters each. */
const attack = (size: number) =>
  [
    `a${" ".repeat(size)}a`,
    `a${"\n".repeat(size)}a`,
    `-${"\n \n".repeat(size / 3)}x`,
    "<".repeat(size),
    "<!--".repeat(size / 4),
    "<pre>".repeat(size / 5),
    "<blockquote>".repeat(size / 12),
    "{code:x}".repeat(size / 8),
    "[".repeat(size),
    "{{".repeat(size / 2),
    `${"/".repeat(size)}x`,
    `${"_".repeat(size)}.`,
    "](".concat(" ".repeat(size)),
    `[#1]${" ".repeat(size)}\nx`,
    `"${" ".repeat(size)}x`,
  ].join("");

const BODY_BUDGET = 800_000;
const RUN = 8_000;

/** Every string in the payload replaced by the attack text, its runs shortened to fit the budget. */
function attacked(payload: unknown): unknown {
  let strings = 0;
  JSON.stringify(payload, (_k, v) => (typeof v === "string" ? (strings++, v) : v));
  const size = Math.max(1000, Math.min(RUN, Math.floor(BODY_BUDGET / (15 * Math.max(1, strings)))));
  const text = attack(size);
  return JSON.parse(JSON.stringify(payload, (_k, v) => (typeof v === "string" ? text : v)));
}

/**
 * The JSON case the plugin renders with the largest payload (it reaches furthest: the most fields,
 * so the most of the plugin's templates and helpers). One per plugin: each is a delivery of up to
 * BODY_BUDGET bytes through the app, and every field of it is attacked at once.
 */
function renderingCases(integration: Integration): FixtureCase[] {
  return loadFixtureCases(integration)
    .filter((c) => !c.payloadPath.endsWith(".xml") && integration.manifest.contentType !== "query")
    .filter((c) => c.expected !== undefined && !c.expected.error && !c.expected.ignored)
    .sort((a, b) => b.body.length - a.body.length)
    .slice(0, 1);
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: "all" });
});
afterAll(async () => {
  await server.close();
});

test("POST /messages: content of long runs is stored, cut to the limit", async () => {
  const res = await server.as(server.users.member).post("/messages", {
    type: "stream",
    to: server.general.name,
    topic: `${" ".repeat(500)}x`,
    content: attack(20_000),
  });
  expect(res.status).toBe(200);
  const row = await server.db("messages").where({ id: res.body.id }).first();
  expect([...String(row.content)].length).toBeLessThanOrEqual(10_000);
});

/** Integrations with a delivery that was posted (not refused by its schema). */
const posted = new Set<string>();
const ran = new Set<string>();
afterAll(() => {
  // Most plugins accept such text where their schemas ask for strings, and render it (checked when
  // every integration ran, not under `-t`).
  if (ran.size === names.length) expect(posted.size).toBeGreaterThan(names.length / 2);
});

describe.each(names)("integration %s", (name) => {
  it("answers deliveries whose strings are long runs with the envelope", async () => {
    ran.add(name);
    const integration = server.deps.integrations.get(name)!;
    for (const c of renderingCases(integration)) {
      const { body } = encodeBody(integration, JSON.stringify(attacked(c.payload)), c.contentType);
      const qs = new URLSearchParams({ api_key: server.users.bot.apiKey, stream: server.general.name, ...c.query });
      const res = await fetch(`${server.url}/api/v1/external/${name}?${qs}`, {
        method: "POST",
        headers: { "content-type": c.contentType, ...c.headers },
        body,
      });
      const answer = { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
      expectEnvelope(`${name} ${c.name}`, answer);
      if (answer.status === 200) posted.add(name);
    }
  });
});
