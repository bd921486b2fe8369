// Jest's TypeScript transform: esbuild (the compiler tsx runs the app with, so tests and `npm start`
// compile the sources alike), transpile-only like tsc's isolatedModules (`npm run typecheck` does
// the type-checking). It compiles a file in about a millisecond; the cache key is the source, its
// path, esbuild's version and these options, so an edit or an upgrade compiles again.
/* eslint-disable @typescript-eslint/no-require-imports -- Jest loads this CommonJS file as is */
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const esbuild = require("esbuild");

const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "tsconfig.json"), "utf8"));
const OPTIONS = {
  loader: "ts",
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: "external",
  // `import()` as tsc writes it for CommonJS (a require in a promise): Jest's module registry
  // answers requires, while a real import() in its sandbox needs --experimental-vm-modules.
  supported: { "dynamic-import": false },
  // The fields of tsconfig.json esbuild reads (class fields, decorators, JSX): as tsx reads them.
  tsconfigRaw: { compilerOptions },
};
const optionsKey = JSON.stringify([esbuild.version, OPTIONS]);

module.exports = {
  process(source, filename) {
    const { code, map } = esbuild.transformSync(source, { ...OPTIONS, sourcefile: filename });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return crypto
      .createHash("sha256")
      .update(optionsKey)
      .update("\0")
      .update(filename)
      .update("\0")
      .update(source)
      .digest("hex");
  },
};
