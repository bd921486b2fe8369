// Mutation testing (`npm run mutate`): StrykerJS with the Jest runner and the TypeScript checker,
// scoped to the webhook framework, the HTTP contract layer and the permission services.
// Incremental: results are reused from reports/stryker-incremental.json, so re-runs only test
// mutants whose code or covering tests changed. Reports (HTML + JSON) go to reports/ (git-ignored).
//
// MUTATE_SCOPE=narrow (`npm run mutate:narrow`) limits the run to glob.ts and events.ts, and
// MUTATE_SCOPE=framework to src/webhooks/ (both without the checker); the default is the whole scope.
// Every scope picks its Jest test files explicitly so the dry run does not execute the entire suite;
// "perTest" coverage then runs, for each mutant, only the tests that reach it.
import process from "node:process";

/** The plugin framework's fast tests: pure functions and plugin folders in temp dirs, no server. */
const webhookUnitTests = [
  "body",
  "eventSource",
  "events",
  "fixtureCases",
  "glob",
  "helpers",
  "markdown",
  "paths",
  "pluginFolder",
  "pluginHelpers",
  "registry",
  "runPipeline",
  "signature",
  "templateHelpers",
  "templatePaths",
  "templatePathsCheck",
].map((name) => `test/webhooks/${name}.test.ts`);

const scopes = {
  narrow: {
    mutate: ["src/webhooks/glob.ts", "src/webhooks/events.ts"],
    tests: ["test/webhooks/glob.test.ts", "test/webhooks/eventSource.test.ts"],
    // The TypeScript checker costs a full type-check before the first mutant; the quick scope skips it.
    checkers: [],
  },
  // The plugin framework (src/webhooks/) against its fast tests alone: no server, no database.
  framework: {
    mutate: ["src/webhooks/**/*.ts"],
    tests: webhookUnitTests,
    checkers: [],
  },
  // The whole scope of issue #14, scored against the fast tests written for these modules: pure
  // unit tests, the contract middleware on a small Koa app, and two files that use a real seeded
  // database (authentication, permission services). The slower end-to-end suites (webhook deliveries,
  // API endpoints) are left out to keep a run near an hour on 2 cores; they could only kill more.
  full: {
    mutate: [
      "src/webhooks/**/*.ts",
      "src/http/**/*.ts",
      "src/services/channels/subscriptionAccess.ts",
      "src/services/messages/access.ts",
    ],
    tests: [...webhookUnitTests, "test/http/*.test.ts", "test/api/permissionServices.test.ts"],
    checkers: ["typescript"],
  },
};
// MUTATE_FILES / MUTATE_TESTS (comma-separated paths or globs) override a scope's lists, so one
// module can be scored against its own tests while they are being written.
const baseScope = scopes[process.env.MUTATE_SCOPE ?? "full"] ?? scopes.full;
const listFromEnv = (name) => process.env[name]?.split(",").filter(Boolean);
const scope = {
  mutate: listFromEnv("MUTATE_FILES") ?? baseScope.mutate,
  tests: listFromEnv("MUTATE_TESTS") ?? baseScope.tests,
  checkers: process.env.MUTATE_CHECK === "0" ? [] : baseScope.checkers,
};
const scopeName = process.env.MUTATE_NAME ?? process.env.MUTATE_SCOPE ?? "full";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "jest",
  jest: {
    projectType: "custom",
    // The shared options without the two tiers: Stryker runs its own list of test files.
    configFile: "jest.base.js",
    // Servers start slowly on a loaded machine: hooks get more than the suite's 30 s.
    config: { testMatch: scope.tests.map((t) => `<rootDir>/${t}`), testTimeout: 120000 },
    enableFindRelatedTests: false,
  },
  checkers: scope.checkers,
  tsconfigFile: "tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: "perTest",
  mutate: scope.mutate,
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${scopeName}.json`,
  reporters: ["html", "json", "clear-text", "progress"],
  htmlReporter: { fileName: `reports/mutation/${scopeName}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${scopeName}/mutation.json` },
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  timeoutMS: 20000,
  // The dry run starts real servers on a shared, loaded machine: give it room.
  dryRunTimeoutMinutes: 30,
  timeoutFactor: 3,
  // One sandbox per named run, so runs of different modules can go on side by side.
  tempDirName: `.stryker-tmp/${scopeName}`,
  ignorePatterns: ["data", "dist", "coverage", "reports", "test-output", "bench/results"],
  cleanTempDir: true,
  thresholds: { high: 90, low: 80, break: null },
};
