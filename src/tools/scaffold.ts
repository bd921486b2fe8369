// The scaffolder behind `npm run new-integration`: from one or more sample payloads it writes
// integrations/<name>/ (manifest, one schema fitting every sample, a starter template per event,
// doc.md, fixtures/ with each sample and the expected file the server stores for it) and
// regenerates docs/integrations.md, so the generated fixture suite passes as soon as it is written.
import fs from "node:fs";
import path from "node:path";
import { eventValueString } from "../webhooks/events";
import { encodeBody } from "../webhooks/fixtures";
import { loadIntegrationFolder, loadIntegrations } from "../webhooks/loader";
import { CATEGORIES, type EventSpec, type Manifest } from "../webhooks/manifest";
import { limitMarkdown, limitTopic } from "../webhooks/safeMarkdown";
import { readPath } from "../webhooks/paths";
import { runPipeline } from "../webhooks/pipeline";
import { inferSchema } from "./inferSchema";
import { INTEGRATIONS_DOC, integrationsTableMarkdown } from "./integrationsTable";

export type EventChoice = { header: string; event?: string } | { field: string } | { fixed: string };

export interface Sample {
  /** The sample's file name (a header-sourced event defaults to its first `__`/`.` part). */
  file: string;
  payload: Record<string, unknown>;
}

export interface ScaffoldOptions {
  name: string;
  displayName?: string;
  category?: string;
  event: EventChoice;
  samples: Sample[];
}

export class ScaffoldError extends Error {}

const DEFAULT_SAMPLE: Sample = {
  file: "sample.json",
  payload: { title: "Something happened", url: "https://example.com/things/1", user: { name: "Sam Sample" } },
};

/** The event a sample is: the header's (given, or from the file name), the field's value, or the fixed name. */
function eventOf(choice: EventChoice, sample: Sample): string {
  if ("fixed" in choice) return choice.fixed;
  if ("header" in choice) {
    const event = choice.event ?? path.basename(sample.file).split(/__|\./)[0];
    if (!event) throw new ScaffoldError(`${sample.file}: name the event with --event (or name the file <event>.json)`);
    return event;
  }
  const value = eventValueString(readPath(sample.payload, choice.field));
  if (value === undefined) throw new ScaffoldError(`${sample.file}: the event field '${choice.field}' is missing`);
  return value;
}

/** A template file name for an event key (`jira:issue_created` → `jira_issue_created`). */
const templateName = (event: string) => event.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^[^A-Za-z0-9]/, "e");

const isHttp = (v: unknown) => typeof v === "string" && /^https?:\/\/\S+$/.test(v);
const PREFERRED = /^(title|name|summary|subject|message|text|description|status|state)$/i;

/** Top-level fields every sample of the event has: a few texts to show and a URL to link. */
function starterTemplate(samples: Sample[], skip: string[]): string {
  const keys = Object.keys(samples[0].payload).filter(
    (k) => !skip.includes(k) && samples.every((s) => s.payload[k] !== undefined && s.payload[k] !== null),
  );
  const url = keys.find((k) => /url$/i.test(k) && samples.every((s) => isHttp(s.payload[k])));
  const texts = keys
    .filter((k) => k !== url && samples.every((s) => typeof s.payload[k] === "string" && s.payload[k] !== ""))
    .sort((a, b) => Number(PREFERRED.test(b)) - Number(PREFERRED.test(a)))
    .slice(0, 3);
  const lines =
    texts.length > 0
      ? [`**{{${texts[0]}}}**`, ...texts.slice(1).map((k) => `${k}: {{${k}}}`)]
      : ["{{@integration}} sent a {{code @event}} event."];
  if (url) lines.push(`{{link ${url} "Open"}}`);
  return lines.join("\n") + "\n";
}

function docPage(displayName: string, name: string, events: string[]): string {
  return [
    `# ${displayName}`,
    "",
    `Posts ${displayName} notifications to a channel.`,
    "",
    "## Setting it up",
    "",
    "1. Create an **incoming webhook** bot and copy its API key.",
    `2. In ${displayName}, add a webhook pointing at:`,
    "",
    "   ```",
    `   {{ api_url }}/api/v1/external/${name}?api_key=BOT_API_KEY&stream=CHANNEL`,
    "   ```",
    "",
    "## Events",
    "",
    ...events.map((e) => `- \`${e}\``),
    "",
  ].join("\n");
}

/** Writes the plugin, its fixtures and expected files under `root`; returns the files written. */
export function scaffoldIntegration(root: string, options: ScaffoldOptions): string[] {
  const { name } = options;
  if (!/^[a-z0-9_]+$/.test(name)) throw new ScaffoldError("the name must be lowercase letters, digits and _");
  const category = options.category ?? "misc";
  if (!(CATEGORIES as readonly string[]).includes(category))
    throw new ScaffoldError(`--category must be one of: ${CATEGORIES.join(", ")}`);
  const dir = path.join(root, "integrations", name);
  if (fs.existsSync(dir)) throw new ScaffoldError(`integrations/${name} already exists`);
  const samples = options.samples.length > 0 ? options.samples : [DEFAULT_SAMPLE];
  const displayName =
    options.displayName ??
    name.replace(/(^|_)([a-z])/g, (_m, sep: string, c: string) => (sep ? " " : "") + c.toUpperCase());

  // Samples grouped by event, in the order they were given.
  const byEvent = new Map<string, Sample[]>();
  for (const sample of samples) {
    const event = eventOf(options.event, sample);
    byEvent.set(event, [...(byEvent.get(event) ?? []), sample]);
  }
  const skip = "field" in options.event ? [options.event.field.split(".")[0]] : [];
  const events: Record<string, EventSpec> = {};
  const templates: Record<string, string> = {};
  for (const [event, group] of byEvent) {
    const file = templateName(event);
    events[event] = file === event ? {} : { template: file };
    templates[`${file}.hbs`] = starterTemplate(group, skip);
  }
  const choice = options.event;
  const manifest: Manifest = {
    name,
    displayName,
    description: `Notifications from ${displayName}.`,
    categories: [category],
    eventSource: "header" in choice ? { header: choice.header } : "field" in choice ? { field: choice.field } : choice,
    defaultTopic: displayName,
    events,
  };
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: `${displayName} payload`,
    ...inferSchema(...samples.map((s) => s.payload)),
  };

  const written: string[] = [];
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    written.push(path.relative(root, file).split(path.sep).join("/"));
  };
  write(path.join(dir, "integration.json"), JSON.stringify(manifest, null, 2) + "\n");
  write(path.join(dir, "schema.json"), JSON.stringify(schema, null, 2) + "\n");
  for (const [file, text] of Object.entries(templates)) write(path.join(dir, "templates", file), text);
  write(path.join(dir, "doc.md"), docPage(displayName, name, [...byEvent.keys()]));

  // Each sample becomes a case; its expected file is what the real pipeline renders (with the
  // limits the server applies when storing).
  const integration = loadIntegrationFolder(dir, root);
  const { fixturesDir } = integration;
  for (const [event, group] of byEvent) {
    group.forEach((sample, i) => {
      const caseName = `${templateName(event)}${i === 0 ? "" : `__${i + 1}`}`;
      const payloadText = JSON.stringify(sample.payload, null, 2) + "\n";
      const encoded = encodeBody(integration, payloadText);
      const headers: Record<string, string> = { "content-type": encoded.contentType };
      if ("header" in choice) headers[choice.header.toLowerCase()] = event;
      const outcome = runPipeline(integration, { headers, query: {}, body: encoded.body });
      if (outcome.kind !== "messages")
        throw new ScaffoldError(`${sample.file}: the starter template produced no message (${outcome.kind})`);
      const messages = outcome.messages.map((m) => ({ topic: limitTopic(m.topic), content: limitMarkdown(m.content) }));
      write(path.join(fixturesDir, `${caseName}.json`), payloadText);
      write(
        path.join(fixturesDir, `${caseName}.expected.json`),
        JSON.stringify(messages.length === 1 ? messages[0] : { messages }, null, 2) + "\n",
      );
    });
  }

  // The catalogue table lists every integration: regenerate it with the new one.
  const all = loadIntegrations(path.join(root, "integrations"), root);
  write(path.join(root, INTEGRATIONS_DOC), integrationsTableMarkdown(all));
  return written;
}
