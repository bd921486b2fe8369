// Start-up loader: every folder under the integrations directory is a plugin (no central list).
// Each manifest is validated, every referenced file checked and every template compiled once;
// all problems are collected as `integrations/<name>/<file>: what is wrong` lines.
import fs from "node:fs";
import path from "node:path";
import type { ValidateFunction } from "ajv";
import { globSync } from "glob";
import { compilePartial, compileTemplate, HELPER_NAMES, type TemplateFn } from "./helpers";
import {
  INHERITED_FIELDS,
  REPLY_FIELD_PATTERN,
  RESERVED_PARAMS,
  RESERVED_REPLY_FIELDS,
  type EventSpec,
  type InheritedSpec,
  type Manifest,
} from "./manifest";
import type { Integration, LoadedEvent, TransformFn } from "./registry";
import { checkTemplatePaths, resolveRef, scopeAt, type Schema } from "./templatePaths";
import { checkTables, checkTableUses } from "./tables";
import { frameworkPartials, transformCopies } from "./frameworkParts";
import { pluginAjv } from "./schemaCompiler";
import { checkIdLookups } from "./apiLookupIds";
import { ECDSA_P256_SHA256, REQUEST_PLACEHOLDERS } from "./signature";

/** integrations/_shared/ (and any folder starting with "_") holds what a few plugins share: never a plugin. */
export const SHARED_DIR = "_shared";

export class IntegrationLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Invalid integrations (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
  }
}

// MANIFEST_SCHEMA's validator, generated as code (src/tools/manifestValidator.ts): compiling the
// schema here cost about 90 ms each time this module loaded (every start and render thread).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- generated CommonJS, no types
const validateManifest = require("./manifestValidator.generated.js") as ValidateFunction<Manifest>;

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

/** `a.b.c` → ["a.b", "a"]: the families an event key belongs to, nearest first. */
export function familiesOf(key: string): string[] {
  const parts = key.split(".");
  return parts.slice(1).map((_, i) => parts.slice(0, parts.length - 1 - i).join("."));
}

/** `a:b:c` → ["a:b:*", "a:*"]: the `families` entries an event key may inherit from, nearest first. */
export function colonFamiliesOf(key: string): string[] {
  const out: string[] = [];
  for (let i = key.lastIndexOf(":"); i > 0; i = key.lastIndexOf(":", i - 1)) out.push(`${key.slice(0, i + 1)}*`);
  return out;
}

/**
 * An event's spec with inherited fields filled in: its own, else the nearest declared family's
 * (`a` for `a.b`, then `families` entries such as `a:*` for `a:b`), else the manifest's
 * eventDefaults. `from` says where each field came from (a JSON pointer into integration.json),
 * for error messages.
 */
export function effectiveSpec(
  manifest: Manifest,
  key: string,
): { spec: EventSpec; from: Partial<Record<keyof EventSpec, string>> } {
  const chain: [string, InheritedSpec][] = [
    [`/events/${key}`, manifest.events[key] ?? {}],
    ...familiesOf(key)
      .filter((f) => manifest.events[f] !== undefined)
      .map((f): [string, InheritedSpec] => [`/events/${f}`, manifest.events[f]]),
    ...colonFamiliesOf(key)
      .filter((f) => manifest.families?.[f] !== undefined)
      .map((f): [string, InheritedSpec] => [`/families/${f}`, manifest.families![f]]),
    ["/eventDefaults", manifest.eventDefaults ?? {}],
  ];
  const spec: EventSpec = { ...(manifest.events[key]?.ignore ? { ignore: true } : {}) };
  const from: Partial<Record<keyof EventSpec, string>> = {};
  for (const field of INHERITED_FIELDS) {
    const found = chain.find(([, s]) => s[field] !== undefined);
    if (!found) continue;
    (spec as Record<string, unknown>)[field] = found[1][field];
    from[field] = `${found[0]}/${field}`;
  }
  return { spec, from };
}

/** The template an event renders: its (inherited) `template`, else `<key>.hbs`, else its family's `<family>.hbs`. */
function templateFileFor(key: string, spec: EventSpec, sources: Record<string, string>): string {
  if (spec.template !== undefined) return `${spec.template}.hbs`;
  const candidates = [key, ...familiesOf(key)].map((k) => `${k}.hbs`);
  return candidates.find((file) => sources[file] !== undefined) ?? `${key}.hbs`;
}

interface TemplateUse {
  source: string;
  /** Where a problem is reported: the template file, or integration.json plus a JSON pointer. */
  file: string;
  pointer?: string;
  nodes: Schema[];
  free: boolean;
  frameworkNames: Set<string>;
  /** Rendered over the payload alone (a `reply` field): transform outputs, `outputs` and `api` are not there. */
  payloadOnly?: boolean;
}

/**
 * Every template and topic/ignoreWhen/directWhen template, checked against the schema of the
 * events that use it (root schema, plus each event's `schema`, plus the `each` items).
 */
function checkTemplatesAgainstSchema(
  manifest: Manifest,
  events: Map<string, LoadedEvent>,
  root: Schema,
  sources: Record<string, string>,
  schemaFile: string,
): { file: string; what: string }[] {
  // `outputs` are view fields as much as a transform's are.
  // So are the API lookups' answers (`api.<name>`): their shape is the service's, not the payload's.
  const transformOutputs = [
    ...(manifest.transformOutputs ?? []),
    ...Object.keys(manifest.outputs ?? {}),
    ...(manifest.api ? ["api"] : []),
    // And what the manifest's `verification` found (the SNS confirmation's outcome).
    ...(manifest.verification ? ["verification"] : []),
  ];
  const out: { file: string; what: string }[] = [];
  const uses = new Map<string, TemplateUse>();
  type Scope = Pick<TemplateUse, "nodes" | "free" | "frameworkNames">;
  const use = (key: string, base: Omit<TemplateUse, keyof Scope>, scope: Scope) => {
    const known = uses.get(key) ?? { ...base, nodes: [], free: false, frameworkNames: new Set<string>() };
    known.nodes.push(...scope.nodes);
    known.free ||= scope.free;
    for (const n of scope.frameworkNames) known.frameworkNames.add(n);
    uses.set(key, known);
  };
  for (const [key, event] of events) {
    const { spec } = event;
    if (spec.ignore) continue;
    const { from } = effectiveSpec(manifest, key);
    const own = spec.schema ? resolveRef(root, spec.schema) : undefined;
    const scope: Scope = {
      nodes: own === undefined ? [root] : [root, own],
      free: false,
      frameworkNames: new Set(),
    };
    if (spec.each) {
      const dotted = spec.each.startsWith("/") ? spec.each.slice(1).split("/").join(".") : spec.each;
      scope.frameworkNames.add("item");
      if (transformOutputs.includes(dotted.split(".")[0])) scope.free = true;
      else {
        const items = scopeAt(root, scope.nodes, dotted);
        if (items === undefined)
          out.push({
            file: "integration.json",
            what: `/events/${key}/each: '${spec.each}' is not declared in ${schemaFile} (or list it in transformOutputs)`,
          });
        if (items === "free" || items === undefined) scope.free = true;
        else scope.nodes.push(...items);
      }
    }
    const file = templateFileFor(key, spec, sources);
    if (sources[file] !== undefined) use(`file:${file}`, { source: sources[file], file: `templates/${file}` }, scope);
    const topic = spec.topic ?? manifest.defaultTopic;
    const topicPointer = from.topic ?? "/defaultTopic";
    use(`inline:${topicPointer}`, { source: topic, file: "integration.json", pointer: topicPointer }, scope);
    for (const [name, source] of Object.entries(manifest.outputs ?? {}))
      use(`inline:/outputs/${name}`, { source, file: "integration.json", pointer: `/outputs/${name}` }, scope);
    for (const field of ["ignoreWhen", "directWhen", "channel"] as const) {
      const source = spec[field];
      if (typeof source === "string")
        use(`inline:${from[field]}`, { source, file: "integration.json", pointer: from[field] }, scope);
    }
  }
  // Answer fields are rendered for ignored events too, over the payload (not the `each` items).
  for (const [key, event] of events) {
    const own = event.spec.schema ? resolveRef(root, event.spec.schema) : undefined;
    const scope: Scope = { nodes: own === undefined ? [root] : [root, own], free: false, frameworkNames: new Set() };
    for (const { source, pointer } of Object.values(replySources(manifest, key)))
      use(`inline:${pointer}`, { source, file: "integration.json", pointer, payloadOnly: true }, scope);
  }
  for (const [field, source] of Object.entries(manifest.reply ?? {}))
    use(
      `inline:/reply/${field}`,
      { source, file: "integration.json", pointer: `/reply/${field}`, payloadOnly: true },
      { nodes: [root], free: false, frameworkNames: new Set() },
    );
  const helpers = new Set([...HELPER_NAMES, "if", "unless", "each", "with", "lookup", "log"]);
  for (const u of uses.values()) {
    if (u.free) continue;
    let found: ReturnType<typeof checkTemplatePaths>;
    try {
      found = checkTemplatePaths(u.source, {
        root,
        nodes: u.nodes,
        helpers,
        transformOutputs: u.payloadOnly ? [] : transformOutputs,
        frameworkNames: [...u.frameworkNames],
      });
    } catch {
      continue; // a template that does not parse is already reported by the compiler
    }
    for (const p of found)
      out.push({
        file: u.file,
        what:
          `${u.pointer ? `${u.pointer}: ` : ""}line ${p.line}: '${p.path}' is not declared in ${schemaFile} ` +
          "(declare it as an optional property, or list the transform's output in transformOutputs)",
      });
  }
  return out;
}

/**
 * An event's answer fields: the manifest's `reply`, with the event's own `reply` winning field by
 * field; each with the JSON pointer it was set at.
 */
export function replySources(manifest: Manifest, key: string): Record<string, { source: string; pointer: string }> {
  const out: Record<string, { source: string; pointer: string }> = {};
  for (const [field, source] of Object.entries(manifest.reply ?? {}))
    out[field] = { source, pointer: `/reply/${field}` };
  for (const [field, source] of Object.entries(manifest.events[key]?.reply ?? {}))
    out[field] = { source, pointer: `/events/${key}/reply/${field}` };
  return out;
}

/** Reply field names the answer cannot take (the envelope's own, or not a plain lower-case name). */
function checkReplyNames(manifest: Manifest): { where: string; what: string }[] {
  const blocks: [string, Record<string, string> | undefined][] = [
    ["/reply", manifest.reply],
    ...Object.entries(manifest.events).map(([k, e]): [string, Record<string, string> | undefined] => [
      `/events/${k}/reply`,
      e.reply,
    ]),
  ];
  const out: { where: string; what: string }[] = [];
  for (const [where, block] of blocks)
    for (const field of Object.keys(block ?? {})) {
      if (RESERVED_REPLY_FIELDS.includes(field))
        out.push({ where: `${where}/${field}`, what: `'${field}' is the answer envelope's own field` });
      else if (!REPLY_FIELD_PATTERN.test(field))
        out.push({ where: `${where}/${field}`, what: `an answer field name must match ${REPLY_FIELD_PATTERN.source}` });
    }
  return out;
}

/**
 * `signature`: where the digest is (a header or a payload field), which placeholders its signed
 * text may use (once each), and no two ways of signing the same thing.
 */
function checkSignatureSpec(manifest: Manifest): { where: string; what: string }[] {
  const spec = manifest.signature;
  if (!spec) return [];
  const out: { where: string; what: string }[] = [];
  const add = (where: string, what: string) => out.push({ where: `/signature${where}`, what });
  if ((spec.header === undefined) === (spec.field === undefined))
    add("", "give exactly one of header (the digest in a request header) and field (the digest in the payload)");
  const ecdsa = spec.algorithm === ECDSA_P256_SHA256;
  if (ecdsa && spec.encoding === "hex") add("/encoding", "an ECDSA signature is base64 DER: leave encoding out");
  if (ecdsa && spec.prefix !== undefined) add("/prefix", "not with an ECDSA signature");
  if (ecdsa && spec.headerParts) add("/headerParts", "headerParts are HMAC digests: not with an ECDSA signature");
  if (spec.field !== undefined) {
    if (spec.algorithm === "token" || ecdsa)
      add("/field", `a digest in the payload is an HMAC: not with "${spec.algorithm}"`);
    if (spec.signedText === undefined)
      add("/field", "needs signedText: the payload fields the digest covers (it cannot cover the body holding it)");
    if (spec.headerParts || spec.timestampHeader)
      add("/field", "headerParts and timestampHeader read headers: not with a digest in the payload");
  }
  const stamp = spec.timestampHeader;
  if (spec.signedText !== undefined) {
    if (spec.algorithm === "token") add("/signedText", 'a "token" signature has no signed text');
    if (stamp) add("/signedText", "timestampHeader has its own signedText: use that one");
    if (spec.headerParts) add("/signedText", "headerParts sign '<time><join><body>': not with signedText");
    const placeholders: string[] = spec.signedText.match(/\{[^{}]*\}/g) ?? [];
    if (placeholders.length === 0) add("/signedText", "must hold at least one placeholder");
    for (const placeholder of new Set(placeholders)) {
      const fromRequest = REQUEST_PLACEHOLDERS.includes(placeholder);
      if (spec.field !== undefined && fromRequest)
        add("/signedText", `${placeholder}: with a digest in the payload, placeholders are payload paths`);
      else if (spec.field === undefined && (!fromRequest || placeholder === "{timestamp}"))
        add("/signedText", `${placeholder} is not a placeholder here (use {body}, {url} or {formFields})`);
      else if (placeholders.filter((p) => p === placeholder).length > 1 && fromRequest)
        add("/signedText", `must hold ${placeholder} at most once`);
    }
    const form = manifest.contentType === "form" || manifest.contentType === "form-json";
    if (placeholders.includes("{formFields}") && !form)
      add("/signedText", '{formFields} needs "contentType": "form" or "form-json"');
  }
  if (!stamp) return out;
  for (const placeholder of ["{timestamp}", "{body}"])
    if (stamp.signedText.split(placeholder).length !== 2)
      add("/timestampHeader/signedText", `must hold ${placeholder} exactly once`);
  for (const placeholder of stamp.signedText.match(/\{[^{}]*\}/g) ?? [])
    if (placeholder !== "{timestamp}" && placeholder !== "{body}")
      add("/timestampHeader/signedText", `${placeholder} is not a placeholder here (use {timestamp} and {body})`);
  if (spec.algorithm === "token") add("/timestampHeader", 'a "token" signature has no signed text');
  if (spec.headerParts) add("/timestampHeader", "headerParts already signs a time: use one of the two");
  if (spec.header !== undefined && stamp.header.toLowerCase() === spec.header.toLowerCase())
    add("/timestampHeader/header", "must differ from the signature header");
  return out;
}

/** `urlOptions[].values`: a default among them, and not a JSON path (whose value is a path, not a choice). */
function checkOptionValuesSpec(manifest: Manifest): { where: string; what: string }[] {
  const out: { where: string; what: string }[] = [];
  (manifest.urlOptions ?? []).forEach((option, i) => {
    if (!option.values) return;
    if (option.jsonPath) out.push({ where: `/urlOptions/${i}`, what: "values and jsonPath exclude each other" });
    const fallback = option.default?.trim() ?? "";
    if (fallback !== "" && !option.values.includes(fallback))
      out.push({ where: `/urlOptions/${i}/default`, what: `'${fallback}' is not one of its values` });
  });
  return out;
}

/** Where a plugin folder keeps its fixture cases (the one place that names the folder). */
export function fixturesDirOf(pluginDir: string): string {
  return path.join(pluginDir, "fixtures");
}

/** Every `table` use in the templates and the inline sources (topics, reply fields…), checked against the manifest. */
function tableUseProblems(
  manifest: Manifest,
  sources: Record<string, string>,
  origin: Record<string, string>,
): { file: string; what: string }[] {
  const out: { file: string; what: string }[] = [];
  for (const [file, source] of Object.entries(sources))
    for (const p of checkTableUses(source, manifest)) out.push({ file: origin[file], what: `${p.where}: ${p.what}` });
  const inlineSources: [string, unknown][] = [
    ["/defaultTopic", manifest.defaultTopic],
    ...Object.entries(manifest.events).flatMap(([k, e]) =>
      (["topic", "ignoreWhen", "directWhen", "channel"] as const).map((f): [string, unknown] => [
        `/events/${k}/${f}`,
        e[f],
      ]),
    ),
    ...Object.entries(manifest.outputs ?? {}).map(([k, source]): [string, unknown] => [`/outputs/${k}`, source]),
    ...Object.entries(manifest.reply ?? {}).map(([k, source]): [string, unknown] => [`/reply/${k}`, source]),
    ...Object.entries(manifest.events).flatMap(([e, spec]) =>
      Object.entries(spec.reply ?? {}).map(([k, source]): [string, unknown] => [`/events/${e}/reply/${k}`, source]),
    ),
    ...Object.entries(manifest.families ?? {}).flatMap(([k, e]) =>
      (["topic", "ignoreWhen", "directWhen", "channel"] as const).map((f): [string, unknown] => [
        `/families/${k}/${f}`,
        e[f],
      ]),
    ),
    ["/eventDefaults/channel", manifest.eventDefaults?.channel],
  ];
  for (const [pointer, source] of inlineSources)
    if (typeof source === "string")
      for (const p of checkTableUses(source, manifest))
        out.push({ file: "integration.json", what: `${pointer}: ${p.where}: ${p.what}` });
  return out;
}

/**
 * `checks: false` leaves out the checks that only find authoring mistakes (templates against the
 * schema, table uses, copies of framework code, the schema against its meta-schema): for a render
 * thread, which loads folders the server has already loaded with every check, and for test sweeps
 * over every plugin (the fixture suite loads each with every check). A third of a load.
 */
export interface LoadOptions {
  checks?: boolean;
}

function loadOne(
  dir: string,
  label: string,
  repoRoot: string,
  { checks = true }: LoadOptions = {},
): { integration?: Integration; problems: string[] } {
  const problems = new Problems(label);
  const folder = path.basename(dir);
  const manifest = readJson(problems, dir, "integration.json") as Manifest | undefined;
  if (manifest === undefined) return { problems: problems.lines };
  if (!validateManifest(manifest)) {
    // Ajv sets `errors` whenever validation fails.
    for (const e of validateManifest.errors!) {
      if (e.keyword === "oneOf") continue; // each branch's own errors say what is wrong
      const where = e.instancePath || "/";
      const text =
        e.keyword === "additionalProperties"
          ? `unknown field '${(e.params as { additionalProperty: string }).additionalProperty}'`
          : e.message;
      problems.add("integration.json", `${where}: ${text}`);
    }
    return { problems: problems.lines };
  }
  if (manifest.name !== folder)
    problems.add("integration.json", `/name: '${manifest.name}' must equal the folder name '${folder}'`);

  const docs = manifest.docs ?? "doc.md";
  if (!fs.existsSync(path.join(dir, docs)))
    problems.add(docs, "file not found (every integration needs a doc page for bot owners)");

  for (const family of Object.keys(manifest.families ?? {})) {
    const prefix = family.slice(0, -1);
    if (!Object.keys(manifest.events).some((key) => key.startsWith(prefix)))
      problems.add("integration.json", `/families/${family}: no event in /events starts with '${prefix}'`);
  }
  for (const p of checkTables(manifest)) problems.add("integration.json", `${p.where}: ${p.what}`);
  for (const p of checkReplyNames(manifest)) problems.add("integration.json", `${p.where}: ${p.what}`);

  for (const p of checkSignatureSpec(manifest)) problems.add("integration.json", `${p.where}: ${p.what}`);
  for (const p of checkOptionValuesSpec(manifest)) problems.add("integration.json", `${p.where}: ${p.what}`);

  const optionKeys = (manifest.urlOptions ?? []).map((o) => o.key);
  if (manifest.api && !optionKeys.includes(manifest.api.tokenOption))
    problems.add("integration.json", `/api/tokenOption: document '${manifest.api.tokenOption}' in urlOptions`);
  if (manifest.api && (manifest.api.host === undefined) === (manifest.api.hostOption === undefined))
    problems.add("integration.json", "/api: give exactly one of host (a fixed host) and hostOption (a URL option)");
  if (manifest.api?.hostOption !== undefined && !optionKeys.includes(manifest.api.hostOption))
    problems.add("integration.json", `/api/hostOption: document '${manifest.api.hostOption}' in urlOptions`);
  const probe = manifest.setupProbe;
  if (typeof probe === "object" && RESERVED_PARAMS.includes(probe.echoQuery))
    problems.add("integration.json", `/setupProbe/echoQuery: '${probe.echoQuery}' is a framework parameter`);
  for (const key of optionKeys.filter((k) => RESERVED_PARAMS.includes(k)))
    problems.add("integration.json", `/urlOptions: '${key}' is a framework parameter`);
  const usesBranches =
    manifest.branchPath !== undefined ||
    typeof manifest.eventDefaults?.branchPath === "string" ||
    Object.values(manifest.events).some((e) => typeof e.branchPath === "string");
  if (usesBranches && !optionKeys.includes("branches"))
    problems.add("integration.json", "/urlOptions: branchPath is set, so document a 'branches' URL option");

  // Payload schema: the root schema always applies; an event may add "#/..." from the same file.
  const ajv = pluginAjv({ checkSchemas: checks });
  const schemaFile = manifest.schema ?? "schema.json";
  const rawSchema = readJson(problems, dir, schemaFile) as Record<string, unknown> | undefined;
  const schemaId = `switchboard:${manifest.name}/${schemaFile}`;
  const validate = rawSchema
    ? problems.attempt(schemaFile, () => ajv.compile({ ...rawSchema, $id: schemaId }), "schema does not compile: ")
    : undefined;
  if (checks)
    for (const p of checkIdLookups(manifest, rawSchema, schemaFile))
      problems.add("integration.json", `${p.where}: ${p.what}`);

  // Templates and partials.
  const templatesDir = path.join(dir, "templates");
  const templateFiles = fs.existsSync(templatesDir) ? globSync("*.hbs", { cwd: templatesDir }).sort() : [];
  const partials: Integration["partials"] = {};
  const sources: Record<string, string> = {};
  // One trailing newline is the file's, not the template's (keeps partials inline-friendly).
  // Where each template came from, for problem lines (a shared one is named by its own path).
  const origin: Record<string, string> = {};
  for (const file of templateFiles) {
    sources[file] = fs.readFileSync(path.join(templatesDir, file), "utf8").replace(/\r?\n$/, "");
    origin[file] = `templates/${file}`;
  }
  for (const name of manifest.shared ?? []) {
    const sharedTemplates = path.join(path.dirname(dir), SHARED_DIR, name, "templates");
    if (!fs.existsSync(sharedTemplates)) {
      problems.add("integration.json", `/shared: ${SHARED_DIR}/${name}/templates/ not found`);
      continue;
    }
    for (const file of globSync("*.hbs", { cwd: sharedTemplates }).sort()) {
      if (sources[file] !== undefined) {
        problems.add(
          `templates/${file}`,
          `${SHARED_DIR}/${name}/templates/${file} has the same name (one of them must go)`,
        );
        continue;
      }
      sources[file] = fs.readFileSync(path.join(sharedTemplates, file), "utf8").replace(/\r?\n$/, "");
      origin[file] = `../${SHARED_DIR}/${name}/templates/${file}`;
    }
  }
  const framework = frameworkPartials();
  for (const file of Object.keys(sources).filter((f) => f.startsWith("_"))) {
    const name = file.slice(1, -4);
    if (framework[name] !== undefined) {
      problems.add(
        origin[file],
        `'${name}' is a framework partial: use {{> ${name}}} as it is, or name yours differently`,
      );
      continue;
    }
    const compiled = problems.attempt(origin[file], () => compilePartial(sources[file]));
    if (compiled) partials[name] = compiled;
  }
  Object.assign(partials, framework);
  // Topic, ignoreWhen and directWhen are plain text (not Markdown): compiled without escaping,
  // once per distinct source (families and eventDefaults share them across many events).
  const inlineCache = new Map<string, TemplateFn | undefined>();
  // `where` (the JSON pointer the source came from) is set whenever the source is.
  const inline = (where: string | undefined, source: string | null | undefined): TemplateFn | undefined => {
    if (source === undefined || source === null) return undefined;
    if (!inlineCache.has(source))
      inlineCache.set(
        source,
        problems.attempt("integration.json", () => compileTemplate(source, { markdown: false }), `${where}: `),
      );
    return inlineCache.get(source);
  };
  const templateCache = new Map<string, TemplateFn | undefined>();
  const messageTemplate = (file: string): TemplateFn | undefined => {
    if (!templateCache.has(file))
      templateCache.set(
        file,
        problems.attempt(origin[file] ?? `templates/${file}`, () => compileTemplate(sources[file])),
      );
    return templateCache.get(file);
  };

  const referenced = new Set<string>();
  const events = new Map<string, LoadedEvent>();
  for (const key of Object.keys(manifest.events)) {
    const { spec, from } = effectiveSpec(manifest, key);
    const reply: LoadedEvent["reply"] = [];
    for (const [field, { source, pointer }] of Object.entries(replySources(manifest, key))) {
      const fn = inline(pointer, source);
      if (fn) reply.push([field, fn]);
    }
    const event: LoadedEvent = { key, spec, reply };
    if (!spec.ignore) {
      const file = templateFileFor(key, spec, sources);
      referenced.add(file);
      if (sources[file] === undefined)
        problems.add("integration.json", `/events/${key}: template templates/${file} not found`);
      else event.template = messageTemplate(file);
    }
    event.topic = inline(from.topic, spec.topic);
    event.ignoreWhen = inline(from.ignoreWhen, spec.ignoreWhen);
    event.directWhen = inline(from.directWhen, spec.directWhen);
    event.channel = inline(from.channel, spec.channel);
    if (spec.schema && rawSchema) {
      event.validate = problems.attempt(
        schemaFile,
        () => ajv.compile({ $ref: `${schemaId}${spec.schema}` }),
        `${from.schema} ${spec.schema}: `,
      );
    }
    events.set(key, event);
  }
  if (checks && rawSchema && validate)
    for (const line of checkTemplatesAgainstSchema(manifest, events, rawSchema, sources, schemaFile))
      problems.add(line.file, line.what);
  if (checks) for (const line of tableUseProblems(manifest, sources, origin)) problems.add(line.file, line.what);
  for (const file of templateFiles) {
    if (!file.startsWith("_") && !referenced.has(file))
      problems.add(`templates/${file}`, "not used by any event in integration.json (remove it or add the event)");
  }
  // Partials named in templates must exist (a missing one would otherwise fail at render time);
  // one that exists but does not compile is already reported above.
  for (const [file, source] of Object.entries(sources)) {
    for (const m of source.matchAll(/\{\{~?#?>\s*([A-Za-z0-9_-]+)/g)) {
      if (sources[`_${m[1]}.hbs`] === undefined && framework[m[1]] === undefined)
        problems.add(origin[file], `uses partial '${m[1]}' but templates/_${m[1]}.hbs does not exist`);
    }
  }
  const defaultTopic = inline("/defaultTopic", manifest.defaultTopic);
  const reply: Integration["reply"] = [];
  for (const [field, source] of Object.entries(manifest.reply ?? {})) {
    const fn = inline(`/reply/${field}`, source);
    if (fn) reply.push([field, fn]);
  }
  const outputs: Integration["outputs"] = [];
  for (const [name, source] of Object.entries(manifest.outputs ?? {})) {
    const fn = inline(`/outputs/${name}`, source);
    if (fn) outputs.push([name, fn]);
  }
  if (manifest.formField !== undefined && manifest.contentType !== "form-json" && manifest.contentType !== "form")
    problems.add("integration.json", '/formField: only used with "contentType": "form-json" or "form"');
  if (manifest.textField !== undefined && manifest.contentType !== "text")
    problems.add("integration.json", '/textField: only used with "contentType": "text"');

  let transform: TransformFn | undefined;
  if (manifest.transform) {
    const file = path.join(dir, manifest.transform);
    if (!fs.existsSync(file)) problems.add(manifest.transform, "file not found");
    else {
      // What the framework already has is not written again in a plugin (frameworkParts.ts).
      if (checks)
        for (const copy of transformCopies(fs.readFileSync(file, "utf8"))) problems.add(manifest.transform, copy);
      const mod = problems.attempt(
        manifest.transform,
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- plugins are found at start-up, by path
        () => require(file) as { default?: unknown; transform?: unknown },
        "cannot be loaded: ",
      );
      const fn = mod?.default ?? mod?.transform;
      if (mod && typeof fn !== "function")
        problems.add(manifest.transform, "must export a function (default export or `transform`)");
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
      tables: manifest.tables ?? {},
      outputs,
      validate,
      reply,
      transform,
      docPath: path.relative(repoRoot, path.join(dir, docs)).split(path.sep).join("/"),
      fixturesDir: fixturesDirOf(dir),
    },
  };
}

/** Loads every plugin folder; throws IntegrationLoadError listing every problem found. */
export function loadIntegrations(
  integrationsDir: string,
  repoRoot = path.dirname(integrationsDir),
  options: LoadOptions = {},
): Integration[] {
  if (!fs.existsSync(integrationsDir))
    throw new IntegrationLoadError([`${integrationsDir}: integrations directory not found`]);
  // "*/" matches folders and links (without a trailing slash, hidden ones excluded); a link must lead to a folder.
  const folders = globSync("*/", { cwd: integrationsDir })
    .filter((f) => !f.startsWith("_") && fs.statSync(path.join(integrationsDir, f)).isDirectory())
    .sort();
  const base = path.relative(repoRoot, integrationsDir).split(path.sep).join("/") || ".";
  const loaded: Integration[] = [];
  const problems: string[] = [];
  for (const folder of folders) {
    const result = loadOne(path.join(integrationsDir, folder), `${base}/${folder}`, repoRoot, options);
    problems.push(...result.problems);
    if (result.integration) loaded.push(result.integration);
  }
  if (problems.length > 0) throw new IntegrationLoadError(problems);
  return loaded;
}

/** Loads a single plugin folder (authoring tools, render threads); throws IntegrationLoadError on any problem. */
export function loadIntegrationFolder(
  dir: string,
  repoRoot = path.dirname(path.dirname(dir)),
  options: LoadOptions = {},
): Integration {
  const base = path.relative(repoRoot, dir).split(path.sep).join("/");
  const result = loadOne(dir, base, repoRoot, options);
  if (!result.integration) throw new IntegrationLoadError(result.problems);
  return result.integration;
}
