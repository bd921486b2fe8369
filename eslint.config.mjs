// ESLint (flat config): typescript-eslint's recommended rules, Prettier owns formatting, and the
// layering as import rules. The layers and why are in docs/architecture.md.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";
import regexp from "eslint-plugin-regexp";

// Import specifiers are matched as written (relative paths), by folder name.
const folder = (name) => `(^|/)${name}(/|$)`;

const NO_KNEX = { name: "knex", message: "SQL lives in src/db/: call a db/ function." };
const NO_KOA = ["koa", "@koa/router", "koa-body"].map((name) => ({
  name,
  message: "HTTP belongs to app.ts, src/http/ and src/api/ (the webhook route included).",
}));
const below = (layer, names) => ({
  regex: folder(`(${names.join("|")})`),
  message: `${layer} may not import ${names.map((n) => `${n}/`).join(", ")}: see docs/architecture.md.`,
});

// The framework helpers a plugin imports and never declares (FRAMEWORK_FUNCTIONS in src/webhooks/frameworkParts.ts).
const FRAMEWORK_HELPER_NAMES =
  "/^(changeList|codeBlock|colorMarker|commitList|compactDuration|durationBetween|firstLine|firstText|limitTopic|nonEmptyText|relativeTime|scalarText|sentenceList|shortSha)$/";

/** One no-restricted-imports setting per group of files (a later block replaces an earlier one). */
const restrict = (files, { paths = [], patterns = [], ignores = [] }) => ({
  files,
  ignores,
  rules: { "@typescript-eslint/no-restricted-imports": ["error", { paths, patterns }] },
});

// Routes and entry points reach the database only through services; row types may be named.
const THROUGH_SERVICES = {
  ...below("Routes and entry points", ["db"]),
  allowTypeImports: true,
};

export default tseslint.config(
  {
    ignores: [
      ...["node_modules/", "data/", "coverage/", "reports/", "dist/", "bench/results/", ".stryker-tmp/"],
      // Written by npm run manifest-validator (src/tools/manifestValidator.ts).
      "src/webhooks/manifestValidator.generated.js",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ["**/*.ts"],
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-restricted-imports": "off",
      // `_name` marks a binding kept on purpose (a destructured field left out, a required parameter).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },

  {
    // No request may block the event loop: a pattern that can backtrack or rescan super-linearly on
    // user-supplied text is an error (server code and plugins; tests and tools are exempt).
    files: ["src/**/*.ts", "integrations/**/*.ts"],
    ignores: ["integrations/**/*.test.ts"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
    },
  },
  {
    files: ["**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { module: "writable", require: "readonly", __dirname: "readonly" },
    },
  },
  {
    // The catalogue page's script runs in the browser (a classic script, no build step).
    files: ["src/web/static/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: Object.fromEntries(
        [
          "document",
          "window",
          "location",
          "history",
          "navigator",
          "sessionStorage",
          "fetch",
          "btoa",
          "TextEncoder",
          "URLSearchParams",
        ].map((name) => [name, "readonly"]),
      ),
    },
  },
  {
    // Tests read JSON response bodies, which have no static type.
    files: ["test/**/*.ts", "integrations/**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },

  // Anything in src/ not listed below (bootstrap, config, deps, errors, events/, tools/…).
  restrict(["src/**/*.ts"], { paths: [NO_KNEX, ...NO_KOA] }),
  restrict(["src/app.ts"], { paths: [NO_KNEX] }),
  restrict(["src/db/**/*.ts"], {
    paths: NO_KOA,
    patterns: [below("src/db/", ["services", "api", "http", "webhooks", "events"])],
  }),
  restrict(["src/services/**/*.ts"], {
    paths: [NO_KNEX, ...NO_KOA],
    patterns: [below("src/services/", ["api", "http"])],
  }),
  restrict(["src/http/**/*.ts", "src/api/**/*.ts"], {
    paths: [NO_KNEX],
    patterns: [THROUGH_SERVICES],
  }),
  // The catalogue web page: HTTP like the API routes, reading plugins and services, never SQL.
  restrict(["src/web/**/*.ts"], { paths: [NO_KNEX], patterns: [THROUGH_SERVICES] }),
  restrict(["src/cli.ts", "src/cliCommands.ts", "src/main.ts"], {
    paths: [NO_KNEX, ...NO_KOA],
    patterns: [THROUGH_SERVICES],
  }),
  // The plugin framework and pipeline: pure functions of the request, no storage, no HTTP.
  restrict(["src/webhooks/**/*.ts"], {
    paths: [NO_KNEX, ...NO_KOA],
    patterns: [below("The webhook pipeline", ["db", "services", "http", "api"])],
  }),

  // Plugins see only the author-facing module (and their own folder's files).
  restrict(["integrations/**/*.ts"], {
    ignores: ["integrations/**/*.test.ts"],
    patterns: [
      {
        regex: "^\\.\\./(?!(\\.\\./)*src/webhooks/plugin$|_shared/)",
        message: "A plugin imports only src/webhooks/plugin.ts, files in its own folder and integrations/_shared/.",
      },
      { regex: "^[^.]", message: "A plugin imports no packages: what it needs comes from src/webhooks/plugin.ts." },
    ],
  }),
  {
    // A plugin does not write its own copy of a framework helper (the loader refuses it too:
    // src/webhooks/frameworkParts.ts, FRAMEWORK_FUNCTIONS; test/unit/pluginLint.test.ts keeps the lists equal).
    files: ["integrations/**/*.ts"],
    ignores: ["integrations/**/*.test.ts", "integrations/**/*.d.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...["VariableDeclarator", "FunctionDeclaration"].map((node) => ({
          selector: `${node}[id.name=${FRAMEWORK_HELPER_NAMES}]`,
          message: "A framework helper has this name: import it from src/webhooks/plugin instead of writing one.",
        })),
      ],
    },
  },
  restrict(["integrations/**/*.test.ts"], {
    patterns: [
      {
        regex: "(^|/)src/(?!webhooks/plugin$)",
        message: "A plugin's tests use src/webhooks/plugin.ts and test/support/, not the server's internals.",
      },
    ],
  }),
);
