// Per-id API lookups (manifest `api.lookups.<name>.idsFrom`): one GET per distinct id a pattern
// finds in a payload text (each person a Slack message mentions as `<@U…>`), the answers kept by
// id (`api.<name>.<id>`). The pattern runs on RE2, linear in the text, so no payload can stall the
// server; ids are bounded in length (API_LOOKUP_MAX_ID_CHARS) and in number (the lookup's `max`),
// and a delivery's requests in all by MAX_API_LOOKUPS. Pure: the loader checks a manifest's
// per-id lookups with checkIdLookups, and src/services/webhooks/apiLookup.ts makes the requests.
import RE2 from "re2";
import type { ApiLookupSpec, ApiSpec, IdsFrom, Manifest } from "./manifest";
import { readPath } from "./paths";
import { resolveRef, scopeAt, type Schema } from "./templatePaths";
import { API_LOOKUP_MAX_ID_CHARS, API_LOOKUP_MAX_IDS, MAX_API_LOOKUPS } from "../limits";

/** The placeholder a per-id lookup's path holds once: the id being asked about. */
export const ID_PLACEHOLDER = "{id}";

/** One request a delivery's lookups plan: a lookup's path, and for a per-id lookup its id. */
export interface PlannedLookup {
  name: string;
  path: string;
  id?: string;
}

// Compiled once per pattern; the patterns are the loaded manifests' own, so the map stays small.
const compiled = new Map<string, RE2>();

/** The pattern as a global RE2; throws RE2's own message when it does not compile. */
export function idPattern(pattern: string): RE2 {
  let re = compiled.get(pattern);
  if (re === undefined) {
    re = new RE2(pattern, "gu");
    compiled.set(pattern, re);
  }
  return re;
}

/** How many capture groups a pattern has (RE2 pattern `p|` matches "" with one slot per group). */
function captureGroupCount(pattern: string): number {
  return new RE2(`${pattern}|`, "u").exec("")!.length - 1;
}

/**
 * The distinct ids the pattern's one capture group finds in the payload's text at `idsFrom.field`,
 * in the order they first appear, at most `max` of them; an empty id or one longer than
 * API_LOOKUP_MAX_ID_CHARS is skipped (not asked about, not counted). Not a string: no ids.
 */
export function idsIn(payload: unknown, idsFrom: IdsFrom, max: number): string[] {
  const text = readPath(payload, idsFrom.field);
  if (typeof text !== "string" || max < 1) return [];
  const ids = new Set<string>();
  for (const match of text.matchAll(idPattern(idsFrom.pattern))) {
    const id = match[1];
    if (id === undefined || id === "" || id.length > API_LOOKUP_MAX_ID_CHARS) continue;
    ids.add(id);
    if (ids.size >= max) break;
  }
  return [...ids];
}

/** A lookup's spec in its object form (a bare string is a path). */
export function lookupSpecOf(lookup: string | ApiLookupSpec): ApiLookupSpec {
  return typeof lookup === "string" ? { path: lookup } : lookup;
}

/**
 * Every request the delivery's lookups ask for: each plain lookup once, then each per-id lookup's
 * ids; never more than MAX_API_LOOKUPS in all (the loader already refuses a manifest whose plain
 * lookups and `max`es add up to more, so the cut is only a second guard).
 */
export function planLookups(spec: ApiSpec, payload: unknown): PlannedLookup[] {
  const plain: PlannedLookup[] = [];
  const perId: PlannedLookup[] = [];
  for (const [name, lookup] of Object.entries(spec.lookups)) {
    const { path, idsFrom, max } = lookupSpecOf(lookup);
    if (idsFrom === undefined) plain.push({ name, path });
    else for (const id of idsIn(payload, idsFrom, max ?? 0)) perId.push({ name, path, id });
  }
  return [...plain, ...perId].slice(0, MAX_API_LOOKUPS);
}

/**
 * The answers by lookup name, a per-id lookup's as an object by id; a request without an answer is
 * left out (and a per-id lookup none of whose ids was answered). Built with fromEntries, so an id
 * such as `__proto__` is an ordinary key.
 */
export function collectAnswers(
  answered: readonly (readonly [PlannedLookup, Record<string, unknown> | undefined])[],
): Record<string, unknown> {
  const plain: [string, unknown][] = [];
  const byId = new Map<string, [string, unknown][]>();
  for (const [planned, answer] of answered) {
    if (answer === undefined) continue;
    if (planned.id === undefined) plain.push([planned.name, answer]);
    else byId.set(planned.name, [...(byId.get(planned.name) ?? []), [planned.id, answer]]);
  }
  return Object.fromEntries([...plain, ...[...byId].map(([name, ids]) => [name, Object.fromEntries(ids)] as const)]);
}

/**
 * Start-up checks of a manifest's per-id lookups, beyond what the manifest schema can say: the
 * pattern compiles in RE2 with exactly one capture group (the id) and cannot match the empty
 * text, the field it searches is declared in the payload schema, the path asks for `{id}` once,
 * and a delivery's worst case stays within MAX_API_LOOKUPS. Each problem with its JSON pointer
 * into integration.json.
 */
export function checkIdLookups(
  manifest: Manifest,
  schema: Schema | undefined,
  schemaFile: string,
): { where: string; what: string }[] {
  const lookups = manifest.api?.lookups ?? {};
  const out: { where: string; what: string }[] = [];
  // The root schema and every event's own (`"schema": "#/$defs/…"`): a field any of them declares will do.
  const nodes =
    schema === undefined
      ? []
      : [
          schema,
          ...Object.values(manifest.events).flatMap((e) => {
            const own = e.schema ? resolveRef(schema, e.schema) : undefined;
            return own === undefined ? [] : [own];
          }),
        ];
  let requests = 0;
  for (const [name, lookup] of Object.entries(lookups)) {
    const { path, idsFrom, max } = lookupSpecOf(lookup);
    const at = `/api/lookups/${name}`;
    const ids = path.split(ID_PLACEHOLDER).length - 1;
    if (idsFrom === undefined) {
      requests += 1;
      continue;
    }
    requests += max ?? API_LOOKUP_MAX_IDS;
    if (ids !== 1)
      out.push({
        where: `${at}/path`,
        what: `a per-id lookup's path must hold ${ID_PLACEHOLDER} exactly once (it has ${ids})`,
      });
    let compiles = true;
    try {
      idPattern(idsFrom.pattern);
    } catch (err) {
      compiles = false;
      out.push({ where: `${at}/idsFrom/pattern`, what: `does not compile in RE2: ${(err as Error).message}` });
    }
    if (compiles) {
      const groups = captureGroupCount(idsFrom.pattern);
      if (groups !== 1)
        out.push({
          where: `${at}/idsFrom/pattern`,
          what: `has ${groups} capture groups: exactly one (the id) is needed; write other groups as (?:…)`,
        });
      // A fresh, non-global copy: the shared global one must keep its lastIndex at 0.
      if (new RE2(idsFrom.pattern, "u").test(""))
        out.push({ where: `${at}/idsFrom/pattern`, what: "matches the empty text: it must need at least the id" });
    }
    if (schema !== undefined && scopeAt(schema, nodes, idsFrom.field) === undefined)
      out.push({ where: `${at}/idsFrom/field`, what: `'${idsFrom.field}' is not declared in ${schemaFile}` });
  }
  if (requests > MAX_API_LOOKUPS)
    out.push({
      where: "/api/lookups",
      what:
        `up to ${requests} requests a delivery (each lookup once, each per-id lookup at its max), ` +
        `more than MAX_API_LOOKUPS (${MAX_API_LOOKUPS}): lower the max`,
    });
  return out;
}
