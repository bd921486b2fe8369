// The manifest validator as plain code: Ajv's standalone output for MANIFEST_SCHEMA, in
// src/webhooks/manifestValidator.generated.js. Compiling the schema took about 90 ms each time the
// loader's module loaded: every start, every render thread, every test file that loads plugins.
// Loading the generated code takes about 5 ms. `npm run manifest-validator` writes it (`-- --check`
// only exits 1 when it is stale); test/unit/manifestValidator.test.ts fails when MANIFEST_SCHEMA or
// Ajv changed without it.
import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import standaloneCode from "ajv/dist/standalone";
import { MANIFEST_SCHEMA, MANIFEST_VALIDATOR_OPTIONS } from "../webhooks/manifest";

export const MANIFEST_VALIDATOR_FILE = path.join(__dirname, "..", "webhooks", "manifestValidator.generated.js");

const BANNER =
  "// Generated from MANIFEST_SCHEMA (src/webhooks/manifest.ts) by `npm run manifest-validator`\n" +
  "// (src/tools/manifestValidator.ts): do not edit.\n";

/** The generated file's text for the current schema and Ajv version. */
export function manifestValidatorSource(): string {
  const ajv = new Ajv({ ...MANIFEST_VALIDATOR_OPTIONS, code: { source: true } });
  return `${BANNER}${standaloneCode(ajv, ajv.compile(MANIFEST_SCHEMA))}\n`;
}

function main(): void {
  const text = manifestValidatorSource();
  const current = fs.existsSync(MANIFEST_VALIDATOR_FILE) ? fs.readFileSync(MANIFEST_VALIDATOR_FILE, "utf8") : "";
  if (current === text) return;
  if (process.argv.includes("--check")) {
    process.stderr.write(
      `${path.relative(process.cwd(), MANIFEST_VALIDATOR_FILE)} is stale: run npm run manifest-validator\n`,
    );
    process.exit(1);
  }
  fs.writeFileSync(MANIFEST_VALIDATOR_FILE, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), MANIFEST_VALIDATOR_FILE)}\n`);
}

if (require.main === module) main();
