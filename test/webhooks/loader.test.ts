// Start-up loading: a malformed plugin stops start-up with lines naming the file and problem.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { IntegrationLoadError, loadIntegrationFolder } from "../../src/webhooks/loader";
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

  it("leaves out the authoring checks when asked (a render thread, for folders the server checked)", () => {
    const sloppy = {
      ...good("sloppy"),
      "schema.json": '{"type":"object","additionalProperties":false,"properties":{"title":{"type":"string"}}}',
      "templates/hello.hbs": "{{bold titel}}",
    };
    writePlugin(dir(), "sloppy", sloppy);
    const folder = path.join(dir(), "sloppy");
    expect(() => loadIntegrationFolder(folder)).toThrow("'titel' is not declared in schema.json");
    const unchecked = loadIntegrationFolder(folder, undefined, { checks: false });
    expect([...unchecked.events.keys()]).toEqual(["hello"]);
    // What does not compile still stops it: the thread needs working templates.
    writePlugin(dir(), "sloppy", { "templates/hello.hbs": "{{bold title" });
    expect(() => loadIntegrationFolder(folder, undefined, { checks: false })).toThrow(IntegrationLoadError);
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

  it("refuses a signed-time header whose signed text lacks or repeats a placeholder, or mixed with headerParts", async () => {
    const stamp = { header: "X-Stamp", signedText: "v0:{timestamp}:{body}", toleranceSeconds: 300 };
    const parts = { separator: ";", timestamp: "t", signature: "s", join: ":", toleranceSeconds: 5 };
    const signature = { header: "X-Sig", algorithm: "sha256", timestampHeader: stamp };
    writePlugin(dir(), "fine", { ...good("fine"), "integration.json": manifest("fine", { signature }) });
    const variants: Record<string, unknown> = {
      notime: { ...signature, timestampHeader: { ...stamp, signedText: "v0:{body}" } },
      twobodies: { ...signature, timestampHeader: { ...stamp, signedText: "{timestamp}{body}{body}" } },
      both: { ...signature, headerParts: parts },
      token: { ...signature, algorithm: "token" },
      samehdr: { ...signature, timestampHeader: { ...stamp, header: "x-sig" } },
    };
    for (const [name, spec] of Object.entries(variants))
      writePlugin(dir(), name, { ...good(name), "integration.json": manifest(name, { signature: spec }) });
    expect((await problems()).sort()).toEqual([
      "integrations/both/integration.json: /signature/timestampHeader: headerParts already signs a time: use one of the two",
      "integrations/notime/integration.json: /signature/timestampHeader/signedText: must hold {timestamp} exactly once",
      "integrations/samehdr/integration.json: /signature/timestampHeader/header: must differ from the signature header",
      'integrations/token/integration.json: /signature/timestampHeader: a "token" signature has no signed text',
      "integrations/twobodies/integration.json: /signature/timestampHeader/signedText: must hold {body} exactly once",
    ]);
  });

  it("refuses signed texts, payload digests and ECDSA signatures declared in ways that cannot be verified", async () => {
    const form = { contentType: "form-json", formField: "payload" };
    const url = { header: "X-Sig", algorithm: "sha1", encoding: "base64", signedText: "{url}{formFields}" };
    const inBody = { field: "event.hash", algorithm: "sha256", signedText: "{event.time}{event.type}" };
    const ecdsa = { header: "X-Sig", algorithm: "ecdsa-p256-sha256" };
    const stamp = { header: "X-Stamp", signedText: "{timestamp}{body}", toleranceSeconds: 600 };
    for (const [name, signature] of Object.entries({
      urlok: url,
      bodyok: inBody,
      ecdsaok: { ...ecdsa, timestampHeader: stamp },
    }))
      writePlugin(dir(), name, { ...good(name), "integration.json": manifest(name, { ...form, signature }) });
    const variants: Record<string, [Record<string, unknown>, Record<string, unknown>?]> = {
      neither: [{ algorithm: "sha256" }],
      both: [{ ...inBody, header: "X-Sig" }],
      nofields: [{ ...inBody, signedText: undefined }],
      bodyinbody: [{ ...inBody, signedText: "{body}{event.time}" }],
      tokenfield: [{ ...inBody, algorithm: "token" }],
      ecdsafield: [{ ...inBody, algorithm: "ecdsa-p256-sha256" }],
      stamped: [{ ...inBody, timestampHeader: stamp }],
      unknown: [{ ...url, signedText: "{url}{event.time}" }],
      twice: [{ ...url, signedText: "{url}{url}" }],
      notform: [url, {}],
      nothing: [{ ...url, signedText: "plain" }],
      mixed: [{ ...url, timestampHeader: stamp }],
      tokentext: [{ ...url, algorithm: "token" }],
      hexecdsa: [{ ...ecdsa, encoding: "hex", prefix: "e=" }],
      extra: [{ ...ecdsa, timestampHeader: { ...stamp, signedText: "{timestamp}{url}{body}" } }],
    };
    for (const [name, [signature, extra]] of Object.entries(variants))
      writePlugin(dir(), name, {
        ...good(name),
        "integration.json": manifest(name, { ...(extra ?? form), signature }),
      });
    const at = (name: string, what: string) => `integrations/${name}/integration.json: /signature${what}`;
    expect((await problems()).sort()).toEqual(
      [
        at(
          "neither",
          ": give exactly one of header (the digest in a request header) and field (the digest in the payload)",
        ),
        at(
          "both",
          ": give exactly one of header (the digest in a request header) and field (the digest in the payload)",
        ),
        at(
          "nofields",
          "/field: needs signedText: the payload fields the digest covers (it cannot cover the body holding it)",
        ),
        at("bodyinbody", "/signedText: {body}: with a digest in the payload, placeholders are payload paths"),
        at("tokenfield", '/field: a digest in the payload is an HMAC: not with "token"'),
        at("tokenfield", '/signedText: a "token" signature has no signed text'),
        at("ecdsafield", '/field: a digest in the payload is an HMAC: not with "ecdsa-p256-sha256"'),
        at("stamped", "/field: headerParts and timestampHeader read headers: not with a digest in the payload"),
        at("stamped", "/signedText: timestampHeader has its own signedText: use that one"),
        at("unknown", "/signedText: {event.time} is not a placeholder here (use {body}, {url} or {formFields})"),
        at("twice", "/signedText: must hold {url} at most once"),
        at("notform", '/signedText: {formFields} needs "contentType": "form" or "form-json"'),
        at("nothing", "/signedText: must hold at least one placeholder"),
        at("mixed", "/signedText: timestampHeader has its own signedText: use that one"),

        at("tokentext", '/signedText: a "token" signature has no signed text'),
        at("hexecdsa", "/encoding: an ECDSA signature is base64 DER: leave encoding out"),
        at("hexecdsa", "/prefix: not with an ECDSA signature"),
        at("extra", "/timestampHeader/signedText: {url} is not a placeholder here (use {timestamp} and {body})"),
      ].sort(),
    );
  });

  it("refuses fixed option values with a default outside them, with jsonPath, or blank", async () => {
    const option = { key: "mode", description: "m", values: ["a", "b"] };
    writePlugin(dir(), "fine", {
      ...good("fine"),
      "integration.json": manifest("fine", { urlOptions: [{ ...option, default: "b" }] }),
    });
    writePlugin(dir(), "bad", {
      ...good("bad"),
      "integration.json": manifest("bad", {
        urlOptions: [
          { ...option, default: "c" },
          { ...option, key: "path", jsonPath: true },
        ],
      }),
    });
    writePlugin(dir(), "blank", {
      ...good("blank"),
      "integration.json": manifest("blank", { urlOptions: [{ ...option, values: ["a", " "] }] }),
    });
    const found = await problems();
    expect(found.filter((p) => !p.includes("/blank/"))).toEqual([
      "integrations/bad/integration.json: /urlOptions/0/default: 'c' is not one of its values",
      "integrations/bad/integration.json: /urlOptions/1: values and jsonPath exclude each other",
    ]);
    expect(
      found.filter((p) => p.startsWith("integrations/blank/integration.json: /urlOptions/0/values/1")),
    ).toHaveLength(1);
  });
});
