// Small plugin folders written as real files in a temp directory, for loader and fixture tests.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type Files = Record<string, string | undefined>;

/** A minimal valid manifest, with `extra` fields merged over it. */
export function manifestJson(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name,
    displayName: "Demo",
    description: "A demo service",
    categories: ["misc"],
    eventSource: { fixed: "hello" },
    defaultTopic: "demo",
    events: { hello: {} },
    ...extra,
  });
}

/** The files of a plugin that loads cleanly; override or drop (undefined) any of them. */
export function goodPlugin(name: string, overrides: Files = {}, extra: Record<string, unknown> = {}): Files {
  return {
    "integration.json": manifestJson(name, extra),
    "schema.json": JSON.stringify({ type: "object", properties: { title: { type: "string" } } }),
    "templates/hello.hbs": "Hello {{title}}",
    "doc.md": "# Demo\n",
    ...overrides,
  };
}

export function writeFiles(dir: string, files: Files): void {
  for (const [file, text] of Object.entries(files)) {
    if (text === undefined) continue;
    const full = path.join(dir, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
}

/** A fresh temp directory per test: `tmp.dir()` inside a test, removed after it. */
export function useTempDir(prefix: string): { dir: () => string } {
  let current = "";
  beforeEach(() => {
    current = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => fs.rmSync(current, { recursive: true, force: true }));
  return { dir: () => current };
}

/**
 * The repository's plugin names, as the loader finds them (folders not starting with "_"), without
 * loading any: for tests that list plugins before their server (which loads them) starts.
 */
export function pluginNames(integrationsDir = path.resolve(__dirname, "../../integrations")): string[] {
  return fs
    .readdirSync(integrationsDir)
    .filter(
      (name) =>
        !name.startsWith("_") && !name.startsWith(".") && fs.statSync(path.join(integrationsDir, name)).isDirectory(),
    )
    .sort();
}
