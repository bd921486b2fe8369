// Property-based fuzzing of every integration × event (fast-check, fixed seed, bounded runs): for
// each event a plugin declares, one of its fixtures is posted with its payload mutated — fields
// dropped, types changed, hostile strings and deep nesting put in, the event header replaced — as
// the incoming-webhook bot. Every answer must be the JSON envelope, never a 5xx, and a refused
// delivery must store nothing (the Notification Bot's notices to the bot owner aside, by design).
// Bounded: one mutated delivery per event by default, plus the regressions below.
//   FUZZ_SEED=n FUZZ_WEBHOOK_RUNS=n FUZZ_TIMEOUT_MS=n npx jest test/fuzz/webhooks  → other mutations, more
import crypto from "node:crypto";
import path from "node:path";
import fc from "fast-check";
import { caseEventKey, encodeBody, loadFixtureCases, type FixtureCase } from "../../src/webhooks/fixtures";
import { loadIntegrations } from "../../src/webhooks/loader";
import type { Integration } from "../../src/webhooks/registry";
import { startTestServer, type TestServer } from "../support/harness";
import { anyText, check, expectEnvelope, HOSTILE_STRINGS, nestedJson, rowCounts } from "./support";

const RUNS = Number(process.env.FUZZ_WEBHOOK_RUNS ?? 1);
const ROOT = path.resolve(__dirname, "../..");
const integrations = loadIntegrations(path.join(ROOT, "integrations"));

// Longer runs (FUZZ_RUNS) need longer tests.
if (process.env.FUZZ_TIMEOUT_MS) jest.setTimeout(Number(process.env.FUZZ_TIMEOUT_MS));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: "all" });
});
afterAll(async () => {
  await server.close();
});

/** The event a case exercises, if it resolves to one. */
/** One case per event: one that the plugin renders, when there is one (it reaches furthest). */
function casePerEvent(integration: Integration): [string, FixtureCase][] {
  const chosen = new Map<string, FixtureCase>();
  for (const c of loadFixtureCases(integration)) {
    const event = caseEventKey(integration, c);
    if (event === undefined) continue;
    const renders = c.expected !== undefined && !c.expected.error && !c.expected.ignored;
    const current = chosen.get(event);
    if (!current || (renders && (current.expected?.error || current.expected?.ignored))) chosen.set(event, c);
  }
  return [...chosen.entries()];
}

// --- mutations ------------------------------------------------------------------------------

type Path = (string | number)[];

type Mutation =
  | { kind: "set"; path: Path; value: unknown } // (regressions: a named place)
  | { kind: "drop"; at: number }
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "text"; at: number; value: string };

const OTHER_TYPES: unknown[] = [null, 0, -1, 1e308, 1.5, true, false, "", "x", [], {}, [[]], { a: {} }, [null]];

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("replace" as const),
    at: fc.nat(),
    value: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...OTHER_TYPES) },
      { weight: 1, arbitrary: fc.constantFrom(20, 99, 150).map((d) => JSON.parse(nestedJson(d)) as unknown) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    ),
  }),
  fc.record({ kind: fc.constant("text" as const), at: fc.nat(), value: anyText }),
);

/** Every place in a JSON value (the root excluded), depth first. */
function placesIn(value: unknown, at: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  return entries.flatMap(([key, child]) => [[...at, key], ...placesIn(child, [...at, key])]);
}

function applyMutation(payload: unknown, m: Mutation): unknown {
  if (m.kind === "set") {
    const parent = m.path.slice(0, -1).reduce<any>((node, key) => node[key], payload);
    parent[m.path[m.path.length - 1]] = m.value;
    return payload;
  }
  const places = placesIn(payload);
  if (places.length === 0) return m.kind === "drop" ? payload : m.value;
  const place = places[m.at % places.length];
  const parent = place.slice(0, -1).reduce<any>((node, key) => node[key], payload);
  const key = place[place.length - 1];
  if (m.kind === "drop") {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else {
    parent[key] = m.value;
  }
  return payload;
}

/** XML (and other raw texts) are cut and spliced as text. */
function mutateText(text: string, mutations: Mutation[]): string {
  let out = text;
  for (const m of mutations) {
    if (m.kind === "set") continue;
    const at = m.at % (out.length + 1);
    if (m.kind === "drop") out = out.slice(0, at) + out.slice(at + 1 + (m.at % 40));
    else out = out.slice(0, at) + (m.kind === "text" ? m.value : JSON.stringify(m.value)) + out.slice(at);
  }
  return out;
}

interface Delivery {
  mutations: Mutation[];
  /** A new value for the event header, when the plugin reads its event from one. */
  eventHeader: string | null;
  freshDeliveryId: string;
}

const deliveryArb: fc.Arbitrary<Delivery> = fc.record({
  mutations: fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
  eventHeader: fc.option(
    fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS.filter((s) => /^[\x20-\x7e]*$/.test(s) && s.length < 1000)),
      fc.string({ unit: "grapheme-ascii", maxLength: 30 }),
    ),
    { freq: 4 },
  ),
  freshDeliveryId: fc.uuid(),
});

function request(integration: Integration, c: FixtureCase, d: Delivery) {
  const headers: Record<string, string> = { ...c.headers };
  const query: Record<string, string> = { stream: server.general.name, ...c.query };
  const source = integration.manifest.eventSource;
  if (d.eventHeader !== null && "header" in source) headers[source.header] = d.eventHeader;
  const id = integration.manifest.deliveryId;
  if (id && "header" in id) headers[id.header] = d.freshDeliveryId; // a redelivery would be answered without work
  const mode = integration.manifest.contentType;
  let body: Buffer;
  if (c.payloadPath.endsWith(".xml")) {
    body = Buffer.from(mutateText(c.body.toString("utf8"), d.mutations));
  } else if (mode === "query") {
    const fields = d.mutations.reduce((p, m) => applyMutation(p, m), structuredClone(query) as unknown);
    for (const [k, v] of Object.entries((fields ?? {}) as Record<string, unknown>))
      query[k] = typeof v === "string" ? v : JSON.stringify(v);
    body = c.body;
  } else {
    const mutated = d.mutations.reduce((p, m) => applyMutation(p, m), structuredClone(c.payload));
    body = encodeBody(integration, JSON.stringify(mutated), c.contentType).body;
  }
  return { headers, query, body };
}

async function post(integration: Integration, c: FixtureCase, d: Delivery) {
  const { headers, query, body } = request(integration, c, d);
  const qs = new URLSearchParams({ api_key: server.users.bot.apiKey, ...query }).toString();
  const res = await fetch(`${server.url}/api/v1/external/${integration.name}?${qs}`, {
    method: "POST",
    headers: { "content-type": c.contentType, ...headers },
    body,
  });
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
}

/** Deliveries that once answered 500, by "<integration> <event>": replayed on every run. */
const setting = (path: Path, value: unknown): Delivery[] => [
  { mutations: [{ kind: "set", path, value }], eventHeader: null, freshDeliveryId: crypto.randomUUID() },
];

const REGRESSIONS: Record<string, Delivery[]> = {
  // integrations/stripe/transform.ts read `billing_reason` (and statuses) as strings only.
  "stripe invoice.payment_succeeded": setting(["data", "object", "billing_reason"], ["cycle"]),
  // The `time` helper turned a number beyond any date into an exception.
  "stripe customer.subscription.trial_will_end": setting(["data", "object", "trial_end"], 1e308),
  // Lists and strings the transforms walk, not declared in their schemas.
  "gocd stage": setting(["build_cause", "material_revisions"], ""),
  "harbor PULL_ARTIFACT": setting(["event_data", "resources", 0, "digest"], []),
  "pagerduty incident.unacknowledged": setting(["event", "data", "assignees"], ""),
  "azuredevops git.pullrequest.updated": setting(["resource", "repository", "webUrl"], [[]]),
  "bitbucket2 pullrequest:comment_deleted": setting(["pullrequest", "reviewers"], -1),
  "taiga epic": setting(["data", "tags"], ""),
  "intercom conversation.admin.replied": setting(["data", "item", "tags_added", "tags"], ""),
};

// The Notification Bot tells a bot's owner about misconfigured deliveries, by design.
const notificationBot = () => Number(server.realm.notification_bot_id);

describe.each(integrations.map((i) => [i.name, i] as const))("integration %s", (name, integration) => {
  it("answers every mutated event with the envelope, no 5xx, nothing stored when refused", async () => {
    const events = casePerEvent(integration);
    expect(events.map(([event]) => event).sort()).toEqual([...integration.events.keys()].sort());
    for (const [event, c] of events) {
      await check(
        `${name} ${event} (${c.name})`,
        deliveryArb,
        async (d) => {
          const before = await rowCounts(server, notificationBot());
          const answer = await post(integration, c, d);
          expectEnvelope(`${name} ${event}`, answer);
          if (answer.status < 400) return;
          expect(await rowCounts(server, notificationBot())).toEqual(before);
        },
        RUNS,
        REGRESSIONS[`${name} ${event}`],
      );
    }
  });
});

// Probes of an independent security review, for every integration, on every run: URL filters with
// character classes RE2 refuses (once a 500), XML element names the parser refuses (once a 500),
// and NUL bytes / unpaired surrogates in the payload's text (once stored, though REST refuses them).
// Each answer is the envelope; a refused delivery stores nothing. (Details: test/webhooks/hostileInput.test.ts.)
const BAD_FILTERS = ['["[z-a]"]', '["[!]"]', '["[^]"]', '["[[:alpha:]]"]', "main,[z-a]", '["[0-:]"]'];
const REFUSED_XML_NAMES = ["__proto__", "constructor", "prototype"];
const UNSTORABLE_TEXT = ["a\u0000b", "a\ud800b"];

describe.each(integrations.map((i) => [i.name, i] as const))("integration %s: security probes", (name, integration) => {
  it("answers bad filters, refused XML names and unstorable text with the envelope", async () => {
    const [, c] = casePerEvent(integration)[0] ?? [];
    if (!c) return;
    const fresh = (mutations: Mutation[]): Delivery => ({
      mutations,
      eventHeader: null,
      freshDeliveryId: crypto.randomUUID(),
    });
    const probes: { label: string; c: FixtureCase; d: Delivery }[] = [
      ...BAD_FILTERS.map((f) => ({
        label: `filters ${f}`,
        c: { ...c, query: { ...c.query, branches: f, only_events: f, exclude_events: f } },
        d: fresh([]),
      })),
      ...UNSTORABLE_TEXT.flatMap((value) =>
        [0, 1, 2].map((at) => ({ label: `text ${JSON.stringify(value)}`, c, d: fresh([{ kind: "text", at, value }]) })),
      ),
    ];
    if (c.payloadPath.endsWith(".xml")) {
      for (const element of REFUSED_XML_NAMES) {
        const xml = c.body.toString("utf8").replace(/(<[A-Za-z_][^<>]*>)/, `$1<${element}>1</${element}>`);
        probes.push({ label: `<${element}>`, c: { ...c, body: Buffer.from(xml) }, d: fresh([]) });
      }
    }
    for (const probe of probes) {
      const before = await rowCounts(server, notificationBot());
      const answer = await post(integration, probe.c, probe.d);
      expectEnvelope(`${name} ${probe.label}`, answer);
      if (answer.status >= 400) expect(await rowCounts(server, notificationBot())).toEqual(before);
    }
  });
});
