// Reading a value out of a payload by JSON pointer ("/alerts/0/status") or dotted path
// ("pull_request.head.ref"). Manifests may use either form.
import { MAX_JSON_PATH_LENGTH, MAX_JSON_PATH_SEGMENTS } from "../limits";

/** The keys a JSON pointer or dotted path names, outermost first. */
export function pathKeys(path: string): string[] {
  return path.startsWith("/")
    ? path
        .slice(1)
        .split("/")
        .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    : path.split(".");
}

export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of pathKeys(path)) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The same path as a JSON pointer, for error messages. */
export function asPointer(path: string): string {
  if (path.startsWith("/")) return path;
  return (
    "/" +
    path
      .split(".")
      .map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1"))
      .join("/")
  );
}

/**
 * A JSON-path URL option (`$.alert.labels[0].name`, `$['key with spaces']`) as its segments, or
 * undefined when it is not one. A small subset, read in one linear pass: names after `.`,
 * array indexes and quoted names in brackets; no wildcards, filters or recursion.
 */
export function parseJsonPath(text: string): (string | number)[] | undefined {
  if (text.length > MAX_JSON_PATH_LENGTH || !text.startsWith("$")) return undefined;
  const segments: (string | number)[] = [];
  let i = 1;
  while (i < text.length) {
    if (segments.length >= MAX_JSON_PATH_SEGMENTS) return undefined;
    if (text[i] === ".") {
      const m = /^[^.[\]\s'"]+/.exec(text.slice(i + 1));
      if (!m) return undefined;
      segments.push(m[0]);
      i += 1 + m[0].length;
    } else if (text[i] === "[") {
      const m = /^\[(?:(\d{1,9})|'([^'\\]*)'|"([^"\\]*)")\]/.exec(text.slice(i));
      if (!m) return undefined;
      segments.push(m[1] !== undefined ? Number(m[1]) : (m[2] ?? m[3]));
      i += m[0].length;
    } else return undefined;
  }
  return segments;
}

/** The value at parsed JSON-path segments (own properties only), or undefined. */
export function readJsonPath(value: unknown, segments: (string | number)[]): unknown {
  let current: unknown = value;
  for (const segment of segments) {
    if (current === null || typeof current !== "object") return undefined;
    if (typeof segment === "number" && !Array.isArray(current)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
