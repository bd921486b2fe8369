// Fixture cases (integrations/<name>/fixtures/<case>.json or .xml + <case>.expected.json +
// _defaults.json; the loader puts the folder on the Integration) turned into ready-to-send requests. Shared by the generated test suite, send-fixture and
// check-integrations so all three agree on headers, query and body encoding.
import fs from "node:fs";
import path from "node:path";
import { parseXml } from "./body";
import { findEvent, resolveEvent } from "./events";
import type { Integration } from "./registry";

export interface ExpectedMessage {
  topic: string;
  content: string;
  /** The channel the message names itself (manifest `channel`), when it does: not the URL's `stream`. */
  channel?: string;
}

/** What a case expects; request fields (headers/query/contentType) may also be set here. */
export interface ExpectedCase {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  contentType?: string;
  topic?: string;
  content?: string;
  /** A single message's own channel (manifest `channel`), as in ExpectedMessage. */
  channel?: string;
  messages?: ExpectedMessage[];
  error?: { status: number; code: string; msg?: string };
  ignored?: boolean;
  /** The success answer's extra fields (manifest `reply`); compared when the expected file has them. */
  reply?: Record<string, string>;
}

export interface FixtureCase {
  name: string;
  payloadPath: string;
  expectedPath: string;
  expected?: ExpectedCase;
  headers: Record<string, string>;
  query: Record<string, string>;
  contentType: string;
  body: Buffer;
  /** The parsed payload file (for event coverage checks). */
  payload: unknown;
}

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, "utf8"));

/**
 * Payload files: `<case>.json`, `<case>.xml` for XML plugins (sent as written, as application/xml),
 * or `<case>.txt`: a raw body sent byte for byte (plain text, a multipart body with CRLF line ends,
 * JSON that is not strict), as text/plain unless the expected file names its contentType.
 */
export function isPayloadFile(file: string): boolean {
  return (
    (file.endsWith(".json") || file.endsWith(".xml") || file.endsWith(".txt")) &&
    !file.endsWith(".expected.json") &&
    !path.basename(file).startsWith("_")
  );
}

const FORM_TYPE = "application/x-www-form-urlencoded";

// Case names say what a case expects. A word (between `_`, `__`, `.`, `-`) from these lists marks
// an error case or an ignore case: `error__no_title`, `push__invalid_ref`, `ignore__worklog`,
// `push__branch_filtered`. UPDATE_FIXTURES only records an error or an ignored result for a case
// named so: an unexpected error must not become the expected answer by accident.
const ERROR_WORDS = ["error", "invalid", "unsupported"];
const IGNORE_WORDS = ["ignore", "ignored", "excluded", "filtered"];

const words = (name: string) => name.toLowerCase().split(/[_.\s-]+/);

export function isErrorCaseName(name: string): boolean {
  return words(name).some((w) => ERROR_WORDS.includes(w));
}

export function isIgnoreCaseName(name: string): boolean {
  return words(name).some((w) => IGNORE_WORDS.includes(w));
}

/**
 * Why UPDATE_FIXTURES must not write this result, or undefined when it may: an error for a case
 * not named as an error case, or an ignored result for one not named as an ignore case.
 */
export function refusalToRecord(name: string, actual: ExpectedCase): string | undefined {
  if (actual.error && !isErrorCaseName(name))
    return (
      `${name}: the server answered ${actual.error.status} ${actual.error.code} (${actual.error.msg ?? ""}), ` +
      `but the case is not named as an error case. Fix the plugin, or, if the error is what this case tests, ` +
      `rename it with one of the words ${ERROR_WORDS.join(", ")} (e.g. error__${name}) or write its expected file by hand`
    );
  if (actual.ignored && !isIgnoreCaseName(name))
    return (
      `${name}: the delivery was ignored (no message), but the case is not named as an ignore case. Fix the ` +
      `plugin, or, if ignoring is what this case tests, rename it with one of the words ${IGNORE_WORDS.join(", ")} ` +
      `(e.g. ignore__${name}) or write its expected file by hand`
    );
  return undefined;
}

/** The event a header-sourced case is sent as: `push__tag` → `push`, `ignore__push__tag` → `push`. */
export function headerEventOfCase(name: string): string {
  const parts = name.split("__");
  if (parts.length > 1 && (isErrorCaseName(parts[0]) || isIgnoreCaseName(parts[0]))) parts.shift();
  return parts[0];
}

/** A payload object's fields as strings (form fields, or URL query parameters for contentType "query"). */
export function stringFields(payload: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((payload ?? {}) as Record<string, unknown>))
    out[k] = typeof v === "string" ? v : JSON.stringify(v);
  return out;
}

/** Encodes the payload the way the plugin's sender would (or as the case's contentType says). */
export function encodeBody(
  integration: Integration,
  payloadText: string,
  contentType?: string,
): { contentType: string; body: Buffer } {
  const mode = integration.manifest.contentType ?? "json";
  const type =
    contentType ??
    (mode === "json" || mode === "xml" || mode === "query" || mode === "text" ? "application/json" : FORM_TYPE);
  if (!type.startsWith("application/x-www-form-urlencoded") || mode === "json")
    return { contentType: type, body: Buffer.from(payloadText) };
  if (mode === "form-json") {
    const field = integration.manifest.formField ?? "payload";
    return { contentType: type, body: Buffer.from(new URLSearchParams({ [field]: payloadText }).toString()) };
  }
  const form = new URLSearchParams(stringFields(JSON.parse(payloadText)));
  return { contentType: type, body: Buffer.from(form.toString()) };
}

/** An XML case may be deliberately invalid (it then tests the error answer). */
function parseXmlOrNull(integration: Integration, text: string): unknown {
  try {
    return parseXml(integration.manifest, text);
  } catch {
    return null;
  }
}

/** A raw case's payload for event coverage: its JSON when it is JSON, else nothing. */
function rawPayloadOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function loadFixtureCases(integration: Integration): FixtureCase[] {
  const dir = integration.fixturesDir;
  if (!fs.existsSync(dir)) return [];
  const defaultsFile = path.join(dir, "_defaults.json");
  const defaults: ExpectedCase = fs.existsSync(defaultsFile) ? (readJson(defaultsFile) as ExpectedCase) : {};
  const source = integration.manifest.eventSource;
  return fs
    .readdirSync(dir)
    .filter(isPayloadFile)
    .sort()
    .map((file) => {
      const name = file.replace(/\.(json|xml|txt)$/, "");
      const isXml = file.endsWith(".xml");
      const isRaw = file.endsWith(".txt");
      const payloadPath = path.join(dir, file);
      const expectedPath = path.join(dir, `${name}.expected.json`);
      const expected: ExpectedCase | undefined = fs.existsSync(expectedPath)
        ? (readJson(expectedPath) as ExpectedCase)
        : undefined;
      const headers: Record<string, string> = { ...defaults.headers };
      // Zulip's convention: `push__delete_branch.json` is sent with event header `push` (a leading
      // error/ignore marker such as `ignore__push__x` is skipped).
      if ("header" in source) headers[source.header] = headerEventOfCase(name);
      Object.assign(headers, expected?.headers);
      const text = fs.readFileSync(payloadPath, "utf8");
      const payload = isXml ? parseXmlOrNull(integration, text) : isRaw ? rawPayloadOrNull(text) : JSON.parse(text);
      // contentType "query" (Transifex): the payload's fields are the URL query, the body is empty.
      const queryMode = integration.manifest.contentType === "query" && !isXml && !isRaw;
      const query = { ...(queryMode ? stringFields(payload) : {}), ...defaults.query, ...expected?.query };
      const contentType = expected?.contentType ?? defaults.contentType;
      const encoded = isXml
        ? { contentType: contentType ?? "application/xml", body: Buffer.from(text) }
        : isRaw
          ? { contentType: contentType ?? "text/plain", body: fs.readFileSync(payloadPath) }
          : queryMode
            ? { contentType: contentType ?? "application/json", body: Buffer.alloc(0) }
            : encodeBody(integration, text, contentType);
      return {
        name,
        payloadPath,
        expectedPath,
        expected,
        headers,
        query,
        contentType: encoded.contentType,
        body: encoded.body,
        payload,
      };
    });
}

/** A case as the pipeline receives it: header names in lower case, the content type among them. */
export function fixtureRequest(
  c: FixtureCase,
  query: Record<string, string> = {},
): { headers: Record<string, string>; query: Record<string, string>; body: Buffer } {
  const headers: Record<string, string> = { "content-type": c.contentType };
  for (const [name, value] of Object.entries(c.headers)) headers[name.toLowerCase()] = value;
  return { headers, query: { ...query, ...c.query }, body: c.body };
}

/** The manifest event key a fixture case exercises; undefined for a case about a missing header or
 * event field. A bare-array body is read into its field first, as the pipeline does. */
export function caseEventKey(integration: Integration, c: FixtureCase): string | undefined {
  const { wrapArray } = integration.manifest;
  const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const payload = Array.isArray(c.payload) && wrapArray ? { [wrapArray]: c.payload } : c.payload;
  try {
    return findEvent(
      integration,
      resolveEvent(integration.manifest.eventSource, headers, payload, integration.manifest.displayName),
    )?.key;
  } catch {
    return undefined;
  }
}

/** Manifest event keys that no fixture case exercises (cases that test a missing header or field are skipped). */
export function unexercisedEvents(integration: Integration, cases: FixtureCase[]): string[] {
  const seen = new Set(cases.map((c) => caseEventKey(integration, c)));
  return [...integration.events.keys()].filter((key) => !seen.has(key));
}
