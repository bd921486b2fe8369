// INTEGRATIONS_ENABLED: the server and the CLI load only the named plugin folders; a name that is
// not a folder of the plugin directory stops the start, naming it.
import path from "node:path";
import { loadConfig } from "../../src/config";
import { loadIntegrationsForApp } from "../../src/webhooks/startup";

const INTEGRATIONS_DIR = path.resolve(__dirname, "../../integrations");
const config = (enabled?: string) =>
  loadConfig({
    NODE_ENV: "test",
    INTEGRATIONS_DIR,
    ...(enabled === undefined ? {} : { INTEGRATIONS_ENABLED: enabled }),
  });

describe("INTEGRATIONS_ENABLED", () => {
  it("is unset by default: every folder is loaded", () => {
    expect(config().integrationsEnabled).toBeUndefined();
    expect(config("  ").integrationsEnabled).toBeUndefined();
  });

  it("loads only the named folders, commas or spaces between them", async () => {
    expect(config("github, helloworld").integrationsEnabled).toEqual(["github", "helloworld"]);
    const registry = await loadIntegrationsForApp(config("github,helloworld"));
    expect([...registry.names()].sort()).toEqual(["github", "helloworld"]);
  });

  it("lets the caller's own list win (test servers name theirs)", async () => {
    const registry = await loadIntegrationsForApp(config("github"), ["helloworld"]);
    expect([...registry.names()]).toEqual(["helloworld"]);
  });

  it.each(["no_such_plugin", "../integrations/github", "_shared"])("refuses %s, naming it", async (name) => {
    await expect(loadIntegrationsForApp(config(`helloworld,${name}`))).rejects.toThrow(
      `INTEGRATIONS_ENABLED names "${name}", which is not a plugin folder of ${INTEGRATIONS_DIR}`,
    );
  });
});
