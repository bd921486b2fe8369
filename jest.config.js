// Two tiers (Jest projects), run by `npm test` (scripts/test.ts): first "pure", then "e2e", each
// in parallel workers (e2e: cores + 2, at most 4; E2E_WORKERS=1 runs it in band).
//   pure: starts no server, database, process or browser: plugin fixture replay and transform
//         tests (integrations/**), unit tests (test/unit/**), Markdown (test/markdown/**) and the
//         pure files listed in PURE_FILES.
//   e2e:  everything else (servers over HTTP, SQLite/MariaDB, Redis, child processes, Chromium).
// How a new test file chooses its tier: by where it lives. Put a pure test under test/unit/ (or
// integrations/<name>/); anywhere else it is end to end, which is always safe, only slower.
// testTimeout is a global option (not a project's): set once below.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest reads this CommonJS file as is
const { testTimeout, ...base } = require("./jest.base");

const PURE_DIRS = ["test/unit", "test/markdown", "integrations"];
// Pure tests that live beside the end-to-end ones of their area.
const PURE_FILES = [
  "test/http/params",
  ...[
    "body",
    "eventSource",
    "events",
    "fixtureCases",
    "fixtureNames",
    "glob",
    "helpers",
    "loader",
    "markdown",
    "paths",
    "pluginFolder",
    "pluginHelpers",
    "pluginVocabulary",
    "registry",
    "runPipeline",
    "signature",
    "templateHelpers",
    "templatePathsCheck",
  ].map((name) => `test/webhooks/${name}`),
];

const pure = [
  ...PURE_DIRS.map((dir) => `<rootDir>/${dir}/**/*.test.ts`),
  ...PURE_FILES.map((file) => `<rootDir>/${file}.test.ts`),
];

const escapeRegExp = (text) => text.replace(/[.+^${}()|[\]\\]/g, "\\$&");

module.exports = {
  testTimeout,
  projects: [
    { ...base, displayName: "pure", testMatch: pure },
    {
      ...base,
      displayName: "e2e",
      testPathIgnorePatterns: [
        "/node_modules/",
        ...PURE_DIRS.map((dir) => `^<rootDir>/${escapeRegExp(dir)}/`),
        ...PURE_FILES.map((file) => `^<rootDir>/${escapeRegExp(file)}\\.test\\.ts$`),
      ],
    },
  ],
};
