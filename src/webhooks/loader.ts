// Start-up loader: every folder under the integrations directory is a plugin (no central list).
// Each manifest is validated, every referenced file checked and every template compiled once;
// all problems are collected as `integrations/<name>/<file>: what is wrong` lines.
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv";
import addFormats from "ajv-formats";
import { globSync } from "glob";
import { compilePartial, compileTemplate, type TemplateFn } from "./helpers";
import { MANIFEST_SCHEMA, RESERVED_PARAMS, type Manifest } from "./manifest";
import type { Integration, LoadedEvent, TransformFn } from "./registry";

export class IntegrationLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid integrations (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
}

const manifestAjv = new Ajv2020({ allErrors: true, strict: false });
const validateManifest = manifestAjv.compile(MANIFEST_SCHEMA);

class Problems {
  readonly lines: string[] = [];
  constructor(private readonly prefix: string) {}
  add(file: string, what: string): void {
    this.lines.push(`${this.prefix}/${file}: ${what}`);
  }
  /** Runs `fn`, turning a thrown error into a problem line; returns undefined on failure. */
  attempt<T>(file: string, fn: () => T, what = ""): T | undefined {
    try {
      return fn();
    } catch (err) {
      this.add(file, `${what}${(err as Error).message.split("\n").filter(Boolean).join(" ")}`);
      return undefined;
    }
  }
}

function readJson(problems: Problems, dir: string, file: string): unknown {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) {
    problems.add(file, "file not found");
    return undefined;
  }
  return problems.attempt(file, () => JSON.parse(fs.readFileSync(full, "utf8")), "not valid JSON: ");
}

function loadOne(dir: string, label: string, repoRoot: string): { integration?: Integration; problems: string[] } {
  const problems = new Problems(label);
  const folder = path.basename(dir);
  const manifest = readJson(problems, dir, "integration.json") as Manifest | undefined;
  if (manifest === undefined) return { problems: problems.lines };
  if (!validateManifest(manifest)) {
    for (const e of validateManifest.errors ?? []) {
      if (e.keyword === "oneOf" || e.keyword === "if") continue;
      const where = e.instancePath || "/";
      const text = e.keyword === "additionalProperties" ? `unknown field '${(e.params as { additionalProperty: string }).additionalProperty}'` : e.message;
      problems.add("integration.json", `${where}: ${text}`);
    }
    return { problems: problems.lines };
  }
  if (manifest.name !== folder) problems.add("integration.json", `/name: '${manifest.name}' must equal the folder name '${folder}'`);

  const docs = manifest.docs ?? "doc.md";
  if (!fs.existsSync(path.join(dir, docs))) problems.add(docs, "file not found (every integration needs a doc page for bot owners)");

  const optionKeys = (manifest.urlOptions ?? []).map((o) => o.key);
  for (const key of optionKeys.filter((k) => RESERVED_PARAMS.includes(k))) problems.add("integration.json", `/urlOptions: '${key}' is a framework parameter`);
  const usesBranches = manifest.branchPath !== undefined || Object.values(manifest.events).some((e) => typeof e.branchPath === "string");
  if (usesBranches && !optionKeys.includes("branches")) problems.add("integration.json", "/urlOptions: branchPath is set, so document a 'branches' URL option");

  // Payload schema: the root schema always applies; an event may add "#/..." from the same file.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const schemaFile = manifest.schema ?? "schema.json";
  const rawSchema = readJson(problems, dir, schemaFile) as Record<string, unknown> | undefined;
  const schemaId = `switchboard:${manifest.name}/${schemaFile}`;
  const validate = rawSchema ? problems.attempt(schemaFile, () => ajv.compile({ ...rawSchema, $id: schemaId }), "schema does not compile: ") : undefined;

  // Templates and partials.
  const templatesDir = path.join(dir, "templates");
  const templateFiles = fs.existsSync(templatesDir) ? globSync("*.hbs", { cwd: templatesDir }).sort() : [];
  const partials: Integration["partials"] = {};
  const sources: Record<string, string> = {};
  // One trailing newline is the file's, not the template's (keeps partials inline-friendly).
  for (const file of templateFiles) sources[file] = fs.readFileSync(path.join(templatesDir, file), "utf8").replace(/\r?\n$/, "");
  for (const file of templateFiles.filter((f) => f.startsWith("_"))) {
    const compiled = problems.attempt(`templates/${file}`, () => compilePartial(sources[file]));
    if (compiled) partials[file.slice(1, -4)] = compiled;
  }
  const inline = (where: string, source: string | undefined): TemplateFn | undefined =>
    source === undefined ? undefined : problems.attempt("integration.json", () => compileTemplate(source), `${where}: `);

  const referenced = new Set<string>();
  const events = new Map<string, LoadedEvent>();
  for (const [key, spec] of Object.entries(manifest.events)) {
    const event: LoadedEvent = { key, spec };
    if (!spec.ignore) {
      const file = `${spec.template ?? key}.hbs`;
      referenced.add(file);
      if (sources[file] === undefined) problems.add("integration.json", `/events/${key}: template templates/${file} not found`);
      else event.template = problems.attempt(`templates/${file}`, () => compileTemplate(sources[file]));
    }
    event.topic = inline(`/events/${key}/topic`, spec.topic);
    event.ignoreWhen = inline(`/events/${key}/ignoreWhen`, spec.ignoreWhen);
    if (spec.schema && rawSchema) {
      event.validate = problems.attempt(schemaFile, () => ajv.compile({ $ref: `${schemaId}${spec.schema}` }), `/events/${key}/schema ${spec.schema}: `);
    }
    events.set(key, event);
  }
  for (const file of templateFiles) {
    if (!file.startsWith("_") && !referenced.has(file)) problems.add(`templates/${file}`, "not used by any event in integration.json (remove it or add the event)");
  }
  // Partials named in templates must exist (a missing one would otherwise fail at render time).
  for (const [file, source] of Object.entries(sources)) {
    for (const m of source.matchAll(/\{\{~?#?>\s*([A-Za-z0-9_-]+)/g)) {
      if (!partials[m[1]]) problems.add(`templates/${file}`, `uses partial '${m[1]}' but templates/_${m[1]}.hbs does not exist`);
    }
  }
  const defaultTopic = inline("/defaultTopic", manifest.defaultTopic);

  let transform: TransformFn | undefined;
  if (manifest.transform) {
    const file = path.join(dir, manifest.transform);
    if (!fs.existsSync(file)) problems.add(manifest.transform, "file not found");
    else {
      const mod = problems.attempt(manifest.transform, () => require(file) as { default?: unknown; transform?: unknown }, "cannot be loaded: ");
      const fn = mod?.default ?? mod?.transform;
      if (mod && typeof fn !== "function") problems.add(manifest.transform, "must export a function (default export or `transform`)");
      else transform = fn as TransformFn | undefined;
    }
  }

  if (problems.lines.length > 0 || !validate || !defaultTopic) return { problems: problems.lines };
  return {
    problems: [],
    integration: {
      name: manifest.name,
      dir,
      manifest,
      events,
      defaultTopic,
      partials,
      validate,
      transform,
      docPath: path.relative(repoRoot, path.join(dir, docs)).split(path.sep).join("/"),
    },
  };
}

/** Loads every plugin folder; throws IntegrationLoadError listing every problem found. */
export function loadIntegrations(integrationsDir: string, repoRoot = path.dirname(integrationsDir)): Integration[] {
  if (!fs.existsSync(integrationsDir)) throw new IntegrationLoadError([`${integrationsDir}: integrations directory not found`]);
  const folders = globSync("*/", { cwd: integrationsDir })
    .map((f) => f.replace(/[\\/]$/, ""))
    .filter((f) => !f.startsWith(".") && !f.startsWith("_") && fs.statSync(path.join(integrationsDir, f)).isDirectory())
    .sort();
  const base = path.relative(repoRoot, integrationsDir).split(path.sep).join("/") || ".";
  const loaded: Integration[] = [];
  const problems: string[] = [];
  for (const folder of folders) {
    const result = loadOne(path.join(integrationsDir, folder), `${base}/${folder}`, repoRoot);
    problems.push(...result.problems);
    if (result.integration) loaded.push(result.integration);
  }
  if (problems.length > 0) throw new IntegrationLoadError(problems);
  return loaded;
}

/** Loads a single plugin folder (authoring tools); throws IntegrationLoadError on any problem. */
export function loadIntegrationFolder(dir: string, repoRoot = path.dirname(path.dirname(dir))): Integration {
  const base = path.relative(repoRoot, dir).split(path.sep).join("/");
  const result = loadOne(dir, base, repoRoot);
  if (!result.integration) throw new IntegrationLoadError(result.problems);
  return result.integration;
}
