// The README's error-code table and the error catalogue list the same codes.
import fs from "node:fs";
import path from "node:path";
import { ERROR_STATUS } from "../../src/errors";

it("documents every error code the server emits, with its status", () => {
  const readme = fs.readFileSync(path.join(__dirname, "../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Error codes"), readme.indexOf("## API coverage"));
  const missing = Object.entries(ERROR_STATUS).filter(
    ([code, status]) => !new RegExp(`\\| \`${code}\` \\| ${status}\\b`).test(section),
  );
  expect(missing.map(([code, status]) => `${code} (${status})`)).toEqual([]);
});
