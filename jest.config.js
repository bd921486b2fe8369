// Jest: TypeScript through SWC (no type-checking here: `npm run typecheck` does that).
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } }] },
  testMatch: ["<rootDir>/test/**/*.test.ts", "<rootDir>/integrations/**/*.test.ts"],
  setupFiles: ["<rootDir>/test/setup.ts"],
  testTimeout: 30000,
};
