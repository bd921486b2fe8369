// Template paths checked against schema.json at load (CONTRACT.md item 9), with real plugin
// folders in a temporary directory loaded as the server loads them, and `npm run
// check-integrations` refusing the same typo.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { IntegrationLoadError, loadIntegrations } from "../../src/webhooks/loader";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

const schema = {
  type: "object",
  required: ["monitor"],
  properties: {
    monitor: { type: "object", properties: { name: { type: "string" }, url: { type: "string" } } },
    checks: { type: "array", items: { $ref: "#/$defs/check" } },
    extra: { type: "object" },
    kind: { type: "string" },
  },
  $defs: {
    check: { type: "object", properties: { label: { type: "string" }, ok: { type: "boolean" } } },
    down: { properties: { reason: { type: "string" } } },
  },
};

function plugin(root: string, templates: Record<string, string>, manifest: Record<string, unknown> = {}): string {
  const dir = path.join(root, "integrations", "probe");
  fs.mkdirSync(path.join(dir, "templates"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "integration.json"),
    JSON.stringify({
      name: "probe",
      displayName: "Probe",
      description: "Template path checks.",
      categories: ["monitoring"],
      eventSource: { field: "kind" },
      defaultTopic: "{{monitor.name}}",
      events: { up: {}, down: { schema: "#/$defs/down" } },
      ...manifest,
    }),
  );
  fs.writeFileSync(path.join(dir, "schema.json"), JSON.stringify(schema));
  fs.writeFileSync(path.join(dir, "doc.md"), "# Probe\n");
  for (const [file, text] of Object.entries(templates)) fs.writeFileSync(path.join(dir, "templates", file), text);
  return path.join(root, "integrations");
}

function problems(dir: string): string[] {
  try {
    loadIntegrations(dir);
    return [];
  } catch (err) {
    if (!(err instanceof IntegrationLoadError)) throw err;
    return err.problems;
  }
}

describe("template paths against the schema", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-paths-"));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const ok = "{{monitor.name}} is up";

  it("a typo is a load error naming the template file, line and path", () => {
    const dir = plugin(tmp, { "up.hbs": "Monitor:\n{{link monitor.url monitor.nmae}}", "down.hbs": ok });
    expect(problems(dir)).toEqual([
      "integrations/probe/templates/up.hbs: line 2: 'monitor.nmae' is not declared in schema.json " +
        "(declare it as an optional property, or list the transform's output in transformOutputs)",
    ]);
  });

  it("follows #each into array items through $ref, #with into objects, and block params", () => {
    const dir = plugin(tmp, {
      "up.hbs":
        "{{#each checks}}{{label}} {{#if ok}}ok{{/if}} {{../monitor.name}}{{/each}}" +
        "{{#with monitor}}{{name}}{{/with}}{{#each checks as |c|}}{{c.label}}{{/each}}",
      "down.hbs": "{{#each checks}}{{lable}}{{/each}}\n{{#each checks as |c|}}{{c.okay}}{{/each}}",
    });
    expect(problems(dir).map((p) => p.split(" is not")[0])).toEqual([
      "integrations/probe/templates/down.hbs: line 1: 'lable'",
      "integrations/probe/templates/down.hbs: line 2: 'c.okay'",
    ]);
  });

  it("an event's own schema adds paths; free-form objects accept any sub-path; framework data is exempt", () => {
    const dir = plugin(tmp, {
      "up.hbs": "{{extra.anything.deep}} {{@event}} {{@options.x}} {{this.kind}} {{length checks}}",
      "down.hbs": "{{reason}} {{monitor.name}}",
    });
    expect(problems(dir)).toEqual([]);
  });

  it("topics are checked too, naming the manifest field", () => {
    const dir = plugin(tmp, { "up.hbs": ok, "down.hbs": ok }, { defaultTopic: "{{monitor.title}}" });
    expect(problems(dir)).toEqual([
      expect.stringMatching(
        /^integrations\/probe\/integration.json: \/defaultTopic: line 1: 'monitor.title' is not declared/,
      ),
    ]);
  });

  it("names a transform adds are declared with transformOutputs, and are then not checked", () => {
    fs.mkdirSync(path.join(tmp, "integrations", "probe"), { recursive: true });
    fs.writeFileSync(
      path.join(tmp, "integrations", "probe", "transform.ts"),
      "export default function transform() { return { summary: { text: 'x' } }; }\n",
    );
    const templates = { "up.hbs": "{{summary.text}}", "down.hbs": ok };
    expect(problems(plugin(tmp, templates, { transform: "transform.ts" }))).toEqual([
      expect.stringContaining("'summary.text' is not declared"),
    ]);
    expect(problems(plugin(tmp, templates, { transform: "transform.ts", transformOutputs: ["summary"] }))).toEqual([]);
  });

  it("npm run check-integrations fails on the same typo", async () => {
    const dir = plugin(tmp, { "up.hbs": "{{monitor.nmae}}", "down.hbs": ok });
    const result = await run(process.execPath, [require.resolve("tsx/cli"), "src/tools/checkIntegrations.ts"], {
      cwd: ROOT,
      env: { ...process.env, INTEGRATIONS_DIR: dir },
    }).then(
      (out) => ({ code: 0, stderr: out.stderr }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("templates/up.hbs: line 1: 'monitor.nmae' is not declared in schema.json");
  });
});
