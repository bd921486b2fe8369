// Loads the integrations directory at start-up; any invalid plugin stops the server from starting.
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { loadIntegrationFolder, loadIntegrations } from "./loader";
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

/** Every plugin folder, or only the named ones. */
export async function loadIntegrationsForApp(
  config: Pick<Config, "integrationsDir">,
  only?: readonly string[],
): Promise<IntegrationRegistry> {
  const dir = integrationsDirFor(config);
  if (only) return createRegistry(only.map((name) => loadIntegrationFolder(path.join(dir, name), path.dirname(dir))));
  return createRegistry(loadIntegrations(dir));
}
