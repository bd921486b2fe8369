// The loader on small plugin folders written to a temp directory: what a valid folder loads to, and
// the exact problem line an integration author gets for each kind of mistake.
import fs from "node:fs";
import path from "node:path";
import {
  effectiveSpec,
  familiesOf,
  IntegrationLoadError,
  loadIntegrationFolder,
  loadIntegrations,
} from "../../src/webhooks/loader";
import { frameworkPartials } from "../../src/webhooks/frameworkParts";
import type { Manifest } from "../../src/webhooks/manifest";
import type { Integration } from "../../src/webhooks/registry";
import { goodPlugin, manifestJson, useTempDir, writeFiles, type Files } from "../support/pluginFolders";

const tmp = useTempDir("sb-plugin-folder-");
const NOT_DECLARED = "(declare it as an optional property, or list the transform's output in transformOutputs)";

/** Writes `integrations/<name>` and loads it alone. */
function load(files: Files, name = "demo"): Integration {
  const dir = path.join(tmp.dir(), "integrations", name);
  writeFiles(dir, files);
  return loadIntegrationFolder(dir);
}

/** The problem lines loading the folder gives (none when it loads). */
function problemsOf(files: Files, name = "demo"): string[] {
  try {
    load(files, name);
    return [];
  } catch (err) {
    if (!(err instanceof IntegrationLoadError)) throw err;
    return err.problems;
  }
}

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("did not throw");
};

const render = (integration: Integration, key: string, view: unknown): string =>
  integration.events.get(key)!.template!(view, {}, integration.partials);

describe("IntegrationLoadError", () => {
  it("counts one problem in the singular and indents each line", () => {
    const err = new IntegrationLoadError(["a/b: wrong"]);
    expect(err.message).toBe("Invalid integrations (1 problem):\n  a/b: wrong");
    expect(err.problems).toEqual(["a/b: wrong"]);
  });

  it("counts several problems in the plural, one indented line each", () => {
    expect(new IntegrationLoadError(["x", "y"]).message).toBe("Invalid integrations (2 problems):\n  x\n  y");
  });
});

describe("familiesOf and effectiveSpec", () => {
  it("lists the families of a dotted key, nearest first", () => {
    expect(familiesOf("a.b.c")).toEqual(["a.b", "a"]);
    expect(familiesOf("push")).toEqual([]);
  });

  const manifest = (extra: Partial<Manifest>): Manifest =>
    JSON.parse(manifestJson("demo", extra as Record<string, unknown>)) as Manifest;

  it("takes each field from the event, else its nearest declared family, else eventDefaults, saying where from", () => {
    const m = manifest({
      eventDefaults: { topic: "default topic", ignoreWhen: "dflt", direct: true },
      events: {
        a: { topic: "a topic", template: "a_tpl", each: "list" },
        "a.b.c": { template: "own", ignoreWhen: null },
      },
    });
    expect(effectiveSpec(m, "a.b.c")).toEqual({
      spec: { template: "own", topic: "a topic", ignoreWhen: null, each: "list", direct: true },
      from: {
        template: "/events/a.b.c/template",
        topic: "/events/a/topic",
        ignoreWhen: "/events/a.b.c/ignoreWhen",
        each: "/events/a/each",
        direct: "/eventDefaults/direct",
      },
    });
  });

  it("does not inherit ignore from a family, and keeps an event's own ignore", () => {
    const m = manifest({ events: { a: { ignore: true }, "a.b": {}, c: { ignore: true, schema: "#/x" } } });
    expect(effectiveSpec(m, "a.b")).toEqual({ spec: {}, from: {} });
    expect(effectiveSpec(m, "c")).toEqual({
      spec: { ignore: true, schema: "#/x" },
      from: { schema: "/events/c/schema" },
    });
  });

  it("finds fields for a key that is not declared at all (families and eventDefaults only)", () => {
    const m = manifest({ events: { x: { branchPath: "ref" } }, eventDefaults: { directWhen: "{{d}}" } });
    expect(effectiveSpec(m, "x.y")).toEqual({
      spec: { branchPath: "ref", directWhen: "{{d}}" },
      from: { branchPath: "/events/x/branchPath", directWhen: "/eventDefaults/directWhen" },
    });
    expect(effectiveSpec(manifest({}), "nothing")).toEqual({ spec: {}, from: {} });
  });
});

describe("a valid plugin folder", () => {
  it("loads to its name, folder, manifest, events, compiled templates and doc path", () => {
    const integration = load(goodPlugin("demo"));
    const dir = path.join(tmp.dir(), "integrations", "demo");
    expect(integration.name).toBe("demo");
    expect(integration.dir).toBe(dir);
    expect(integration.manifest).toEqual(JSON.parse(manifestJson("demo")));
    expect(integration.docPath).toBe("integrations/demo/doc.md");
    expect(Object.keys(integration.partials)).toEqual(Object.keys(frameworkPartials()));
    expect(integration.transform).toBeUndefined();
    expect([...integration.events.keys()]).toEqual(["hello"]);
    const hello = integration.events.get("hello")!;
    expect(hello.key).toBe("hello");
    expect(hello.spec).toEqual({});
    expect(hello.topic).toBeUndefined();
    expect(hello.ignoreWhen).toBeUndefined();
    expect(hello.directWhen).toBeUndefined();
    expect(hello.validate).toBeUndefined();
    expect(render(integration, "hello", { title: "*world*" })).toBe("Hello \\*world\\*");
    expect(integration.defaultTopic({ title: "t" }, {}, {})).toBe("demo");
    expect(integration.validate({ title: "x" })).toBe(true);
    expect(integration.validate({ title: 3 })).toBe(false);
  });

  it("drops one trailing newline (LF or CRLF) of a template file, keeping any before it", () => {
    const integration = load(
      goodPlugin(
        "demo",
        { "templates/hello.hbs": "Hi\nthere\n\n", "templates/bye.hbs": "Bye\r\n" },
        {
          events: { hello: {}, bye: {} },
        },
      ),
    );
    expect(render(integration, "hello", {})).toBe("Hi\nthere\n");
    expect(render(integration, "bye", {})).toBe("Bye");
  });

  it("compiles topic, ignoreWhen and directWhen as plain text, and null cancels an inherited one", () => {
    const integration = load(
      goodPlugin(
        "demo",
        { "templates/hello.hbs": "x", "templates/bye.hbs": "y" },
        {
          defaultTopic: "{{title}} default",
          eventDefaults: { ignoreWhen: "{{title}} ignored", directWhen: "{{title}} direct" },
          events: { hello: { topic: "{{title}} topic" }, bye: { ignoreWhen: null, directWhen: null } },
        },
      ),
    );
    const hello = integration.events.get("hello")!;
    const bye = integration.events.get("bye")!;
    expect(integration.defaultTopic({ title: "*a*" }, {}, {})).toBe("*a* default");
    expect(hello.topic!({ title: "*a*" }, {}, {})).toBe("*a* topic");
    expect(hello.ignoreWhen!({ title: "*a*" }, {}, {})).toBe("*a* ignored");
    expect(hello.directWhen!({ title: "*a*" }, {}, {})).toBe("*a* direct");
    expect(bye.topic).toBeUndefined();
    expect(bye.ignoreWhen).toBeUndefined();
    expect(bye.directWhen).toBeUndefined();
  });

  it("finds an event's template by its template field, else its own key, else its nearest family", () => {
    const integration = load(
      goodPlugin(
        "demo",
        {
          "templates/hello.hbs": undefined,
          "templates/shared.hbs": "shared",
          "templates/a.hbs": "family a",
          "templates/a.b.hbs": "family a.b",
          "templates/a.b.own.hbs": "own",
        },
        {
          eventDefaults: {},
          events: { hello: { template: "shared" }, "a.b.c": {}, "a.b.own": {}, "a.x": {}, a: {} },
        },
      ),
    );
    expect(render(integration, "hello", {})).toBe("shared");
    expect(render(integration, "a.b.c", {})).toBe("family a.b");
    expect(render(integration, "a.b.own", {})).toBe("own");
    expect(render(integration, "a.x", {})).toBe("family a");
    expect(render(integration, "a", {})).toBe("family a");
  });

  it("loads a plugin without a templates folder when every event is ignored", () => {
    const integration = load(
      goodPlugin("demo", { "templates/hello.hbs": undefined }, { events: { hello: { ignore: true } } }),
    );
    expect(integration.events.get("hello")!.template).toBeUndefined();
    expect(Object.keys(integration.partials)).toEqual(Object.keys(frameworkPartials()));
  });

  it("gives ignored events no template and needs none for them", () => {
    const integration = load(goodPlugin("demo", {}, { events: { hello: {}, skip: { ignore: true } } }));
    const skip = integration.events.get("skip")!;
    expect(skip.spec).toEqual({ ignore: true });
    expect(skip.template).toBeUndefined();
  });

  it("hands partials (templates/_name.hbs) to the templates by name", () => {
    const integration = load(
      goodPlugin("demo", { "templates/_signature.hbs": "-- {{title}}\n", "templates/hello.hbs": "Hi {{> signature}}" }),
    );
    expect(Object.keys(integration.partials)).toEqual(["signature", ...Object.keys(frameworkPartials())]);
    expect(render(integration, "hello", { title: "_me_" })).toBe("Hi -- \\_me\\_");
  });

  it("compiles an event's own schema pointer into its validator, on top of the root schema", () => {
    const schema = {
      type: "object",
      properties: { title: { type: "string" }, ref: { type: "string" } },
      $defs: { push: { required: ["ref"] } },
    };
    const integration = load(
      goodPlugin(
        "demo",
        { "schema.json": JSON.stringify(schema), "templates/push.hbs": "{{ref}}" },
        { events: { hello: {}, push: { schema: "#/$defs/push" } } },
      ),
    );
    const validate = integration.events.get("push")!.validate!;
    expect(validate({ ref: "main" })).toBe(true);
    expect(validate({ title: "no ref" })).toBe(false);
    expect(integration.events.get("hello")!.validate).toBeUndefined();
  });

  it("uses the manifest's schema and docs file names and reports the doc path relative to the repository", () => {
    const integration = load(
      goodPlugin(
        "demo",
        {
          "schema.json": undefined,
          "payload.json": JSON.stringify({ type: "object", required: ["id"] }),
          "doc.md": undefined,
          "README.md": "# Demo",
          "templates/hello.hbs": "hi",
        },
        { schema: "payload.json", docs: "README.md" },
      ),
    );
    expect(integration.docPath).toBe("integrations/demo/README.md");
    expect(integration.validate({})).toBe(false);
    expect(integration.validate({ id: 1 })).toBe(true);
  });

  it("accepts annotation keywords it does not know in the payload schema, and checks formats", () => {
    const schema = {
      type: "object",
      "x-source": "vendor docs",
      properties: { title: { type: "string" }, email: { type: "string", format: "email" } },
    };
    const integration = load(goodPlugin("demo", { "schema.json": JSON.stringify(schema) }));
    expect(integration.validate({ email: "a@example.com" })).toBe(true);
    expect(integration.validate({ email: "not an address" })).toBe(false);
    expect(integration.validate({ title: 1, email: "nope" })).toBe(false);
    expect(integration.validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toEqual([
      "/title must be string",
      '/email must match format "email"',
    ]);
  });

  it("matches schema patterns on RE2: a pattern that backtracks exponentially in JavaScript answers at once", () => {
    // JavaScript's engine tries every split of the a's before the "!": 2^32 of them, ~20 s here (a
    // synchronous call: Jest cannot time it out). The next test is the one that fails without RE2.
    const schema = { type: "object", properties: { title: { type: "string", pattern: "^(a+)+$" } } };
    const integration = load(goodPlugin("demo", { "schema.json": JSON.stringify(schema) }));
    expect(integration.validate({ title: "a".repeat(32) })).toBe(true);
    expect(integration.validate({ title: `${"a".repeat(32)}!` })).toBe(false);
    expect(integration.validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toEqual([
      '/title must match pattern "^(a+)+$"',
    ]);
  });

  it("refuses a schema pattern RE2 cannot run (a backreference), naming the schema", () => {
    const schema = { type: "object", properties: { title: { type: "string", pattern: "^(a)\\1$" } } };
    const problems = problemsOf(goodPlugin("demo", { "schema.json": JSON.stringify(schema) }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^integrations\/demo\/schema\.json: schema does not compile: .*escape/);
  });

  it("accepts a branchPath when a 'branches' URL option documents it", () => {
    const options = { urlOptions: [{ key: "branches", description: "Only these branches" }] };
    expect(problemsOf(goodPlugin("demo", {}, { branchPath: "ref", ...options }))).toEqual([]);
    expect(problemsOf(goodPlugin("demo", {}, { eventDefaults: { branchPath: "ref" }, ...options }))).toEqual([]);
  });

  it("accepts formField with contentType form-json", () => {
    expect(problemsOf(goodPlugin("demo", {}, { contentType: "form-json", formField: "data" }))).toEqual([]);
  });
});

describe("transforms", () => {
  const withTransform = (source: string, file = "transform.js") =>
    goodPlugin("demo", { [file]: source }, { transform: file });

  it("uses the default export", () => {
    const integration = load(withTransform("exports.default = (p) => ({ shout: p.title + '!' });"));
    expect(integration.transform!({ title: "hi" }, { event: "hello", options: {} })).toEqual({ shout: "hi!" });
  });

  it("uses a `transform` export when there is no default export", () => {
    const integration = load(withTransform("exports.transform = (p) => ({ twice: p.title + p.title });"));
    expect(integration.transform!({ title: "ab" }, { event: "hello", options: {} })).toEqual({ twice: "abab" });
  });

  it("prefers the default export over `transform`", () => {
    const integration = load(
      withTransform("exports.default = () => ({ d: 1 }); exports.transform = () => ({ t: 1 });"),
    );
    expect(integration.transform!({}, { event: "hello", options: {} })).toEqual({ d: 1 });
  });

  it("refuses a transform that exports no function", () => {
    expect(problemsOf(withTransform("exports.default = 42;"))).toEqual([
      "integrations/demo/transform.js: must export a function (default export or `transform`)",
    ]);
    expect(problemsOf(withTransform("exports.other = () => ({});", "other.js"))).toEqual([
      "integrations/demo/other.js: must export a function (default export or `transform`)",
    ]);
  });

  it("reports a transform that throws while loading, on one line", () => {
    expect(problemsOf(withTransform("throw new Error('broken\\n\\nsetup');"))).toEqual([
      "integrations/demo/transform.js: cannot be loaded: broken setup",
    ]);
  });

  it("reports a missing transform file", () => {
    expect(problemsOf(goodPlugin("demo", {}, { transform: "missing.js" }))).toEqual([
      "integrations/demo/missing.js: file not found",
    ]);
  });
});

describe("problems in a plugin folder", () => {
  it("reports a missing manifest and nothing else", () => {
    expect(problemsOf({ "doc.md": "# x" })).toEqual(["integrations/demo/integration.json: file not found"]);
  });

  it("reports a manifest that is not JSON with the parser's message", () => {
    const parserMessage = errorOf(() => JSON.parse("{ nope"));
    expect(problemsOf(goodPlugin("demo", { "integration.json": "{ nope" }))).toEqual([
      `integrations/demo/integration.json: not valid JSON: ${parserMessage}`,
    ]);
  });

  it("reports every manifest schema error with its JSON pointer, and stops there", () => {
    const files = goodPlugin(
      "demo",
      { "doc.md": undefined },
      { categories: ["nonsense"], colour: "red", eventSource: { header: "X Event" }, events: {} },
    );
    expect(problemsOf(files)).toEqual([
      "integrations/demo/integration.json: /: unknown field 'colour'",
      "integrations/demo/integration.json: /categories/0: must be equal to one of the allowed values",
      'integrations/demo/integration.json: /eventSource/header: must match pattern "^[A-Za-z0-9-]+$"',
      "integrations/demo/integration.json: /eventSource: must have required property 'field'",
      "integrations/demo/integration.json: /eventSource: unknown field 'header'",
      "integrations/demo/integration.json: /eventSource: must have required property 'fixed'",
      "integrations/demo/integration.json: /eventSource: unknown field 'header'",
      "integrations/demo/integration.json: /events: must NOT have fewer than 1 properties",
    ]);
  });

  it("reports a name that differs from the folder", () => {
    expect(problemsOf(goodPlugin("other"), "demo")).toEqual([
      "integrations/demo/integration.json: /name: 'other' must equal the folder name 'demo'",
    ]);
  });

  it("reports a missing doc page, under the manifest's docs name", () => {
    expect(problemsOf(goodPlugin("demo", { "doc.md": undefined }))).toEqual([
      "integrations/demo/doc.md: file not found (every integration needs a doc page for bot owners)",
    ]);
    expect(problemsOf(goodPlugin("demo", {}, { docs: "guide.md" }))).toEqual([
      "integrations/demo/guide.md: file not found (every integration needs a doc page for bot owners)",
    ]);
  });

  it("refuses URL options named like framework parameters", () => {
    const urlOptions = ["api_key", "stream", "topic", "only_events", "exclude_events", "mine"].map((key) => ({
      key,
      description: "d",
    }));
    expect(problemsOf(goodPlugin("demo", {}, { urlOptions }))).toEqual(
      ["api_key", "stream", "topic", "only_events", "exclude_events"].map(
        (key) => `integrations/demo/integration.json: /urlOptions: '${key}' is a framework parameter`,
      ),
    );
  });

  it("asks for a 'branches' URL option wherever a branchPath is set", () => {
    const missing =
      "integrations/demo/integration.json: /urlOptions: branchPath is set, so document a 'branches' URL option";
    expect(problemsOf(goodPlugin("demo", {}, { branchPath: "ref" }))).toEqual([missing]);
    expect(problemsOf(goodPlugin("demo", {}, { eventDefaults: { branchPath: "ref" } }))).toEqual([missing]);
    expect(problemsOf(goodPlugin("demo", {}, { events: { hello: {}, "hello.x": { branchPath: "ref" } } }))).toEqual([
      missing,
    ]);
    expect(problemsOf(goodPlugin("demo", {}, { events: { hello: { branchPath: null } } }))).toEqual([]);
    expect(problemsOf(goodPlugin("demo", {}, { eventDefaults: { branchPath: null } }))).toEqual([]);
  });

  it("reports a missing, malformed or uncompilable payload schema under its file name", () => {
    expect(problemsOf(goodPlugin("demo", { "schema.json": undefined }))).toEqual([
      "integrations/demo/schema.json: file not found",
    ]);
    expect(problemsOf(goodPlugin("demo", {}, { schema: "payload.json" }))).toEqual([
      "integrations/demo/payload.json: file not found",
    ]);
    const parserMessage = errorOf(() => JSON.parse("[1,"));
    expect(problemsOf(goodPlugin("demo", { "schema.json": "[1," }))).toEqual([
      `integrations/demo/schema.json: not valid JSON: ${parserMessage}`,
    ]);
    expect(problemsOf(goodPlugin("demo", { "schema.json": '{"type":"nonsense"}' }))).toEqual([
      "integrations/demo/schema.json: schema does not compile: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf",
    ]);
  });

  it("reports only the missing schema file when an event points into it", () => {
    expect(
      problemsOf(goodPlugin("demo", { "schema.json": undefined }, { events: { hello: { schema: "#/$defs/x" } } })),
    ).toEqual(["integrations/demo/schema.json: file not found"]);
  });

  it("reports an event schema pointer that leads nowhere, naming where it was set", () => {
    const problems = problemsOf(
      goodPlugin(
        "demo",
        { "templates/hello.hbs": undefined, "templates/push.hbs": "x" },
        { eventDefaults: { schema: "#/$defs/nope" }, events: { push: {} } },
      ),
    );
    expect(problems).toEqual([
      "integrations/demo/schema.json: /eventDefaults/schema #/$defs/nope: can't resolve reference switchboard:demo/schema.json#/$defs/nope from id #",
    ]);
  });

  it("reports an event whose template does not exist, by the file it looked for", () => {
    expect(problemsOf(goodPlugin("demo", {}, { events: { hello: {}, "a.b": {}, c: { template: "custom" } } }))).toEqual(
      [
        "integrations/demo/integration.json: /events/a.b: template templates/a.b.hbs not found",
        "integrations/demo/integration.json: /events/c: template templates/custom.hbs not found",
      ],
    );
  });

  it("reports a template that does not compile once, however many events use it", () => {
    const parse =
      "Parse error on line 1: Hi {{#if}} ----------^ Expecting 'COMMENT', 'CONTENT', 'OPEN_RAW_BLOCK', 'OPEN_BLOCK', " +
      "'OPEN_INVERSE', 'OPEN_INVERSE_CHAIN', 'INVERSE', 'OPEN_ENDBLOCK', 'OPEN', 'OPEN_UNESCAPED', 'OPEN_PARTIAL', " +
      "'OPEN_PARTIAL_BLOCK', got 'EOF'";
    expect(
      problemsOf(goodPlugin("demo", { "templates/hello.hbs": "Hi {{#if}}" }, { events: { hello: {}, "hello.x": {} } })),
    ).toEqual([`integrations/demo/templates/hello.hbs: ${parse}`]);
  });

  it("reports a template calling an unknown helper", () => {
    expect(problemsOf(goodPlugin("demo", { "templates/hello.hbs": "{{shout title}}" }))).toEqual([
      "integrations/demo/templates/hello.hbs: You specified knownHelpersOnly, but used the unknown helper shout - 1:0",
    ]);
  });

  it("reports a broken inline template once per source, naming the first place it is set", () => {
    const parse =
      "Parse error on line 1: {{#if}} -------^ Expecting 'COMMENT', 'CONTENT', 'OPEN_RAW_BLOCK', 'OPEN_BLOCK', " +
      "'OPEN_INVERSE', 'OPEN_INVERSE_CHAIN', 'INVERSE', 'OPEN_ENDBLOCK', 'OPEN', 'OPEN_UNESCAPED', 'OPEN_PARTIAL', " +
      "'OPEN_PARTIAL_BLOCK', got 'EOF'";
    expect(
      problemsOf(
        goodPlugin(
          "demo",
          {},
          {
            defaultTopic: "{{#if}}",
            events: { hello: { topic: "{{#if}}", ignoreWhen: "{{#if}}" }, "hello.b": {} },
          },
        ),
      ),
    ).toEqual([`integrations/demo/integration.json: /events/hello/topic: ${parse}`]);
    expect(problemsOf(goodPlugin("demo", {}, { eventDefaults: { directWhen: "{{#if}}" } }))).toEqual([
      `integrations/demo/integration.json: /eventDefaults/directWhen: ${parse}`,
    ]);
    expect(problemsOf(goodPlugin("demo", {}, { events: { hello: { ignoreWhen: "{{#if}}" } } }))).toEqual([
      `integrations/demo/integration.json: /events/hello/ignoreWhen: ${parse}`,
    ]);
    expect(problemsOf(goodPlugin("demo", {}, { defaultTopic: "{{#if}}" }))).toEqual([
      `integrations/demo/integration.json: /defaultTopic: ${parse}`,
    ]);
  });

  it("reports a used partial that does not compile by its error alone, not as missing", () => {
    expect(
      problemsOf(goodPlugin("demo", { "templates/_sig.hbs": "{{nope x}}", "templates/hello.hbs": "{{> sig}}" })),
    ).toEqual([
      "integrations/demo/templates/_sig.hbs: You specified knownHelpersOnly, but used the unknown helper nope - 1:0",
    ]);
  });

  it("reports a partial that does not compile, under its file", () => {
    expect(problemsOf(goodPlugin("demo", { "templates/_sig.hbs": "{{nope x}}" }))).toEqual([
      "integrations/demo/templates/_sig.hbs: You specified knownHelpersOnly, but used the unknown helper nope - 1:0",
    ]);
  });

  it("reports templates no event uses (partials excepted, ignored events use none)", () => {
    expect(
      problemsOf(
        goodPlugin(
          "demo",
          { "templates/old.hbs": "x", "templates/skip.hbs": "y", "templates/_part.hbs": "p" },
          { events: { hello: {}, skip: { ignore: true } } },
        ),
      ),
    ).toEqual([
      "integrations/demo/templates/old.hbs: not used by any event in integration.json (remove it or add the event)",
      "integrations/demo/templates/skip.hbs: not used by any event in integration.json (remove it or add the event)",
    ]);
  });

  it("reports unused templates and missing partials in file name order", () => {
    const names = ["zz", "b", "y", "a", "m", "c"];
    const files = Object.fromEntries(names.map((n) => [`templates/${n}.hbs`, `{{> p${n}}}`]));
    const sorted = [...names].sort();
    expect(problemsOf(goodPlugin("demo", files))).toEqual([
      ...sorted.map(
        (n) =>
          `integrations/demo/templates/${n}.hbs: not used by any event in integration.json (remove it or add the event)`,
      ),
      ...sorted.map(
        (n) => `integrations/demo/templates/${n}.hbs: uses partial 'p${n}' but templates/_p${n}.hbs does not exist`,
      ),
    ]);
  });

  it("reports every use of a partial that has no file, in any of Handlebars' partial forms", () => {
    const template = "{{>a}} {{~> b}} {{#> c}}x{{/c}} {{~#> d-e_1}}y{{/d-e_1}} {{> sig}}";
    expect(problemsOf(goodPlugin("demo", { "templates/hello.hbs": template, "templates/_sig.hbs": "s" }))).toEqual(
      ["a", "b", "c", "d-e_1"].map(
        (p) => `integrations/demo/templates/hello.hbs: uses partial '${p}' but templates/_${p}.hbs does not exist`,
      ),
    );
  });

  it("refuses formField unless contentType is form-json or form, and textField unless it is text", () => {
    const line = 'integrations/demo/integration.json: /formField: only used with "contentType": "form-json" or "form"';
    expect(problemsOf(goodPlugin("demo", {}, { formField: "data" }))).toEqual([line]);
    expect(problemsOf(goodPlugin("demo", {}, { formField: "data", contentType: "xml" }))).toEqual([line]);
    expect(problemsOf(goodPlugin("demo", {}, { formField: "data", contentType: "form" }))).toEqual([]);
    expect(problemsOf(goodPlugin("demo", {}, { textField: "message", contentType: "json" }))).toEqual([
      'integrations/demo/integration.json: /textField: only used with "contentType": "text"',
    ]);
    expect(problemsOf(goodPlugin("demo", {}, { textField: "message", contentType: "text" }))).toEqual([]);
  });

  it("lists every problem of a folder together, in the order the loader checks them", () => {
    const files = goodPlugin(
      "other",
      { "doc.md": undefined, "templates/old.hbs": "x" },
      { urlOptions: [{ key: "topic", description: "d" }], formField: "f" },
    );
    expect(problemsOf(files)).toEqual([
      "integrations/demo/integration.json: /name: 'other' must equal the folder name 'demo'",
      "integrations/demo/doc.md: file not found (every integration needs a doc page for bot owners)",
      "integrations/demo/integration.json: /urlOptions: 'topic' is a framework parameter",
      "integrations/demo/templates/old.hbs: not used by any event in integration.json (remove it or add the event)",
      'integrations/demo/integration.json: /formField: only used with "contentType": "form-json" or "form"',
    ]);
  });
});

describe("template paths against the payload schema", () => {
  const schema = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: "object",
      properties: {
        title: { type: "string" },
        commits: { type: "array", items: { type: "object", properties: { id: { type: "string" } } } },
        data: {
          type: "object",
          properties: { rows: { type: "array", items: { type: "object", properties: { n: { type: "number" } } } } },
        },
        anything: { type: "array" },
      },
      ...extra,
    });

  it("names the template file, line and undeclared path", () => {
    expect(problemsOf(goodPlugin("demo", { "templates/hello.hbs": "{{title}}\n\n{{titel}}" }))).toEqual([
      `integrations/demo/templates/hello.hbs: line 3: 'titel' is not declared in schema.json ${NOT_DECLARED}`,
    ]);
  });

  it("names the schema file the manifest uses", () => {
    expect(
      problemsOf(
        goodPlugin(
          "demo",
          { "schema.json": undefined, "payload.json": schema(), "templates/hello.hbs": "{{nope}}" },
          { schema: "payload.json" },
        ),
      ),
    ).toEqual([
      `integrations/demo/templates/hello.hbs: line 1: 'nope' is not declared in payload.json ${NOT_DECLARED}`,
    ]);
  });

  it("checks inline templates, naming the manifest pointer they came from", () => {
    expect(
      problemsOf(
        goodPlugin(
          "demo",
          { "schema.json": schema(), "templates/hello.hbs": "x", "templates/a.hbs": "y" },
          {
            defaultTopic: "{{nope1}}",
            eventDefaults: { ignoreWhen: "{{nope2}}" },
            events: { hello: {}, a: { topic: "{{nope3}}", directWhen: "{{title}}{{nope4}}" }, "a.b": {} },
          },
        ),
      ),
    ).toEqual([
      `integrations/demo/integration.json: /defaultTopic: line 1: 'nope1' is not declared in schema.json ${NOT_DECLARED}`,
      `integrations/demo/integration.json: /eventDefaults/ignoreWhen: line 1: 'nope2' is not declared in schema.json ${NOT_DECLARED}`,
      `integrations/demo/integration.json: /events/a/topic: line 1: 'nope3' is not declared in schema.json ${NOT_DECLARED}`,
      `integrations/demo/integration.json: /events/a/directWhen: line 1: 'nope4' is not declared in schema.json ${NOT_DECLARED}`,
    ]);
  });

  it("does not check ignored events, or paths starting with a transform output", () => {
    const files = goodPlugin(
      "demo",
      { "templates/hello.hbs": "{{extra.anything}} {{title}}", "transform.js": "exports.default = () => ({});" },
      {
        transform: "transform.js",
        transformOutputs: ["extra"],
        events: { hello: {}, skip: { ignore: true, topic: "{{nope}}" } },
      },
    );
    expect(problemsOf(files)).toEqual([]);
  });

  it("accepts paths declared only in an event's own schema, for that event's templates", () => {
    const files = goodPlugin(
      "demo",
      {
        "schema.json": schema({ $defs: { push: { properties: { ref: { type: "string" } } } } }),
        "templates/push.hbs": "{{ref}} {{title}}\n{{reff}}",
        "templates/hello.hbs": "{{ref}}",
      },
      { events: { hello: {}, push: { schema: "#/$defs/push" } } },
    );
    expect(problemsOf(files)).toEqual([
      `integrations/demo/templates/hello.hbs: line 1: 'ref' is not declared in schema.json ${NOT_DECLARED}`,
      `integrations/demo/templates/push.hbs: line 2: 'reff' is not declared in schema.json ${NOT_DECLARED}`,
    ]);
  });

  it("checks an `each` event's template against the array items, by pointer or dotted path", () => {
    const files = goodPlugin(
      "demo",
      {
        "schema.json": schema(),
        "templates/hello.hbs": undefined,
        "templates/commit.hbs": "{{id}} {{item.id}} {{title}} {{idd}}",
        "templates/row.hbs": "{{n}} {{m}}",
      },
      { events: { commit: { each: "/commits" }, row: { each: "data.rows" } } },
    );
    expect(problemsOf(files)).toEqual([
      `integrations/demo/templates/commit.hbs: line 1: 'idd' is not declared in schema.json ${NOT_DECLARED}`,
      `integrations/demo/templates/row.hbs: line 1: 'm' is not declared in schema.json ${NOT_DECLARED}`,
    ]);
  });

  it("accepts a nested `each` pointer", () => {
    const files = goodPlugin(
      "demo",
      { "schema.json": schema(), "templates/hello.hbs": "{{n}}" },
      { events: { hello: { each: "/data/rows" } } },
    );
    expect(problemsOf(files)).toEqual([]);
  });

  it("reports an `each` path the schema does not declare, and then leaves that template unchecked", () => {
    const files = goodPlugin(
      "demo",
      { "schema.json": schema(), "templates/hello.hbs": "{{whatever}}" },
      { events: { hello: { each: "/lines" } } },
    );
    expect(problemsOf(files)).toEqual([
      "integrations/demo/integration.json: /events/hello/each: '/lines' is not declared in schema.json (or list it in transformOutputs)",
    ]);
  });

  it("leaves templates unchecked whose `each` walks a free-form array or a transform output", () => {
    const free = goodPlugin(
      "demo",
      { "schema.json": schema(), "templates/hello.hbs": "{{whatever}}" },
      { events: { hello: { each: "anything" } } },
    );
    expect(problemsOf(free)).toEqual([]);
    const output = goodPlugin(
      "demo",
      {
        "schema.json": schema(),
        "templates/hello.hbs": "{{whatever}}",
        "transform.js": "exports.default = () => ({});",
      },
      { transform: "transform.js", transformOutputs: ["rows"], events: { hello: { each: "rows.list" } } },
    );
    expect(problemsOf(output)).toEqual([]);
  });

  it("checks a template shared by several events against all their schemas together", () => {
    const shared = goodPlugin(
      "demo",
      {
        "schema.json": schema(),
        "templates/hello.hbs": undefined,
        "templates/shared.hbs": "{{id}} {{item.x}} {{title}}",
      },
      { eventDefaults: { template: "shared" }, events: { a: {}, b: { each: "commits" }, c: {} } },
    );
    expect(problemsOf(shared)).toEqual([]);
    const oneFree = goodPlugin(
      "demo",
      { "schema.json": schema(), "templates/hello.hbs": undefined, "templates/shared.hbs": "{{nope}}" },
      { eventDefaults: { template: "shared" }, events: { a: {}, b: { each: "anything" }, c: {} } },
    );
    expect(problemsOf(oneFree)).toEqual([]);
  });

  it("does not read the built-in block helpers as payload fields", () => {
    const files = goodPlugin("demo", {
      "templates/hello.hbs": "{{if}}{{unless}}{{each}}{{with}}{{lookup}}{{log}}{{bold}}",
    });
    expect(problemsOf(files)).toEqual([]);
  });

  it("reports a template that does not parse only once, as a compile error", () => {
    const parse =
      "Parse error on line 1: {{title}{{nope}} -------^ Expecting 'CLOSE_RAW_BLOCK', 'CLOSE', 'CLOSE_UNESCAPED', 'OPEN_SEXPR', 'CLOSE_SEXPR', 'ID', 'OPEN_BLOCK_PARAMS', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', 'SEP', got 'INVALID'";
    expect(problemsOf(goodPlugin("demo", { "templates/hello.hbs": "{{title}{{nope}}" }))).toEqual([
      `integrations/demo/templates/hello.hbs: ${parse}`,
    ]);
  });

  it("skips the path check when the schema does not compile", () => {
    expect(
      problemsOf(
        goodPlugin("demo", {
          "schema.json": JSON.stringify({ type: "nonsense", properties: { title: { type: "string" } } }),
          "templates/hello.hbs": "{{nope}}",
        }),
      ),
    ).toEqual([
      "integrations/demo/schema.json: schema does not compile: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf",
    ]);
  });
});

describe("loadIntegrations (a whole integrations directory)", () => {
  const integrationsDir = () => path.join(tmp.dir(), "integrations");

  it("loads every plugin folder in name order, skipping hidden and underscore folders and plain files", () => {
    writeFiles(path.join(integrationsDir(), "zeta"), goodPlugin("zeta"));
    writeFiles(path.join(integrationsDir(), "alpha"), goodPlugin("alpha"));
    for (const name of ["mid", "kilo", "bravo", "yankee", "delta"])
      writeFiles(path.join(integrationsDir(), name), goodPlugin(name));
    writeFiles(path.join(integrationsDir(), "_template"), { "integration.json": "broken" });
    writeFiles(path.join(integrationsDir(), ".cache"), { "integration.json": "broken" });
    writeFiles(integrationsDir(), { "README.md": "# plugins" });
    fs.symlinkSync(path.join(integrationsDir(), "README.md"), path.join(integrationsDir(), "link"));
    const loaded = loadIntegrations(integrationsDir());
    const names = ["alpha", "bravo", "delta", "kilo", "mid", "yankee", "zeta"];
    expect(loaded.map((i) => i.name)).toEqual(names);
    expect(loaded.map((i) => i.docPath)).toEqual(names.map((n) => `integrations/${n}/doc.md`));
  });

  it("collects the problems of all folders, in folder order, into one error", () => {
    writeFiles(path.join(integrationsDir(), "b"), goodPlugin("b", { "doc.md": undefined }));
    writeFiles(path.join(integrationsDir(), "a"), goodPlugin("x"));
    writeFiles(path.join(integrationsDir(), "ok"), goodPlugin("ok"));
    const err = errorOf(() => loadIntegrations(integrationsDir()));
    expect(err).toBe(
      "Invalid integrations (2 problems):\n" +
        "  integrations/a/integration.json: /name: 'x' must equal the folder name 'a'\n" +
        "  integrations/b/doc.md: file not found (every integration needs a doc page for bot owners)",
    );
  });

  it("labels problems relative to the given repository root", () => {
    writeFiles(path.join(integrationsDir(), "a"), goodPlugin("a", { "doc.md": undefined }));
    const nested = (root: string) => {
      try {
        loadIntegrations(integrationsDir(), root);
      } catch (err) {
        return (err as IntegrationLoadError).problems;
      }
      return [];
    };
    const line = "file not found (every integration needs a doc page for bot owners)";
    expect(nested(integrationsDir())).toEqual([`./a/doc.md: ${line}`]);
    expect(nested(path.dirname(tmp.dir()))).toEqual([`${path.basename(tmp.dir())}/integrations/a/doc.md: ${line}`]);
  });

  it("reports a missing integrations directory", () => {
    const missing = path.join(tmp.dir(), "nowhere");
    expect(errorOf(() => loadIntegrations(missing))).toBe(
      `Invalid integrations (1 problem):\n  ${missing}: integrations directory not found`,
    );
  });

  it("loads an empty integrations directory to no plugins", () => {
    fs.mkdirSync(integrationsDir());
    expect(loadIntegrations(integrationsDir())).toEqual([]);
  });
});

describe("loadIntegrationFolder", () => {
  it("labels problems and the doc path relative to the given repository root", () => {
    const dir = path.join(tmp.dir(), "plugins", "demo");
    writeFiles(dir, goodPlugin("demo"));
    expect(loadIntegrationFolder(dir, tmp.dir()).docPath).toBe("plugins/demo/doc.md");
    fs.rmSync(path.join(dir, "doc.md"));
    expect(errorOf(() => loadIntegrationFolder(dir, path.join(tmp.dir(), "plugins")))).toBe(
      "Invalid integrations (1 problem):\n  demo/doc.md: file not found (every integration needs a doc page for bot owners)",
    );
  });
});
