// Which addresses an owner-named API lookup site may be (OutboundPolicy), how the operator's
// settings are read (API_LOOKUP_*), how base_url becomes a site (siteOf), and what the loader says
// about `api.host` / `api.hostOption`.
import path from "node:path";
import { loadConfig } from "../../src/config";
import { siteOf } from "../../src/services/webhooks/apiLookup";
import { isPublicAddress, OutboundPolicy } from "../../src/services/webhooks/outboundPolicy";
import type { ApiSpec } from "../../src/webhooks/manifest";
import { IntegrationLoadError, loadIntegrationFolder } from "../../src/webhooks/loader";
import { goodPlugin, useTempDir, writeFiles } from "../support/pluginFolders";

describe("isPublicAddress", () => {
  it.each([
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "127.0.0.1",
    "127.255.0.9",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.2.10",
    "192.168.1.1",
    "198.18.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "64:ff9b::a00:1",
    "fc00::1",
    "fd12:3456::7",
    "fe80::1",
    "ff02::1",
    "2001:db8::1",
    "2002:7f00:1::1",
    "not an address",
  ])("%s is not public", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["93.184.215.14", "8.8.8.8", "172.32.0.1", "::ffff:8.8.8.8", "2606:4700::1111", "2a00:1450:4001::200e"])(
    "%s is public",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe("OutboundPolicy", () => {
  it("allows the operator's networks and host names, nothing beyond them", () => {
    const policy = new OutboundPolicy({
      allowHttp: false,
      allowedNetworks: ["10.20.0.0/16", "fd00::/8", "192.168.7.7"],
      allowedHosts: ["Wiki.Corp.Example."],
    });
    expect(["10.20.3.4", "::ffff:10.20.0.1", "fd12::1", "192.168.7.7"].map((a) => policy.allowsAddress(a))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["10.21.0.1", "192.168.7.8", "127.0.0.1", "fe80::1"].map((a) => policy.allowsAddress(a))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect([policy.allowsHostName("wiki.corp.example"), policy.allowsHostName("corp.example")]).toEqual([true, false]);
  });

  it("refuses, in the socket's lookup, a name that resolves to loopback (both lookup forms)", async () => {
    const lookup = new OutboundPolicy().lookupFor("localhost");
    const one = await new Promise<unknown>((resolve) => lookup("localhost", { family: 4 }, (err) => resolve(err)));
    const all = await new Promise<unknown>((resolve) =>
      lookup("localhost", { all: true } as never, (err) => resolve(err)),
    );
    expect([(one as Error).message, (all as { code?: string }).code]).toEqual([
      expect.stringMatching(/^localhost is (127\.0\.0\.1|::1), which is not a public address$/),
      "EADDRREFUSED_BY_POLICY",
    ]);
  });
});

describe("API_LOOKUP_* settings", () => {
  it("reads the lists, and refuses a bad network or host name at start", () => {
    expect(loadConfig({}).apiLookup).toEqual({ allowHttp: false, allowedNetworks: [], allowedHosts: [] });
    expect(
      loadConfig({
        API_LOOKUP_ALLOW_HTTP: "true",
        API_LOOKUP_ALLOWED_NETWORKS: "10.0.0.0/8, fd00::/8 192.168.1.5",
        API_LOOKUP_ALLOWED_HOSTS: "Wiki.Corp.Example",
      }).apiLookup,
    ).toEqual({
      allowHttp: true,
      allowedNetworks: ["10.0.0.0/8", "fd00::/8", "192.168.1.5"],
      allowedHosts: ["wiki.corp.example"],
    });
    expect(() => loadConfig({ API_LOOKUP_ALLOWED_NETWORKS: "10.0.0.0/33" })).toThrow(
      "API_LOOKUP_ALLOWED_NETWORKS: '10.0.0.0/33' is not an address or a CIDR block",
    );
    expect(() => loadConfig({ API_LOOKUP_ALLOWED_NETWORKS: "wiki.corp" })).toThrow(/not an address/);
    expect(() => loadConfig({ API_LOOKUP_ALLOWED_HOSTS: "https://wiki" })).toThrow(/not a host name/);
  });
});

describe("siteOf (base_url → where lookups go)", () => {
  const spec = { hostOption: "base_url", tokenOption: "token", authHeader: "Authorization", lookups: {} } as ApiSpec;
  const site = (baseUrl: string, policy = new OutboundPolicy()) => siteOf(spec, { base_url: baseUrl }, policy);

  it("keeps the path prefix and the port, and needs no check for a name (its lookup does that)", () => {
    expect(site(" https://Intranet.Example.com:8443/confluence/ ")).toEqual({
      protocol: "https:",
      host: "intranet.example.com",
      port: 8443,
      prefix: "/confluence",
    });
    expect(site("https://wiki.example.com")).toEqual({ protocol: "https:", host: "wiki.example.com", prefix: "" });
    expect(site("")).toBeUndefined();
  });

  it.each([
    ["http://wiki.example.com", "http is not allowed"],
    ["ftp://wiki.example.com", "not an https URL"],
    ["https://me:pw@wiki.example.com", "user info"],
    ["https://wiki.example.com/?os_authType=basic", "query or fragment"],
    ["https://wiki.example.com/#x", "query or fragment"],
    ["https://127.0.0.1", "not a public address"],
    ["https://0x7f.1", "not a public address"],
    ["https://[::1]", "not a public address"],
    ["wiki.example.com", "not a URL"],
  ])("refuses %s", (baseUrl, reason) => {
    expect(site(baseUrl)).toMatchObject({ refused: expect.stringContaining(reason) });
  });

  it("takes http only when the operator allows it", () => {
    const policy = new OutboundPolicy({ allowHttp: true, allowedNetworks: [], allowedHosts: [] });
    expect(site("http://wiki.example.com/wiki", policy)).toEqual({
      protocol: "http:",
      host: "wiki.example.com",
      prefix: "/wiki",
    });
  });
});

describe("api.host / api.hostOption in a manifest", () => {
  const tmp = useTempDir("sb-host-option-");
  const problems = (api: Record<string, unknown>, urlOptions = ["base_url", "token"]): string[] => {
    const dir = path.join(tmp.dir(), "integrations", "demo");
    writeFiles(
      dir,
      goodPlugin(
        "demo",
        {},
        {
          urlOptions: urlOptions.map((key) => ({ key, description: "d" })),
          api: { tokenOption: "token", authHeader: "Authorization", lookups: { a: "/a" }, ...api },
        },
      ),
    );
    try {
      loadIntegrationFolder(dir, tmp.dir());
    } catch (err) {
      return (err as IntegrationLoadError).problems;
    }
    return [];
  };

  it("takes exactly one of them, and a hostOption documented in urlOptions", () => {
    expect(problems({ hostOption: "base_url" })).toEqual([]);
    expect(problems({ host: "api.demo.example" })).toEqual([]);
    const both =
      "integrations/demo/integration.json: /api: give exactly one of host (a fixed host) and hostOption (a URL option)";
    expect(problems({ host: "api.demo.example", hostOption: "base_url" })).toEqual([both]);
    expect(problems({})).toEqual([both]);
    expect(problems({ hostOption: "site_url" })).toEqual([
      "integrations/demo/integration.json: /api/hostOption: document 'site_url' in urlOptions",
    ]);
    expect(problems({ hostOption: "Base-URL" })[0]).toMatch(/\/api\/hostOption: must match pattern/);
  });
});
