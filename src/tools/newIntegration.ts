// npm run new-integration -- <name> [--from a.json --from b.json …]
//     (--event-header X-Foo-Event [--event NAME] | --event-field path.to.field | --event NAME)
//     [--display-name "Foo"] [--category misc]
// Scaffolds integrations/<name>/ (with its fixtures/) from sample payloads (src/tools/scaffold.ts):
// one schema inferred from every sample, a starter template per event, one case per sample with
// the expected file the server produces, and the regenerated docs/integrations.md.
import fs from "node:fs";
import path from "node:path";
import { IntegrationLoadError } from "../webhooks/loader";
import { repoRoot } from "../webhooks/startup";
import { fail, parseArgs } from "./args";
import { scaffoldIntegration, ScaffoldError, type EventChoice, type Sample } from "./scaffold";

const USAGE =
  "usage: npm run new-integration -- <name> [--from sample.json …] " +
  "(--event-header X-Foo-Event [--event NAME] | --event-field path | --event NAME) " +
  "[--display-name NAME] [--category CATEGORY] [--root DIR]";

const { positional, options, all } = parseArgs(process.argv.slice(2));
const str = (key: string): string | undefined => (typeof options[key] === "string" ? options[key] : undefined);
const name = positional[0];
if (!name) fail(USAGE);

// --from may repeat, or list files separated by commas.
const files = (all.from ?? []).flatMap((f) => f.split(",")).filter((f) => f !== "");
const samples: Sample[] = files.map((file) => {
  let payload: unknown;
  try {
    payload = JSON.parse(fs.readFileSync(path.resolve(file), "utf8"));
  } catch (err) {
    fail(`${file}: ${(err as Error).message}`);
  }
  if (payload === null || typeof payload !== "object" || Array.isArray(payload))
    fail(`${file}: a sample payload must be a JSON object`);
  return { file, payload: payload as Record<string, unknown> };
});

const header = str("event-header");
const field = str("event-field");
if (header && field) fail("choose one of --event-header and --event-field");
const event: EventChoice = header
  ? { header, event: str("event") }
  : field
    ? { field }
    : { fixed: str("event") ?? "message" };

const root = path.resolve(str("root") ?? repoRoot());
try {
  const written = scaffoldIntegration(root, {
    name,
    displayName: str("display-name"),
    category: str("category"),
    event,
    samples,
  });
  process.stdout.write(
    [
      ...written.map((f) => `wrote ${f}`),
      "Next:",
      `  1. edit the templates in integrations/${name}/templates/ (values are escaped for you; see docs/writing-an-integration.md)`,
      `  2. npx jest test/integrations -t ${name}   (passes now; UPDATE_FIXTURES=1 after template changes, then review)`,
      `  3. npm run check-integrations; write integrations/${name}/doc.md for bot owners`,
      "",
    ].join("\n"),
  );
} catch (err) {
  if (err instanceof ScaffoldError) fail(err.message);
  if (err instanceof IntegrationLoadError) fail(err.problems.join("\n"));
  throw err;
}
