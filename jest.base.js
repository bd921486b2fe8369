// What every Jest project shares (jest.config.js's two tiers; Stryker runs its own test list on it).
// TypeScript through esbuild, transpile-only (test/esbuildTransform.js; `npm run typecheck` does the
// type-checking). @swc/jest was dropped: its platform packages are not all on our registry, which
// breaks `npm ci`; esbuild's come with tsx.
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.ts$": "<rootDir>/test/esbuildTransform.js" },
  testMatch: ["<rootDir>/test/**/*.test.ts", "<rootDir>/integrations/**/*.test.ts"],
  setupFiles: ["<rootDir>/test/pristineHttp.ts", "<rootDir>/test/setup.ts"],
  setupFilesAfterEnv: ["<rootDir>/test/setupAfterEnv.ts"],
  // Generous: a test file starts a server and migrates a fresh database in beforeAll, which on a
  // loaded 2-core machine (MariaDB DDL) can take tens of seconds. Speed is judged by the bench.
  testTimeout: 120000,
  // Stryker's sandbox copy of the project (npm run mutate) must not be seen as a second package.
  modulePathIgnorePatterns: ["<rootDir>/.stryker-tmp/"],
};
