// npm run test:plugin -- <name>: one plugin's tests: its fixture replay (pure, every case), the
// tests in integrations/<name>/ and its end-to-end sample (test/webhooks/fixtureSample.test.ts),
// on SQLite (or TEST_DATABASE_URL). UPDATE_FIXTURES=1 records its expected files.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [name, ...rest] = process.argv.slice(2);
if (!name || !fs.existsSync(path.join(__dirname, "..", "integrations", name, "integration.json"))) {
  process.stderr.write(`usage: npm run test:plugin -- <name>   (a folder under integrations/)\n`);
  process.exit(2);
}
const run = spawnSync(
  process.execPath,
  [
    require.resolve("jest/bin/jest"),
    "--runInBand",
    `/integrations/${name}/`,
    "test/unit/integrations\\.test\\.ts",
    "test/webhooks/fixtureSample\\.test\\.ts",
    ...rest,
  ],
  { stdio: "inherit", env: { ...process.env, TEST_PLUGIN: name } },
);
process.exit(run.status ?? 1);
