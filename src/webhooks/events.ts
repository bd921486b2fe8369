// Which event a delivery is (header, payload field or fixed, plus an optional action), which
// manifest entry handles it, and the URL filters only_events / exclude_events / branches.
import { ApiError, Errors } from "../errors";
import type { EventSource } from "./manifest";
import { asPointer, readPath } from "./paths";
import type { Integration, LoadedEvent } from "./registry";
import { checkGlob, globMatches, GlobSyntaxError, MAX_PATTERN_LENGTH, MAX_PATTERNS } from "./glob";

export interface ResolvedEvent {
  /** The event name from the header/field/fixed source, e.g. `pull_request`. */
  event: string;
  action?: string;
  /** `event.action` when there is an action, else `event`: what filters and errors name. */
  eventType: string;
}

const scalar = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined;

/** For `map` lookups: numbers in decimal, true/false, null → "null"; objects and "" count as missing. */
export function eventValueString(v: unknown): string | undefined {
  if (v === null) return "null";
  if (typeof v === "boolean") return String(v);
  return scalar(v);
}

const mapped = (value: string | undefined, map: Record<string, string> | undefined): string | undefined =>
  value === undefined || map === undefined || !Object.prototype.hasOwnProperty.call(map, value) ? value : map[value];

export function resolveEvent(
  source: EventSource,
  headers: Record<string, string | undefined>,
  payload: unknown,
  displayName: string,
): ResolvedEvent {
  let event: string | undefined;
  if ("header" in source) {
    event = mapped(headers[source.header.toLowerCase()]?.trim() || undefined, source.map) ?? source.default;
    if (event === undefined) {
      throw new ApiError("MISSING_HTTP_EVENT_HEADER", `Missing the HTTP event header '${source.header}'`, {
        header: source.header,
      });
    }
  } else if ("field" in source) {
    const value = readPath(payload, source.field);
    event = (source.map ? mapped(eventValueString(value), source.map) : scalar(value)) ?? source.default;
    if (event === undefined) {
      const pointer = asPointer(source.field);
      throw new ApiError(
        "INVALID_PAYLOAD",
        `Invalid ${displayName} payload: ${pointer} is missing (it names the event)`,
        { pointers: [pointer] },
      );
    }
  } else {
    event = source.fixed;
  }
  const action = source.actionField ? scalar(readPath(payload, source.actionField)) : undefined;
  return { event, action, eventType: action ? `${event}.${action}` : event };
}

/**
 * Lookup order: `event.action`, then its families (`event`, and for dotted event names such as
 * Stripe's `charge.dispute.created`, `charge.dispute`, then `charge`), then the catch-all `*`.
 */
export function findEvent(integration: Integration, resolved: ResolvedEvent): LoadedEvent | undefined {
  const parts = resolved.eventType.split(".");
  for (let n = parts.length; n > 0; n--) {
    const found = integration.events.get(parts.slice(0, n).join("."));
    if (found) return found;
  }
  // `event` is always one of those prefixes (`eventType` is `event` or `event.action`).
  return integration.events.get("*");
}

/** "main,release/{1,2}" → ["main", "release/{1,2}"]: commas inside braces belong to the glob. */
function splitOutsideBraces(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && depth > 0) depth--;
    else if (text[i] === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A JSON list of patterns or a comma-separated list; undefined when the parameter is absent. */
export function parsePatternList(name: string, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  let list: unknown[] = splitOutsideBraces(text);
  if (text.startsWith("[")) {
    try {
      list = JSON.parse(text) as unknown[]; // text starting with "[" parses to an array or not at all
    } catch {
      throw Errors.invalidJsonParam(name);
    }
  }
  if (!list.every((x) => typeof x === "string")) throw Errors.invalidParam(name, `${name} must be a list of strings`);
  const patterns = (list as string[]).map((s) => s.trim()).filter((s) => s !== "");
  if (patterns.length > MAX_PATTERNS) {
    throw Errors.invalidParam(name, `${name} lists too many patterns: the limit is ${MAX_PATTERNS}`);
  }
  for (const p of patterns) {
    if ([...p].length > MAX_PATTERN_LENGTH) {
      throw Errors.invalidParam(
        name,
        `${name} has a pattern that is too long: the limit is ${MAX_PATTERN_LENGTH} characters`,
      );
    }
    try {
      checkGlob(p);
    } catch (err) {
      if (err instanceof GlobSyntaxError) throw Errors.invalidParam(name, `${name}: ${err.message}`);
      throw err;
    }
    // Event filters are matched with ':' read as '.' (isFilteredOut): that spelling must compile too.
    if (EVENT_FILTERS.has(name) && eventSpelling(p) !== p) {
      try {
        checkGlob(eventSpelling(p));
      } catch (err) {
        if (!(err instanceof GlobSyntaxError)) throw err;
        throw Errors.invalidParam(name, `${name}: invalid pattern '${p}' (with ':' read as '.', as event names are)`);
      }
    }
  }
  return patterns;
}

const EVENT_FILTERS = new Set(["only_events", "exclude_events"]);

const matches = (value: string, patterns: string[]) => globMatches(value, patterns);

/**
 * The reference joins event and action with `:` (`pull_request:opened`), we with `.`, and some
 * services' own event names contain `:` (Bitbucket's `repo:push`). Filters read `:` as `.` on
 * both sides, so either spelling matches.
 */
const eventSpelling = (name: string) => name.replace(/:/g, ".");

/** only_events / exclude_events match the event name or the full `event.action`, in either spelling. */
export function isFilteredOut(
  resolved: ResolvedEvent,
  only: string[] | undefined,
  exclude: string[] | undefined,
): boolean {
  const names = [resolved.event, resolved.eventType].map(eventSpelling);
  const onlyPatterns = only?.map(eventSpelling);
  const excludePatterns = exclude?.map(eventSpelling);
  if (onlyPatterns && !names.some((n) => matches(n, onlyPatterns))) return true;
  if (excludePatterns && names.some((n) => matches(n, excludePatterns))) return true;
  return false;
}

/** `branches` (exact names or globs): true when the ref is a branch that is not listed. Tags pass. */
export function isBranchFilteredOut(ref: unknown, branches: string[] | undefined): boolean {
  if (!branches || branches.length === 0 || typeof ref !== "string") return false;
  if (ref.startsWith("refs/") && !ref.startsWith("refs/heads/")) return false;
  return !matches(ref.replace(/^refs\/heads\//, ""), branches);
}
