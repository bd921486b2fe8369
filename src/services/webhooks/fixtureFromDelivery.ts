// `npm run cli -- delivery-to-fixture --id N [--name variant]`: a logged delivery becomes a fixture
// case (integrations/<name>/fixtures/<event>__<variant>.json + .expected.json), so a surprising real
// payload is a regression test in one command. The expected file is what the current plugin
// renders; review it before committing.
import fs from "node:fs";
import path from "node:path";
import type { Db } from "../../db/knex";
import { findWebhookDeliveryById } from "../../db/webhookOps";
import { fixtureRequest, loadFixtureCases, type ExpectedCase } from "../../webhooks/fixtures";
import type { Integration, IntegrationRegistry } from "../../webhooks/registry";
import { trimEndChars, trimStartChars } from "../../text";
import { dryRunDelivery } from "./dryRun";

/** URL parameters a fixture must not carry (the test harness supplies its own channel and key). */
const NOT_IN_FIXTURES = new Set(["api_key", "stream"]);

const safeName = (text: string) =>
  trimEndChars(trimStartChars(text.replace(/[^A-Za-z0-9_.-]+/g, "_"), "_."), "_") || "event";

/** The payload file's text: what the sender sent, decoded the way the fixture loader encodes it again. */
function payloadText(integration: Integration, body: string, query: Record<string, string>): string {
  const mode = integration.manifest.contentType ?? "json";
  if (mode === "xml") return body;
  if (mode === "query") return JSON.stringify(query, null, 2) + "\n";
  let payload: unknown;
  if (mode === "json") payload = JSON.parse(body);
  else {
    const fields = Object.fromEntries(new URLSearchParams(body));
    payload = mode === "form-json" ? JSON.parse(fields[integration.manifest.formField ?? "payload"] ?? "null") : fields;
  }
  return JSON.stringify(payload, null, 2) + "\n";
}

/** Stored headers the plugin reads (named in its manifest: event, action, delivery id headers). */
function headersTheManifestReads(integration: Integration, headers: Record<string, string>): Record<string, string> {
  const manifest = JSON.stringify(integration.manifest).toLowerCase();
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name !== "content-type" && manifest.includes(`"${name}"`)),
  );
}

export async function deliveryToFixture(
  db: Db,
  integrations: IntegrationRegistry,
  options: {
    id: number;
    variant?: string;
    force?: boolean;
    /** Written here instead of the plugin's own fixtures folder. */
    fixturesDir?: string;
  },
): Promise<{ payloadPath: string; expectedPath: string; expected: ExpectedCase }> {
  const row = await findWebhookDeliveryById(db, options.id);
  if (!row) throw new Error(`No delivery ${options.id} in the log`);
  const loaded = integrations.get(row.integration);
  if (!loaded) throw new Error(`The integration '${row.integration}' no longer exists`);
  const integration = options.fixturesDir ? { ...loaded, fixturesDir: options.fixturesDir } : loaded;
  if (row.body_truncated) throw new Error(`Delivery ${row.id}'s body was truncated in the log`);
  if (!row.body_utf8) throw new Error(`Delivery ${row.id}'s body is not UTF-8 text`);
  const body = Buffer.from(row.body).toString("utf8");
  const storedHeaders = JSON.parse(row.headers) as Record<string, string>;
  const query = Object.fromEntries(
    Object.entries(JSON.parse(row.query) as Record<string, string>).filter(([k]) => !NOT_IN_FIXTURES.has(k)),
  );

  // Header event sources: the file name's prefix is the header's value (the loader sends it).
  const source = integration.manifest.eventSource;
  const headerEvent = "header" in source ? storedHeaders[source.header.toLowerCase()] : undefined;
  const event = safeName(headerEvent ?? row.event_key ?? row.event ?? "delivery");
  const name = `${event}__${safeName(options.variant ?? `delivery${row.id}`)}`;
  const xml = integration.manifest.contentType === "xml";
  const dir = integration.fixturesDir;
  const payloadPath = path.join(dir, `${name}.${xml ? "xml" : "json"}`);
  const expectedPath = path.join(dir, `${name}.expected.json`);
  if (!options.force && (fs.existsSync(payloadPath) || fs.existsSync(expectedPath)))
    throw new Error(`${path.relative(process.cwd(), payloadPath)} already exists (use another --name, or --force)`);

  let text: string;
  try {
    text = payloadText(integration, body, query);
  } catch {
    throw new Error(`Delivery ${row.id}'s body is not a payload ${integration.manifest.displayName} sends`);
  }
  const request: ExpectedCase = {};
  const headers = headersTheManifestReads(integration, storedHeaders);
  if (headerEvent !== undefined) delete headers[(source as { header: string }).header.toLowerCase()];
  if (Object.keys(headers).length > 0) request.headers = headers;
  if (integration.manifest.contentType !== "query" && Object.keys(query).length > 0) request.query = query;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(payloadPath, text);
  fs.writeFileSync(expectedPath, JSON.stringify(request, null, 2) + "\n");

  // Render the new case exactly as the generated test suite will send it.
  const fixture = loadFixtureCases(integration).find((c) => c.name === name)!;
  const expected: ExpectedCase = { ...request, ...dryRunDelivery(integration, fixtureRequest(fixture)) };
  fs.writeFileSync(expectedPath, JSON.stringify(expected, null, 2) + "\n");
  return { payloadPath, expectedPath, expected };
}
