// Each plugin's payload type, generated from its schema.json into schema.d.ts, so a transform
// typed `defineTransform<Payload, Out>` reads the fields the schema declares (and only those
// types). `npm run plugin-types` writes them; `--check` (test/unit/pluginTypes.test.ts) fails when one is stale.
import fs from "node:fs";
import path from "node:path";
import { compile, type JSONSchema } from "json-schema-to-typescript";
import prettier from "prettier";

export const PLUGIN_TYPES_FILE = "schema.d.ts";

const BANNER =
  "// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.\n" +
  "// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.";

/** The schema file a plugin folder's manifest names (schema.json unless it says otherwise). */
function schemaFileOf(dir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "integration.json"), "utf8")) as { schema?: string };
  return manifest.schema ?? "schema.json";
}

/** The schema.d.ts text for one plugin folder. */
export async function pluginTypesSource(dir: string): Promise<string> {
  const schema = JSON.parse(fs.readFileSync(path.join(dir, schemaFileOf(dir)), "utf8")) as JSONSchema;
  // The root type is always `Payload`, whatever the schema's title says.
  const { title: _title, $schema: _draft, ...root } = schema as JSONSchema & { $schema?: string };
  const text = await compile(root, "Payload", {
    bannerComment: BANNER,
    additionalProperties: true,
    unreachableDefinitions: true,
    format: false,
    cwd: dir,
  });
  // Formatted as the repository formats TypeScript, so `prettier --check` passes on it.
  const file = path.join(dir, PLUGIN_TYPES_FILE);
  return prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
}

/** Plugin folders under integrationsDir (not _shared or any other "_" folder). */
export function pluginFolders(integrationsDir: string): string[] {
  return fs
    .readdirSync(integrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("_"))
    .filter((d) => fs.existsSync(path.join(integrationsDir, d.name, "integration.json")))
    .map((d) => path.join(integrationsDir, d.name))
    .sort();
}

/** Writes every stale schema.d.ts; with --check writes nothing and exits 1 naming the stale ones.
 * `--dir DIR` reads another plugins folder than the repository's integrations/ (the tool's own test). */
async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const dirFlag = process.argv.indexOf("--dir");
  const integrationsDir =
    dirFlag >= 0 ? path.resolve(process.argv[dirFlag + 1]) : path.join(__dirname, "..", "..", "integrations");
  const stale: string[] = [];
  for (const dir of pluginFolders(integrationsDir)) {
    const file = path.join(dir, PLUGIN_TYPES_FILE);
    const text = await pluginTypesSource(dir);
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) continue;
    stale.push(path.basename(dir));
    if (!check) fs.writeFileSync(file, text);
  }
  if (check && stale.length > 0) {
    process.stderr.write(`${PLUGIN_TYPES_FILE} out of date for: ${stale.join(", ")} (run npm run plugin-types)\n`);
    process.exit(1);
  }
  process.stdout.write(`${PLUGIN_TYPES_FILE}: ${check ? "all up to date" : `${stale.length} written`}\n`);
}

void main();
