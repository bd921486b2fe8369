// What every Jest project shares (jest.config.js's two tiers; Stryker runs its own test list on it).
// TypeScript through ts-jest, transpile-only (tsconfig's isolatedModules; fast; `npm run typecheck`
// does the type-checking). @swc/jest was dropped: its platform packages are not all on our
// registry, which breaks `npm ci`.
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  testMatch: ["<rootDir>/test/**/*.test.ts", "<rootDir>/integrations/**/*.test.ts"],
  setupFiles: ["<rootDir>/test/pristineHttp.ts", "<rootDir>/test/setup.ts"],
  setupFilesAfterEnv: ["<rootDir>/test/setupAfterEnv.ts"],
  // Generous: a test file starts a server and migrates a fresh database in beforeAll, which on a
  // loaded 2-core machine (MariaDB DDL) can take tens of seconds. Speed is judged by the bench.
  testTimeout: 120000,
  // Stryker's sandbox copy of the project (npm run mutate) must not be seen as a second package.
  modulePathIgnorePatterns: ["<rootDir>/.stryker-tmp/"],
};
