// npm run new-integration -- <name> [--from payload.json] [--event-header X-Foo-Event] [--event push]
//                                   [--display-name "Foo"] [--category misc]
// Scaffolds integrations/<name>/ (manifest, inferred schema, starter template, doc) and
// fixtures/<name>/ with a first case and its expected file, so the generated suite passes at once.
import fs from "node:fs";
import path from "node:path";
import { CATEGORIES, type Manifest } from "../webhooks/manifest";
import { loadIntegrationFolder } from "../webhooks/loader";
import { runPipeline } from "../webhooks/pipeline";
import { encodeBody } from "../webhooks/fixtures";
import { repoRoot } from "../webhooks/startup";
import { fail, parseArgs } from "./args";
import { inferSchema } from "./inferSchema";

const { positional, options } = parseArgs(process.argv.slice(2));
const name = positional[0];
if (!name || !/^[a-z0-9_]+$/.test(name)) fail("usage: npm run new-integration -- <name> [--from payload.json] [--event-header X-Foo-Event] [--event NAME]\n(name: lowercase letters, digits, _)");
const str = (key: string): string | undefined => (typeof options[key] === "string" ? (options[key] as string) : undefined);

const root = repoRoot();
const dir = path.join(root, "integrations", name);
const fixturesDir = path.join(root, "fixtures", name);
if (fs.existsSync(dir)) fail(`integrations/${name} already exists`);

const sample: Record<string, unknown> = str("from")
  ? JSON.parse(fs.readFileSync(path.resolve(str("from")!), "utf8"))
  : { title: "Something happened", url: "https://example.com/things/1", user: { name: "Sam Sample" } };
if (sample === null || typeof sample !== "object" || Array.isArray(sample)) fail("the sample payload must be a JSON object");
const header = str("event-header");
const event = str("event") ?? (header ? "ping" : "message");
const category = str("category") ?? "misc";
if (!(CATEGORIES as readonly string[]).includes(category)) fail(`--category must be one of: ${CATEGORIES.join(", ")}`);
const displayName = str("display-name") ?? name.replace(/(^|_)([a-z])/g, (_m, sep: string, c: string) => (sep ? " " : "") + c.toUpperCase());

// Starter template: the first few top-level strings, a link if there is a URL-looking field.
const strings = Object.entries(sample).filter(([, v]) => typeof v === "string") as [string, string][];
const urlField = strings.find(([k, v]) => /url$/i.test(k) && /^https?:\/\//.test(v))?.[0];
const textFields = strings.filter(([k]) => k !== urlField).slice(0, 3).map(([k]) => k);
const lines = textFields.length > 0 ? [`**{{escape ${textFields[0]}}}**`, ...textFields.slice(1).map((k) => `${k}: {{escape ${k}}}`)] : ["{{@integration}} sent a {{code @event}} event."];
if (urlField) lines.push(`{{link ${urlField} "Open"}}`);

const schema = { $schema: "http://json-schema.org/draft-07/schema#", title: `${displayName} payload`, ...inferSchema(sample), required: [...textFields, ...(urlField ? [urlField] : [])] };
const manifest: Manifest = {
  name,
  displayName,
  description: `Notifications from ${displayName}.`,
  categories: [category],
  eventSource: header ? { header } : { fixed: event },
  defaultTopic: displayName,
  events: { [event]: {} },
};
const doc = [
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
  `- \`${event}\``,
  "",
].join("\n");

fs.mkdirSync(path.join(dir, "templates"), { recursive: true });
fs.writeFileSync(path.join(dir, "integration.json"), JSON.stringify(manifest, null, 2) + "\n");
fs.writeFileSync(path.join(dir, "schema.json"), JSON.stringify(schema, null, 2) + "\n");
fs.writeFileSync(path.join(dir, "templates", `${event}.hbs`), lines.join("\n") + "\n");
fs.writeFileSync(path.join(dir, "doc.md"), doc);

// First fixture and its expected result, rendered by the same pipeline the server runs.
const integration = loadIntegrationFolder(dir, root);
const payloadText = JSON.stringify(sample, null, 2) + "\n";
const encoded = encodeBody(integration, payloadText);
const outcome = runPipeline(integration, { headers: { "content-type": encoded.contentType, ...(header ? { [header.toLowerCase()]: event } : {}) }, query: {}, body: encoded.body });
if (outcome.kind !== "messages") fail(`the starter template produced no message (${outcome.kind}); edit integrations/${name}/templates/${event}.hbs`);
fs.mkdirSync(fixturesDir, { recursive: true });
fs.writeFileSync(path.join(fixturesDir, `${event}.json`), payloadText);
fs.writeFileSync(path.join(fixturesDir, `${event}.expected.json`), JSON.stringify(outcome.messages[0], null, 2) + "\n");

process.stdout.write(
  [
    `Created integrations/${name}/ and fixtures/${name}/${event}.json.`,
    "Next:",
    `  1. edit integrations/${name}/templates/${event}.hbs and schema.json (require what the template needs)`,
    `  2. add fixtures (header-based events: <event>__<variant>.json), then UPDATE_FIXTURES=1 npx jest test/integrations -t ${name}`,
    `  3. npm run check-integrations; write integrations/${name}/doc.md for bot owners`,
    "",
  ].join("\n"),
);
