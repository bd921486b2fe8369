// Loads the integrations directory at start-up; any invalid plugin stops the server from starting.
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { loadIntegrations } from "./loader";
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

export async function loadIntegrationsForApp(config: Pick<Config, "integrationsDir">): Promise<IntegrationRegistry> {
  return createRegistry(loadIntegrations(integrationsDirFor(config)));
}
