// The registry of loaded plugins (lookup, sorted listings, unsupported-event counters) and the
// start-up loading that builds it from an integrations directory.
import path from "node:path";
import { IntegrationLoadError } from "../../src/webhooks/loader";
import { createRegistry, emptyRegistry, type Integration } from "../../src/webhooks/registry";
import { integrationsDirFor, loadIntegrationsForApp, repoRoot } from "../../src/webhooks/startup";
import { goodPlugin, useTempDir, writeFiles } from "../support/pluginFolders";

const tmp = useTempDir("sb-registry-");

// Only the name matters to the registry; the rest of a plugin is never read by it.
const named = (name: string) => ({ name }) as Integration;

describe("createRegistry", () => {
  it("finds plugins by name and lists names and plugins in name order", () => {
    const [zulip, alpha, mid] = [named("zulip"), named("alpha"), named("mid")];
    const registry = createRegistry([zulip, alpha, mid]);
    expect(registry.get("alpha")).toBe(alpha);
    expect(registry.get("zulip")).toBe(zulip);
    expect(registry.get("nope")).toBeUndefined();
    expect(registry.names()).toEqual(["alpha", "mid", "zulip"]);
    expect(registry.all()).toEqual([alpha, mid, zulip]);
  });

  it("counts unsupported events per plugin, returning the new count", () => {
    const registry = createRegistry([named("a"), named("b")]);
    expect(registry.unsupportedCounts()).toEqual({});
    expect(registry.countUnsupported("a")).toBe(1);
    expect(registry.countUnsupported("a")).toBe(2);
    expect(registry.countUnsupported("b")).toBe(1);
    expect(registry.countUnsupported("a")).toBe(3);
    expect(registry.unsupportedCounts()).toEqual({ a: 3, b: 1 });
  });

  it("has an empty form with no plugins and no counts", () => {
    const registry = emptyRegistry();
    expect(registry.names()).toEqual([]);
    expect(registry.all()).toEqual([]);
    expect(registry.get("github")).toBeUndefined();
    expect(registry.unsupportedCounts()).toEqual({});
  });
});

describe("start-up loading", () => {
  const root = path.resolve(__dirname, "../..");

  it("finds the repository root (the folder with package.json above the source)", () => {
    expect(repoRoot()).toBe(root);
  });

  it("reads plugins from the configured directory, else from integrations/ at the repository root", () => {
    expect(integrationsDirFor({})).toBe(path.join(root, "integrations"));
    expect(integrationsDirFor({ integrationsDir: "/srv/plugins" })).toBe("/srv/plugins");
  });

  it("builds the registry from the configured directory", async () => {
    const dir = path.join(tmp.dir(), "plugins");
    writeFiles(path.join(dir, "beta"), goodPlugin("beta"));
    writeFiles(path.join(dir, "alpha"), goodPlugin("alpha"));
    const registry = await loadIntegrationsForApp({ integrationsDir: dir });
    expect(registry.names()).toEqual(["alpha", "beta"]);
    expect(registry.get("beta")!.docPath).toBe("plugins/beta/doc.md");
  });

  it("refuses to start with an invalid plugin, naming its problem", async () => {
    const dir = path.join(tmp.dir(), "plugins");
    writeFiles(path.join(dir, "beta"), goodPlugin("beta", { "doc.md": undefined }));
    await expect(loadIntegrationsForApp({ integrationsDir: dir })).rejects.toEqual(
      new IntegrationLoadError([
        "plugins/beta/doc.md: file not found (every integration needs a doc page for bot owners)",
      ]),
    );
  });
});
