// Start-up loading: a malformed plugin stops start-up with lines naming the file and problem.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { IntegrationLoadError } from "../../src/webhooks/loader";
import { loadIntegrationsForApp } from "../../src/webhooks/startup";

function writePlugin(root: string, folder: string, files: Record<string, string | undefined>): void {
  for (const [file, text] of Object.entries(files)) {
    if (text === undefined) continue;
    fs.mkdirSync(path.dirname(path.join(root, folder, file)), { recursive: true });
    fs.writeFileSync(path.join(root, folder, file), text);
  }
}

const manifest = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name,
    displayName: "X",
    description: "x",
    categories: ["misc"],
    eventSource: { fixed: "hello" },
    defaultTopic: "t",
    events: { hello: {} },
    ...extra,
  });
const good = (name: string) => ({
  "integration.json": manifest(name),
  "schema.json": '{"type":"object"}',
  "templates/hello.hbs": "{{bold title}}",
  "doc.md": "# X",
});

describe("integration loader", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-plugins-"));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const dir = () => path.join(tmp, "integrations");

  async function problems(): Promise<string[]> {
    try {
      await loadIntegrationsForApp({ integrationsDir: dir() });
    } catch (err) {
      expect(err).toBeInstanceOf(IntegrationLoadError);
      expect((err as Error).message).toContain("Invalid integrations");
      return (err as IntegrationLoadError).problems;
    }
    throw new Error("start-up did not fail");
  }

  it("loads well-formed plugins", async () => {
    writePlugin(dir(), "fine", good("fine"));
    const registry = await loadIntegrationsForApp({ integrationsDir: dir() });
    expect(registry.names()).toEqual(["fine"]);
  });

  it("names each broken file and what is wrong with it", async () => {
    writePlugin(dir(), "fine", good("fine"));
    writePlugin(dir(), "badfield", {
      ...good("badfield"),
      "integration.json": manifest("badfield", { categories: ["nonsense"], colour: "red" }),
    });
    writePlugin(dir(), "badhelper", { ...good("badhelper"), "templates/hello.hbs": "{{shout title}}" });
    writePlugin(dir(), "nodoc", { ...good("nodoc"), "doc.md": undefined });
    writePlugin(dir(), "misnamed", good("othername"));
    writePlugin(dir(), "extra", {
      ...good("extra"),
      "templates/unused.hbs": "x",
      "templates/hello.hbs": "{{> missing}}",
    });
    writePlugin(dir(), "notemplate", {
      ...good("notemplate"),
      "integration.json": manifest("notemplate", { events: { hello: {}, bye: { topic: "{{#if}}" } } }),
    });
    writePlugin(dir(), "badjson", { ...good("badjson"), "integration.json": "{ nope" });
    const lines = await problems();
    const has = (re: RegExp) => expect(lines.find((l) => re.test(l)) ?? lines).toEqual(expect.stringMatching(re));
    has(/^integrations\/badfield\/integration\.json: \/categories\/0: must be equal to one of the allowed values$/);
    has(/^integrations\/badfield\/integration\.json: \/: unknown field 'colour'$/);
    has(/^integrations\/badhelper\/templates\/hello\.hbs: .*unknown helper shout/);
    has(/^integrations\/nodoc\/doc\.md: file not found/);
    has(/^integrations\/misnamed\/integration\.json: \/name: 'othername' must equal the folder name 'misnamed'$/);
    has(/^integrations\/extra\/templates\/unused\.hbs: not used by any event/);
    has(
      /^integrations\/extra\/templates\/hello\.hbs: uses partial 'missing' but templates\/_missing\.hbs does not exist$/,
    );
    has(/^integrations\/notemplate\/integration\.json: \/events\/bye: template templates\/bye\.hbs not found$/);
    has(/^integrations\/notemplate\/integration\.json: \/events\/bye\/topic: /);
    has(/^integrations\/badjson\/integration\.json: not valid JSON: /);
    expect(lines.some((l) => l.includes("/fine/"))).toBe(false);
  });

  it("refuses a branchPath without a documented branches option and reserved option names", async () => {
    writePlugin(dir(), "git", {
      ...good("git"),
      "integration.json": manifest("git", { branchPath: "ref", urlOptions: [{ key: "stream", description: "no" }] }),
    });
    expect(await problems()).toEqual([
      "integrations/git/integration.json: /urlOptions: 'stream' is a framework parameter",
      "integrations/git/integration.json: /urlOptions: branchPath is set, so document a 'branches' URL option",
    ]);
  });

  it("refuses an api block whose token option is undocumented, or whose host or token name is unsafe", async () => {
    const api = {
      host: "api.acme.example",
      tokenOption: "token",
      authHeader: "Authorization",
      lookups: { item: "/v1/{id}" },
    };
    writePlugin(dir(), "acme", {
      ...good("acme"),
      "integration.json": manifest("acme", { api }),
      "templates/hello.hbs": "{{api.item.name}}",
    });
    writePlugin(dir(), "evil", {
      ...good("evil"),
      "integration.json": manifest("evil", {
        api: { ...api, host: "attacker.example:8080/x", tokenOption: "password" },
        urlOptions: [{ key: "password", description: "no" }],
      }),
    });
    const found = await problems();
    expect(found).toContain("integrations/acme/integration.json: /api/tokenOption: document 'token' in urlOptions");
    expect(found.filter((p) => p.startsWith("integrations/evil/integration.json: /api/host"))).toHaveLength(1);
    expect(found.filter((p) => p.startsWith("integrations/evil/integration.json: /api/tokenOption"))).toHaveLength(1);
    // Templates may read api.<lookup> without declaring it in schema.json.
    expect(found.filter((p) => p.includes("hello.hbs"))).toEqual([]);
  });
});
