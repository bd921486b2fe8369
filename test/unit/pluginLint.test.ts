// The ESLint rule that keeps plugins from declaring their own copy of a framework helper names
// the same helpers the loader refuses (src/webhooks/frameworkParts.ts): one list, written twice
// because eslint.config.mjs cannot import TypeScript.
import fs from "node:fs";
import path from "node:path";
import { FRAMEWORK_FUNCTIONS } from "../../src/webhooks/frameworkParts";

describe("eslint.config.mjs, framework helper names", () => {
  it("lists exactly the loader's FRAMEWORK_FUNCTIONS", () => {
    const config = fs.readFileSync(path.join(__dirname, "..", "..", "eslint.config.mjs"), "utf8");
    const listed = /FRAMEWORK_HELPER_NAMES =\s*"\/\^\(([^)]*)\)\$\/"/.exec(config)?.[1].split("|");
    expect(listed).toEqual([...FRAMEWORK_FUNCTIONS]);
  });
});
