// Loads the integrations directory at start-up; any invalid plugin stops the server from starting.
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { loadIntegrationFolder, loadIntegrations, type LoadOptions } from "./loader";
import { createRegistry, type IntegrationRegistry } from "./registry";

/** The repository root: the nearest folder above this file with a package.json. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export function integrationsDirFor(config: Pick<Config, "integrationsDir">): string {
  return config.integrationsDir ?? path.join(repoRoot(), "integrations");
}

/** Every plugin folder, or only the named ones (by default those of INTEGRATIONS_ENABLED, when set). */
export async function loadIntegrationsForApp(
  config: Pick<Config, "integrationsDir" | "integrationsEnabled">,
  only: readonly string[] | undefined = config.integrationsEnabled,
  options: LoadOptions = {},
): Promise<IntegrationRegistry> {
  const dir = integrationsDirFor(config);
  if (!only) return createRegistry(loadIntegrations(dir, undefined, options));
  for (const name of only) {
    // A name is a folder of the plugin directory itself, never a path elsewhere.
    if (!/^[A-Za-z0-9_-]+$/.test(name) || !fs.existsSync(path.join(dir, name, "integration.json")))
      throw new Error(`INTEGRATIONS_ENABLED names "${name}", which is not a plugin folder of ${dir}`);
  }
  return createRegistry(only.map((name) => loadIntegrationFolder(path.join(dir, name), path.dirname(dir), options)));
}
