// The loader validates manifests with generated code (src/webhooks/manifestValidator.generated.js):
// it must be what `npm run manifest-validator` writes from MANIFEST_SCHEMA now, and answer as the
// schema compiled afresh does, errors included (the loader turns them into problem lines).
import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import { MANIFEST_VALIDATOR_FILE, manifestValidatorSource } from "../../src/tools/manifestValidator";
import { MANIFEST_SCHEMA, MANIFEST_VALIDATOR_OPTIONS } from "../../src/webhooks/manifest";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the generated CommonJS module
const generated = require(MANIFEST_VALIDATOR_FILE) as ((data: unknown) => boolean) & { errors?: unknown };
const compiled = new Ajv(MANIFEST_VALIDATOR_OPTIONS).compile(MANIFEST_SCHEMA);

describe("the generated manifest validator", () => {
  it("is up to date with MANIFEST_SCHEMA and says it is generated, and by which command", () => {
    const text = fs.readFileSync(MANIFEST_VALIDATOR_FILE, "utf8");
    expect(text === manifestValidatorSource()).toBe(true);
    expect(text.split("\n")[0]).toContain("Generated from MANIFEST_SCHEMA");
    expect(text.split("\n")[0]).toContain("npm run manifest-validator");
  });

  it("answers every plugin's manifest, and broken ones, as the compiled schema does", () => {
    const dir = path.join(__dirname, "..", "..", "integrations");
    const manifests = fs
      .readdirSync(dir)
      .filter((name) => fs.existsSync(path.join(dir, name, "integration.json")))
      .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name, "integration.json"), "utf8")));
    expect(manifests.length).toBeGreaterThan(100);
    const [first] = manifests;
    const broken = [
      {},
      { ...first, name: "Not A Name", unknownField: 1 },
      { ...first, events: { push: { template: 7 } } },
      { ...first, eventSource: { kind: "nowhere" }, categories: "ci" },
    ];
    for (const manifest of broken) expect(compiled(manifest)).toBe(false);
    for (const manifest of [...manifests, ...broken]) {
      expect(generated(manifest)).toBe(compiled(manifest));
      expect(generated.errors ?? null).toEqual(compiled.errors ?? null);
    }
  });
});
