// Loads integrations/ at start-up; the webhook framework replaces this with the real loader.
import { emptyRegistry, type IntegrationRegistry } from "./registry";

export async function loadIntegrationsForApp(): Promise<IntegrationRegistry> {
  return emptyRegistry();
}
