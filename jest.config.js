// Jest: TypeScript through ts-jest, transpile-only (tsconfig's isolatedModules; fast; `npm run typecheck` does the
// type-checking). @swc/jest was dropped: its platform packages are not all on our registry,
// which breaks `npm ci`.
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  testMatch: ["<rootDir>/test/**/*.test.ts", "<rootDir>/integrations/**/*.test.ts"],
  setupFiles: ["<rootDir>/test/setup.ts"],
  testTimeout: 30000,
};
