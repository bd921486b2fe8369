// No plugin answers 500 to odd payloads, for any of its events: the pure pipeline (as a delivery
// runs it, with the stored forms of its messages, src/services/webhooks/dryRun.ts) given bodies of
// the wrong shape, each sent as JSON and as a form, for every event the plugin declares. An event
// is reached the way its manifest reads it: the event header, or the event (and action) fields
// written into the body. Each result must be a message, an ignore or a 4xx/2xx error answer; a
// throw that is not an ApiError, or a 5xx, is what the server would answer with a 500.
// test/api/robustness.test.ts posts the same bodies through the real app, one set per plugin.
import path from "node:path";
import { dryRunDelivery } from "../../src/services/webhooks/dryRun";
import { loadIntegrations } from "../../src/webhooks/loader";
import type { EventSource } from "../../src/webhooks/manifest";
import { pathKeys } from "../../src/webhooks/paths";
import type { Integration } from "../../src/webhooks/registry";
import { ODD_BODIES, ODD_OBJECT_BODIES } from "../support/oddBodies";

const integrations = loadIntegrations(path.resolve(__dirname, "../../integrations"), undefined, { checks: false });
const CONTENT_TYPES = ["application/json", "application/x-www-form-urlencoded"];

/** The raw value that names `event` (through the source's `map` when it has one). */
function rawEventValue(source: EventSource, event: string): string {
  const map = "map" in source ? source.map : undefined;
  const raw = map && Object.entries(map).find(([, mapped]) => mapped === event)?.[0];
  return raw ?? event;
}

/** Writes `value` into `payload` at a dotted path or JSON pointer, making the objects on the way. */
function setPath(payload: Record<string, unknown>, at: string, value: string): void {
  const parts = pathKeys(at);
  let node = payload;
  for (const part of parts.slice(0, -1)) {
    if (node[part] === null || typeof node[part] !== "object") node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

interface OddDelivery {
  label: string;
  headers: Record<string, string>;
  body: string;
}

/** Every odd body, for every event key (and one no plugin declares), as the manifest reads events. */
function oddDeliveries(integration: Integration): OddDelivery[] {
  const source = integration.manifest.eventSource;
  const deliveries: OddDelivery[] = [];
  for (const key of [...integration.events.keys(), "no-such-event"]) {
    const dot = "actionField" in source && source.actionField ? key.indexOf(".") : -1;
    const event = dot > 0 ? key.slice(0, dot) : key;
    const action = dot > 0 ? key.slice(dot + 1) : undefined;
    const headers: Record<string, string> =
      "header" in source ? { [source.header.toLowerCase()]: rawEventValue(source, event) } : {};
    // Bodies that cannot carry a field are the same for every event of a plugin without a header.
    const bodies = "header" in source || deliveries.length === 0 ? ODD_BODIES : ODD_OBJECT_BODIES;
    for (const body of bodies) {
      const label = `${key} ${body.slice(0, 40)}`;
      if (!ODD_OBJECT_BODIES.includes(body)) {
        deliveries.push({ label, headers, body });
        continue;
      }
      const payload = JSON.parse(body) as Record<string, unknown>;
      if ("field" in source) setPath(payload, source.field, rawEventValue(source, event));
      if (action && source.actionField) setPath(payload, source.actionField, action);
      deliveries.push({ label, headers, body: JSON.stringify(payload) });
    }
  }
  return deliveries;
}

describe.each(integrations.map((i) => [i.name, i] as const))("%s", (_name, integration) => {
  it("answers odd payloads for each of its events with a message, an ignore or a 4xx", () => {
    const failures: string[] = [];
    const deliveries = oddDeliveries(integration);
    for (const contentType of CONTENT_TYPES) {
      for (const { label, headers, body } of deliveries) {
        try {
          const result = dryRunDelivery(integration, {
            headers: { ...headers, "content-type": contentType },
            query: { stream: "general" },
            body: Buffer.from(body),
          });
          if (result.error && result.error.status >= 500)
            failures.push(`${contentType} ${label} → ${result.error.status}`);
        } catch (error) {
          failures.push(`${contentType} ${label} → throws ${String(error).slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
