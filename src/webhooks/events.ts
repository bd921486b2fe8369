// Which event a delivery is (header, payload field or fixed, plus an optional action), which
// manifest entry handles it, and the URL filters only_events / exclude_events / branches.
import picomatch from "picomatch";
import { ApiError, Errors } from "../errors";
import type { EventSource } from "./manifest";
import { asPointer, readPath } from "./paths";
import type { Integration, LoadedEvent } from "./registry";

export interface ResolvedEvent {
  /** The event name from the header/field/fixed source, e.g. `pull_request`. */
  event: string;
  action?: string;
  /** `event.action` when there is an action, else `event`: what filters and errors name. */
  eventType: string;
}

const scalar = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined);

export function resolveEvent(source: EventSource, headers: Record<string, string | undefined>, payload: unknown, displayName: string): ResolvedEvent {
  let event: string | undefined;
  if ("header" in source) {
    event = headers[source.header.toLowerCase()]?.trim() || undefined;
    if (event === undefined) {
      throw new ApiError("MISSING_HTTP_EVENT_HEADER", `Missing the HTTP event header '${source.header}'`, { header: source.header });
    }
  } else if ("field" in source) {
    event = scalar(readPath(payload, source.field)) ?? source.default;
    if (event === undefined) {
      const pointer = asPointer(source.field);
      throw new ApiError("INVALID_PAYLOAD", `Invalid ${displayName} payload: ${pointer} is missing (it names the event)`, { pointers: [pointer] });
    }
  } else {
    event = source.fixed;
  }
  const action = source.actionField ? scalar(readPath(payload, source.actionField)) : undefined;
  return { event, action, eventType: action ? `${event}.${action}` : event };
}

/** Lookup order: `event.action`, then `event`, then the catch-all `*`. */
export function findEvent(integration: Integration, resolved: ResolvedEvent): LoadedEvent | undefined {
  return integration.events.get(resolved.eventType) ?? integration.events.get(resolved.event) ?? integration.events.get("*");
}

/** A JSON list of patterns or a comma-separated list; undefined when the parameter is absent. */
export function parsePatternList(name: string, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  let list: unknown = text.split(",");
  if (text.startsWith("[")) {
    try {
      list = JSON.parse(text);
    } catch {
      throw Errors.invalidJsonParam(name);
    }
  }
  if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) throw Errors.invalidParam(name, `${name} must be a list of strings`);
  return (list as string[]).map((s) => s.trim()).filter((s) => s !== "");
}

const matches = (value: string, patterns: string[]) => picomatch.isMatch(value, patterns, { dot: true });

/** only_events / exclude_events match the event name or the full `event.action`. */
export function isFilteredOut(resolved: ResolvedEvent, only: string[] | undefined, exclude: string[] | undefined): boolean {
  const names = [resolved.event, resolved.eventType];
  if (only && !names.some((n) => matches(n, only))) return true;
  if (exclude && names.some((n) => matches(n, exclude))) return true;
  return false;
}

/** `branches` (exact names or globs): true when the ref is a branch that is not listed. Tags pass. */
export function isBranchFilteredOut(ref: unknown, branches: string[] | undefined): boolean {
  if (!branches || branches.length === 0 || typeof ref !== "string") return false;
  if (ref.startsWith("refs/") && !ref.startsWith("refs/heads/")) return false;
  return !matches(ref.replace(/^refs\/heads\//, ""), branches);
}
