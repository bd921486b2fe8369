// Every plugin's schema.d.ts is what `npm run plugin-types` generates from its schema.json now:
// a schema edited without regenerating the type would let a transform read fields that are gone.
// The generator runs as the command does (prettier, which it formats with, does not load in Jest).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
const run = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "src/tools/pluginTypes.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });

describe("generated payload types (schema.d.ts)", () => {
  it("are up to date for every plugin, and say they are generated and by which command", () => {
    const result = run("--check");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("schema.d.ts: all up to date\n");
    expect(result.status).toBe(0);
    const text = fs.readFileSync(path.join(ROOT, "integrations", "helloworld", "schema.d.ts"), "utf8");
    expect(text.split("\n")[0]).toBe(
      "// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.",
    );
    expect(text).toContain("export interface Payload {\n  event?: string;\n  featured_title: string;");
  });

  it("--check names a plugin whose schema.json changed since and exits 1", () => {
    // On a copy of helloworld (inside the repository, so the generator finds its Prettier settings):
    // the real folder is never edited, so concurrent runs and tools do not see a stale file.
    fs.mkdirSync(path.join(ROOT, "test-output"), { recursive: true }); // absent in a clean clone
    const copy = fs.mkdtempSync(path.join(ROOT, "test-output", "plugin-types-"));
    try {
      fs.cpSync(path.join(ROOT, "integrations", "helloworld"), path.join(copy, "helloworld"), { recursive: true });
      expect(run("--check", "--dir", copy).status).toBe(0);
      const file = path.join(copy, "helloworld", "schema.d.ts");
      fs.writeFileSync(
        file,
        fs.readFileSync(file, "utf8").replace("featured_title: string;", "featured_title: number;"),
      );
      const result = run("--check", "--dir", copy);
      expect(result.status).toBe(1);
      expect(result.stderr).toBe("schema.d.ts out of date for: helloworld (run npm run plugin-types)\n");
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
