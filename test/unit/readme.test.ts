// The error-code table of docs/http-contract.md and the error catalogue list the same codes.
import fs from "node:fs";
import path from "node:path";
import { ERROR_STATUS } from "../../src/errors";

it("documents every error code the server emits, with its status", () => {
  const doc = fs.readFileSync(path.join(__dirname, "../../docs/http-contract.md"), "utf8");
  const start = doc.indexOf("\n## Error codes\n");
  expect(start).toBeGreaterThan(-1);
  const next = doc.indexOf("\n## ", start + 1);
  const section = doc.slice(start, next < 0 ? undefined : next);
  const missing = Object.entries(ERROR_STATUS).filter(
    ([code, status]) => !new RegExp(`\\| \`${code}\` \\| ${status}\\b`).test(section),
  );
  expect(missing.map(([code, status]) => `${code} (${status})`)).toEqual([]);
});
