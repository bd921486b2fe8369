// The plugin vocabulary that keeps plugins data rather than code: lookup tables, `:` families,
// integrations/_shared/, framework partials and helpers, and the loader's refusal of copies.
import path from "node:path";
import { IntegrationLoadError, loadIntegrationFolder, loadIntegrations } from "../../src/webhooks/loader";
import { runPipeline } from "../../src/webhooks/pipeline";
import type { Integration } from "../../src/webhooks/registry";
import { changeList, compileTemplate, durationBetween, firstText } from "../../src/webhooks/helpers";
import { goodPlugin, useTempDir, writeFiles, type Files } from "../support/pluginFolders";

const tmp = useTempDir("sb-plugin-vocabulary-");

function load(files: Files, name = "demo"): Integration {
  const dir = path.join(tmp.dir(), "integrations", name);
  writeFiles(dir, files);
  return loadIntegrationFolder(dir);
}

function problemsOf(files: Files, name = "demo"): string[] {
  try {
    load(files, name);
    return [];
  } catch (err) {
    if (!(err instanceof IntegrationLoadError)) throw err;
    return err.problems;
  }
}

/** The one message a delivery of `payload` renders to. */
function deliver(integration: Integration, payload: unknown, headers: Record<string, string> = {}) {
  const outcome = runPipeline(integration, { headers, query: {}, body: Buffer.from(JSON.stringify(payload)) });
  if (outcome.kind !== "messages") throw new Error(`not messages: ${outcome.kind}`);
  return outcome.messages[0];
}

const RESULTS = {
  result: {
    passed: { emoji: ":check:", word: "passed" },
    failed: { emoji: ":cross_mark:", word: "failed" },
    "*": { emoji: ":question:", word: "ended as {key}" },
  },
};
const statusSchema = JSON.stringify({ type: "object", properties: { status: { type: "string" } } });

describe("lookup tables", () => {
  const plugin = (template: string, extra: Record<string, unknown> = {}) =>
    goodPlugin(
      "demo",
      { "schema.json": statusSchema, "templates/hello.hbs": template },
      { tables: RESULTS, defaultTopic: '{{table "result" status "word"}}', ...extra },
    );

  it("renders a row's field, the `*` row for any other key with {key} filled in, in messages and topics", () => {
    const integration = load(plugin('{{table "result" status "emoji"}} Build {{bold (table "result" status "word")}}'));
    expect(deliver(integration, { status: "passed" })).toEqual({
      topic: "passed",
      content: ":check: Build **passed**",
    });
    expect(deliver(integration, { status: "on_hold" })).toEqual({
      topic: "ended as on_hold",
      content: ":question: Build **ended as on_hold**",
    });
  });

  it("gives the whole row without a field (for #with), and nothing for an unknown key without a `*` row", () => {
    const integration = load(
      plugin('{{#with (table "result" status)}}{{emoji}} {{word}}{{else}}no row{{/with}}', {
        tables: { result: { passed: RESULTS.result.passed } },
        defaultTopic: "demo",
      }),
    );
    expect(deliver(integration, { status: "passed" }).content).toBe(":check: passed");
    expect(deliver(integration, { status: "toString" }).content).toBe("no row");
  });

  it("refuses rows with other fields than the table's first row, naming the plugin, file and key", () => {
    const tables = { result: { passed: { emoji: ":check:", word: "passed" }, failed: { emoji: ":x:", verb: "f" } } };
    expect(problemsOf(plugin('{{table "result" status "emoji"}}', { tables }))).toEqual([
      "integrations/demo/integration.json: /tables/result/failed: has no 'word' and has 'verb' too " +
        "(every row of table 'result' has the fields of its first row 'passed': emoji, word)",
    ]);
  });

  it("refuses a template that names an undeclared table or field, or does not quote the name", () => {
    expect(problemsOf(plugin('{{table "results" status "emoji"}}\n{{table "result" status "colour"}}'))).toEqual([
      "integrations/demo/templates/hello.hbs: line 1: table 'results' is not declared in integration.json /tables (declared: result)",
      "integrations/demo/templates/hello.hbs: line 2: table 'result' has no field 'colour' (its fields: emoji, word)",
    ]);
    expect(problemsOf(plugin("{{table status}}", { defaultTopic: '{{table "result" status 3}}' }))).toEqual([
      'integrations/demo/templates/hello.hbs: line 1: {{table}} takes a quoted table name and a key: {{table "name" key "field"}}',
      "integrations/demo/integration.json: /defaultTopic: line 1: the field of table 'result' must be quoted: one of emoji, word",
    ]);
  });

  it("refuses an empty table and a row that is not all text", () => {
    expect(problemsOf(plugin("x", { tables: { result: {} } }))[0]).toBe(
      "integrations/demo/integration.json: /tables/result: must NOT have fewer than 1 properties",
    );
    expect(problemsOf(plugin("x", { tables: { result: { a: { emoji: 1 } } } }))[0]).toBe(
      "integrations/demo/integration.json: /tables/result/a/emoji: must be string",
    );
  });
});

describe("event families across `:` keys", () => {
  const manifest = {
    eventSource: { header: "X-Event" },
    families: {
      "issue:*": { template: "issue", topic: "issue {{title}}" },
      "issue:comment:*": { template: "comment" },
    },
    events: { "issue:created": {}, "issue:updated": { topic: "updated {{title}}" }, "issue:comment:added": {} },
  };
  const files = {
    "templates/hello.hbs": undefined,
    "templates/issue.hbs": "Issue {{title}}",
    "templates/comment.hbs": "Comment on {{title}}",
  };

  it("gives every `issue:` event the family's fields below its own, nearest family first", () => {
    const integration = load(goodPlugin("demo", files, manifest));
    const as = (event: string) => deliver(integration, { title: "T" }, { "x-event": event });
    expect(as("issue:created")).toEqual({ topic: "issue T", content: "Issue T" });
    expect(as("issue:updated")).toEqual({ topic: "updated T", content: "Issue T" });
    expect(as("issue:comment:added")).toEqual({ topic: "issue T", content: "Comment on T" });
  });

  it("is not an event: a delivery of an undeclared `issue:` event stays unsupported", () => {
    const integration = load(goodPlugin("demo", files, manifest));
    const outcome = runPipeline(integration, {
      headers: { "x-event": "issue:deleted" },
      query: {},
      body: Buffer.from("{}"),
    });
    expect(outcome.kind).toBe("unsupported");
  });

  it("refuses a family no event belongs to, and a family key without `:*`", () => {
    expect(problemsOf(goodPlugin("demo", {}, { families: { "issue:*": { topic: "x" } } }))).toEqual([
      "integrations/demo/integration.json: /families/issue:*: no event in /events starts with 'issue:'",
    ]);
    expect(problemsOf(goodPlugin("demo", {}, { families: { issue: { topic: "x" } } }))[0]).toBe(
      'integrations/demo/integration.json: /families: must match pattern "^[^*]+:\\*$"',
    );
  });
});

describe("integrations/_shared/", () => {
  function loadAll(plugins: Record<string, Files>): Integration[] {
    const root = path.join(tmp.dir(), "integrations");
    for (const [name, files] of Object.entries(plugins)) writeFiles(path.join(root, name), files);
    return loadIntegrations(root);
  }

  it("is not a plugin, and its templates serve each plugin that names it under `shared`", () => {
    const shared = { "templates/hello.hbs": undefined };
    const loaded = loadAll({
      _shared: { "applet/templates/hello.hbs": "Shared {{title}}" },
      one: goodPlugin("one", shared, { shared: ["applet"] }),
      two: goodPlugin("two", shared, { shared: ["applet"] }),
    });
    expect(loaded.map((i) => i.name)).toEqual(["one", "two"]);
    for (const integration of loaded) expect(deliver(integration, { title: "x" }).content).toBe("Shared x");
  });

  it("refuses a missing shared folder and a template that is both the plugin's and shared", () => {
    let problems: string[] = [];
    try {
      loadAll({
        _shared: { "applet/templates/hello.hbs": "Shared" },
        one: goodPlugin("one", {}, { shared: ["applet"] }),
        two: goodPlugin("two", {}, { shared: ["nothere"] }),
      });
    } catch (err) {
      problems = (err as IntegrationLoadError).problems;
    }
    expect(problems).toEqual([
      "integrations/one/templates/hello.hbs: _shared/applet/templates/hello.hbs has the same name (one of them must go)",
      "integrations/two/integration.json: /shared: _shared/nothere/templates/ not found",
    ]);
  });
});

describe("framework partials", () => {
  const schema = JSON.stringify({
    type: "object",
    properties: {
      branch: { type: "string" },
      sha: { type: "string" },
      url: { type: "string" },
      msg: { type: "string" },
    },
  });

  it("renders the CI commit line from the values handed to it", () => {
    const integration = load(
      goodPlugin("demo", {
        "schema.json": schema,
        "templates/hello.hbs": 'Build\n{{> ciCommit branch=branch sha=sha url=url message=msg author="Ann"}}',
      }),
    );
    const payload = { branch: "main", sha: "abc1234", url: "https://git.example/c/abc1234", msg: "Fix it\nmore" };
    expect(deliver(integration, payload).content).toBe(
      "Build\nBranch `main` · commit [abc1234](https://git.example/c/abc1234) Fix it by Ann",
    );
    expect(deliver(integration, { sha: "abc1234" }).content).toBe("Build\nCommit abc1234 by Ann");
  });

  it("refuses a plugin partial that takes a framework partial's name", () => {
    expect(problemsOf(goodPlugin("demo", { "templates/_ciCommit.hbs": "mine" }))).toEqual([
      "integrations/demo/templates/_ciCommit.hbs: 'ciCommit' is a framework partial: use {{> ciCommit}} as it is, or name yours differently",
    ]);
  });
});

describe("transforms that copy the framework", () => {
  const withTransform = (source: string) =>
    goodPlugin("demo", { "transform.ts": source }, { transform: "transform.ts" });

  it("are refused when they declare a framework helper's name", () => {
    expect(
      problemsOf(withTransform("const firstText = (a: unknown) => a;\nexport default () => ({ x: firstText(1) });")),
    ).toEqual([
      "integrations/demo/transform.ts: declares 'firstText', a framework function: import it from src/webhooks/plugin instead",
    ]);
  });

  it("are refused when they re-implement nonEmptyText under another name", () => {
    expect(
      problemsOf(
        withTransform(
          'const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);\n' +
            "export default (p: unknown) => ({ t: text(p) });",
        ),
      ),
    ).toEqual([
      "integrations/demo/transform.ts: re-implements nonEmptyText (a trimmed non-empty string; scalarText also takes numbers): import it from src/webhooks/plugin",
    ]);
  });

  it("are refused when they hold a status → emoji table", () => {
    const table =
      'const R = { a: { emoji: ":check:" }, b: { emoji: ":x:" }, c: { emoji: ":gear:" } };\nexport default () => ({ r: R });';
    expect(problemsOf(withTransform(table))).toEqual([
      'integrations/demo/transform.ts: has 3 emoji rows: a status → emoji table belongs in integration.json "tables", read with {{table}}',
    ]);
  });
});

describe("helpers", () => {
  const render = (source: string, view: unknown) => compileTemplate(source)(view, {}, {});

  it("firstText: the first non-empty text, trimmed; numbers and objects are not text", () => {
    expect(firstText(undefined, "  ", 3, { a: 1 }, " b ", "c")).toBe("b");
    expect(firstText(null, "")).toBeUndefined();
    expect(render('{{default (firstText topic subject) "none"}}', { topic: {}, subject: " S*" })).toBe("S\\*");
  });

  it("changeList: one line per change, (none) for a missing side, updated for long texts, lists as code", () => {
    const changes = [
      { field: "state", from: "started", to: "finished" },
      { field: "owner", to: "Ann*B" },
      { field: "description", long: true },
      { field: "labels", added: ["a"], removed: ["b", "c"] },
      { field: "tags", added: [], removed: ["x"] },
    ];
    expect(changeList(changes)).toBe(
      [
        "* **state:** started → finished",
        "* **owner:** (none) → Ann\\*B",
        "* **description:** updated",
        "* **labels:** added `a`; removed `b`, `c`",
        "* **tags:** removed `x`",
      ].join("\n"),
    );
    expect(render("{{changeList changes}}", { changes: changes.slice(0, 1) })).toBe("* **state:** started → finished");
    expect(changeList("not a list")).toBe("");
  });

  it("startsWith and trimPrefix: one leading prefix tested or removed", () => {
    expect(render("{{#if (startsWith m c)}}yes{{else}}no{{/if}}", { m: "TypeError: x", c: "TypeError" })).toBe("yes");
    expect(render("{{trimPrefix f p}}|{{trimPrefix g p}}", { f: "[R]/[R]/a.rb", g: "a.rb", p: "[R]/" })).toBe(
      "\\[R\\]/a.rb|a.rb",
    );
  });

  it("contains and trimSuffix: plain text tests and one trailing suffix removed", () => {
    expect(render('{{#if (contains (lower t) "db-1")}}yes{{else}}no{{/if}}', { t: "Agent on DB-1 down" })).toBe("yes");
    expect(render('{{#if (contains t "x")}}yes{{else}}no{{/if}}', {})).toBe("no");
    expect(
      render('{{trimSuffix u "/"}}|{{trimSuffix v "/"}}', { u: "https://a.example//", v: "https://a.example" }),
    ).toBe("https://a.example/|https://a.example");
  });

  it("segmentAfter: the URL segment after the last one of that name, nothing when there is none", () => {
    const t = '{{segmentAfter u "builds"}}';
    expect(render(t, { u: "https://ci.example/#/builders/2/builds/7" })).toBe("7");
    expect(render(t, { u: "https://ci.example/#builders/2/builds/7?tab=logs" })).toBe("7");
    expect(render(t, { u: "https://ci.example/builds/3/builds/9/" })).toBe("9");
    expect(render(t, { u: "https://ci.example/#/builders/2/builds/" })).toBe("");
    expect(render(t, { u: "https://ci.example/#/builders/2" })).toBe("");
    expect(render(t, {})).toBe("");
  });

  it("durationBetween and compactDuration: compact words, nothing for a missing or reversed span", () => {
    expect(durationBetween("2026-01-01T10:00:00Z", "2026-01-01T11:03:10Z")).toBe("1 h 3 min");
    expect(durationBetween("2026-01-01T10:00:05Z", "2026-01-01T10:00:00Z")).toBeUndefined();
    expect(durationBetween(undefined, "2026-01-01T10:00:00Z")).toBeUndefined();
    expect(render("{{compactDuration s}}|{{compactDuration t}}", { s: 125, t: "125" })).toBe("2 min 5 s|");
    expect(render("{{durationBetween a b}}", { a: "2026-01-01T10:00:00Z", b: "2026-01-01T10:00:45Z" })).toBe("45 s");
  });
});

describe("outputs", () => {
  const schema = JSON.stringify({
    type: "object",
    properties: { started: { type: "string" }, finished: { type: "string" }, by: { type: "string" } },
  });

  it("adds view fields from plain-text templates, in order, each seeing those above it; an empty one is absent", () => {
    const integration = load(
      goodPlugin(
        "demo",
        {
          "schema.json": schema,
          "templates/hello.hbs": "Done{{#if took}} in {{took}}{{/if}}{{#if who}}, by {{who}}{{/if}}",
        },
        {
          outputs: { took: "{{durationBetween started finished}}", who: '{{#if (ne by "None")}}{{by}}{{/if}}' },
          defaultTopic: "{{#if took}}took {{took}}{{else}}none{{/if}}",
        },
      ),
    );
    expect(
      deliver(integration, { started: "2026-01-01T10:00:00Z", finished: "2026-01-01T10:02:05Z", by: "a*b" }),
    ).toEqual({
      topic: "took 2 min 5 s",
      content: "Done in 2 min 5 s, by a\\*b",
    });
    expect(deliver(integration, { by: "None" })).toEqual({ topic: "none", content: "Done" });
  });

  it("checks output templates against the schema like any other", () => {
    expect(problemsOf(goodPlugin("demo", {}, { outputs: { x: "{{nothere}}" } }))).toEqual([
      "integrations/demo/integration.json: /outputs/x: line 1: 'nothere' is not declared in schema.json " +
        "(declare it as an optional property, or list the transform's output in transformOutputs)",
    ]);
  });
});
