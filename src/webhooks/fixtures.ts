// Fixture cases (fixtures/<integration>/<case>.json + <case>.expected.json + _defaults.json)
// turned into ready-to-send requests. Shared by the generated test suite, send-fixture and
// check-integrations so all three agree on headers, query and body encoding.
import fs from "node:fs";
import path from "node:path";
import { findEvent, resolveEvent } from "./events";
import type { Integration } from "./registry";

export interface ExpectedMessage {
  topic: string;
  content: string;
}

/** What a case expects; request fields (headers/query/contentType) may also be set here. */
export interface ExpectedCase {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  contentType?: string;
  topic?: string;
  content?: string;
  messages?: ExpectedMessage[];
  error?: { status: number; code: string; msg?: string };
  ignored?: boolean;
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

const readJson = (file: string): any => JSON.parse(fs.readFileSync(file, "utf8"));

export function isPayloadFile(file: string): boolean {
  return file.endsWith(".json") && !file.endsWith(".expected.json") && !path.basename(file).startsWith("_");
}

/** Encodes the payload the way the plugin's sender would (or as the case's contentType says). */
export function encodeBody(integration: Integration, payloadText: string, contentType?: string): { contentType: string; body: Buffer } {
  const mode = integration.manifest.contentType ?? "json";
  const type = contentType ?? (mode === "json" ? "application/json" : "application/x-www-form-urlencoded");
  if (!type.startsWith("application/x-www-form-urlencoded") || mode === "json") return { contentType: type, body: Buffer.from(payloadText) };
  if (mode === "form-json") return { contentType: type, body: Buffer.from(new URLSearchParams({ payload: payloadText }).toString()) };
  const fields = JSON.parse(payloadText) as Record<string, unknown>;
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) form.append(k, typeof v === "string" ? v : JSON.stringify(v));
  return { contentType: type, body: Buffer.from(form.toString()) };
}

export function loadFixtureCases(fixturesDir: string, integration: Integration): FixtureCase[] {
  const dir = path.join(fixturesDir, integration.name);
  if (!fs.existsSync(dir)) return [];
  const defaultsFile = path.join(dir, "_defaults.json");
  const defaults: ExpectedCase = fs.existsSync(defaultsFile) ? readJson(defaultsFile) : {};
  const source = integration.manifest.eventSource;
  return fs
    .readdirSync(dir)
    .filter(isPayloadFile)
    .sort()
    .map((file) => {
      const name = file.slice(0, -".json".length);
      const payloadPath = path.join(dir, file);
      const expectedPath = path.join(dir, `${name}.expected.json`);
      const expected: ExpectedCase | undefined = fs.existsSync(expectedPath) ? readJson(expectedPath) : undefined;
      const headers: Record<string, string> = { ...defaults.headers };
      // Zulip's convention: `push__delete_branch.json` is sent with event header `push`.
      if ("header" in source) headers[source.header] = name.split("__")[0];
      Object.assign(headers, expected?.headers);
      const query = { ...defaults.query, ...expected?.query };
      const text = fs.readFileSync(payloadPath, "utf8");
      const encoded = encodeBody(integration, text, expected?.contentType ?? defaults.contentType);
      return { name, payloadPath, expectedPath, expected, headers, query, contentType: encoded.contentType, body: encoded.body, payload: JSON.parse(text) };
    });
}

/** Fixture folders that have no plugin of the same name. */
export function orphanFixtureFolders(fixturesDir: string, names: string[]): string[] {
  if (!fs.existsSync(fixturesDir)) return [];
  return fs
    .readdirSync(fixturesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !names.includes(d.name))
    .map((d) => d.name);
}

/** Manifest event keys that no fixture case exercises (cases that test a missing header or field are skipped). */
export function unexercisedEvents(integration: Integration, cases: FixtureCase[]): string[] {
  const seen = new Set<string>();
  for (const c of cases) {
    const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k.toLowerCase(), v]));
    try {
      const event = findEvent(integration, resolveEvent(integration.manifest.eventSource, headers, c.payload, integration.manifest.displayName));
      if (event) seen.add(event.key);
    } catch {
      /* a case about a missing header or event field */
    }
  }
  return [...integration.events.keys()].filter((key) => !seen.has(key));
}
