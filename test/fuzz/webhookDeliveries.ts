// The webhook fuzzer's deliveries, shared by its two halves: the pure one (test/unit/webhookFuzz,
// every event of every plugin through the pure pipeline) and the end-to-end one (test/fuzz/webhooks,
// a sample through the real app and database). For each event a plugin declares, one of its
// fixtures with its payload mutated (fast-check): fields dropped, types changed, hostile strings
// and deep nesting put in, the event header replaced; and the security probes (URL filters RE2
// refuses, XML element names the parser refuses, text no database column can hold).
import crypto from "node:crypto";
import fc from "fast-check";
import { caseEventKey, encodeBody, loadFixtureCases, type FixtureCase } from "../../src/webhooks/fixtures";
import type { Integration } from "../../src/webhooks/registry";
import { anyText, HOSTILE_STRINGS, nestedJson } from "./support";

/** Mutated deliveries per event (FUZZ_WEBHOOK_RUNS; default 1), the regressions below aside. */
export const RUNS = Number(process.env.FUZZ_WEBHOOK_RUNS ?? 1);

/** One case per event: one that the plugin renders, when there is one (it reaches furthest). */
export function casePerEvent(integration: Integration): [string, FixtureCase][] {
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

export type Path = (string | number)[];

export type Mutation =
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

export interface Delivery {
  mutations: Mutation[];
  /** A new value for the event header, when the plugin reads its event from one. */
  eventHeader: string | null;
  freshDeliveryId: string;
}

export const deliveryArb: fc.Arbitrary<Delivery> = fc.record({
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

/** The mutated delivery of a case: its headers, query (with `stream`) and body. */
export function mutatedRequest(integration: Integration, c: FixtureCase, d: Delivery, stream: string) {
  const headers: Record<string, string> = { ...c.headers };
  const query: Record<string, string> = { stream, ...c.query };
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

/** Deliveries that once answered 500, by "<integration> <event>": replayed on every run. */
const setting = (path: Path, value: unknown): Delivery[] => [
  { mutations: [{ kind: "set", path, value }], eventHeader: null, freshDeliveryId: crypto.randomUUID() },
];

export const REGRESSIONS: Record<string, Delivery[]> = {
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

/** A delivery that changes nothing but the delivery id (so it is not taken for a redelivery). */
export const fresh = (mutations: Mutation[]): Delivery => ({
  mutations,
  eventHeader: null,
  freshDeliveryId: crypto.randomUUID(),
});

// Probes of an independent security review: URL filters with character classes RE2 refuses (once
// a 500), XML element names the parser refuses (once a 500), and NUL bytes / unpaired surrogates
// in the payload's text (once stored, though REST refuses them). (Details: test/webhooks/hostileInput.test.ts.)
const BAD_FILTERS = ['["[z-a]"]', '["[!]"]', '["[^]"]', '["[[:alpha:]]"]', "main,[z-a]", '["[0-:]"]'];
const REFUSED_XML_NAMES = ["__proto__", "constructor", "prototype"];
const UNSTORABLE_TEXT = ["a\u0000b", "a\ud800b"];

export interface Probe {
  label: string;
  c: FixtureCase;
  d: Delivery;
}

/** Every security probe of a case, in three kinds: filters, text, and XML names (XML cases only). */
export function securityProbes(c: FixtureCase): { filters: Probe[]; text: Probe[]; xml: Probe[] } {
  const filters = BAD_FILTERS.map((f) => ({
    label: `filters ${f}`,
    c: { ...c, query: { ...c.query, branches: f, only_events: f, exclude_events: f } },
    d: fresh([]),
  }));
  const text = UNSTORABLE_TEXT.flatMap((value) =>
    [0, 1, 2].map((at) => ({
      label: `text ${JSON.stringify(value)}`,
      c,
      d: fresh([{ kind: "text" as const, at, value }]),
    })),
  );
  const xml = c.payloadPath.endsWith(".xml")
    ? REFUSED_XML_NAMES.map((element) => {
        const body = c.body.toString("utf8").replace(/(<[A-Za-z_][^<>]*>)/, `$1<${element}>1</${element}>`);
        return { label: `<${element}>`, c: { ...c, body: Buffer.from(body) }, d: fresh([]) };
      })
    : [];
  return { filters, text, xml };
}
