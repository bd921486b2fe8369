// Manifest `setupProbe: {"echoQuery": "challenge"}` through the real app: Dropbox's verification GET
// is answered with the query value as text/plain (nosniff), within MAX_SETUP_PROBE_ECHO_CHARS; a probe
// without the parameter is a plain set-up probe; nothing is ever posted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MAX_SETUP_PROBE_ECHO_CHARS } from "../../src/limits";
import { IntegrationLoadError, loadIntegrationFolder } from "../../src/webhooks/loader";
import { startTestServer, type TestServer } from "../support/harness";
import { goodPlugin, writeFiles } from "../support/pluginFolders";
import { latestMessageId } from "../support/webhooks";

describe("setupProbe echoQuery", () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-echo-"));
    writeFiles(path.join(dir, "echoer"), goodPlugin("echoer", {}, { setupProbe: { echoQuery: "challenge" } }));
    server = await startTestServer({ INTEGRATIONS_DIR: dir }, { integrations: "all" });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const probe = (query: Record<string, string>, method = "GET") => {
    const qs = new URLSearchParams({ api_key: server.users.bot.apiKey, ...query }).toString();
    return fetch(`${server.url}/api/v1/external/echoer?${qs}`, { method });
  };

  it("echoes the challenge as text/plain with nosniff, markup and all, and posts nothing", async () => {
    const before = await latestMessageId(server);
    const res = await probe({ challenge: "tdYyBXVKn6ibNKl4IrIZQqRTyKc2RdoO0dc5GSlrNYPLV0bbfPPg" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe("tdYyBXVKn6ibNKl4IrIZQqRTyKc2RdoO0dc5GSlrNYPLV0bbfPPg");
    const markup = await probe({ challenge: "<script>alert(1)</script> é" });
    expect([markup.headers.get("content-type"), await markup.text()]).toEqual([
      "text/plain; charset=utf-8",
      "<script>alert(1)</script> é",
    ]);
    expect((await probe({ challenge: "x" }, "HEAD")).status).toBe(200);
    expect(await latestMessageId(server)).toBe(before);
  });

  it("answers a probe without the parameter as a plain set-up probe (JSON success)", async () => {
    const res = await probe({});
    expect([res.status, await res.json()]).toEqual([200, { result: "success", msg: "" }]);
    const anonymous = await fetch(`${server.url}/api/v1/external/echoer?challenge=abc`);
    expect([anonymous.status, await anonymous.text()]).toEqual([200, "abc"]);
  });

  it(`refuses a value over ${MAX_SETUP_PROBE_ECHO_CHARS} characters with a 400 naming it, and a bad key`, async () => {
    const atLimit = await probe({ challenge: "é".repeat(MAX_SETUP_PROBE_ECHO_CHARS) });
    expect([atLimit.status, (await atLimit.text()).length]).toEqual([200, MAX_SETUP_PROBE_ECHO_CHARS]);
    const over = await probe({ challenge: "c".repeat(MAX_SETUP_PROBE_ECHO_CHARS + 1) });
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      var_name: "challenge",
      msg: "Invalid 'challenge': longer than 1000 characters (MAX_SETUP_PROBE_ECHO_CHARS)",
    });
    const badKey = await fetch(`${server.url}/api/v1/external/echoer?api_key=wrong&challenge=abc`);
    expect(badKey.status).toBe(401);
    expect(await badKey.text()).not.toContain("abc");
  });
});

describe("setupProbe echoQuery in the loader", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-echo-load-"));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const problems = (setupProbe: unknown): string[] => {
    const dir = path.join(tmp, "integrations", "demo");
    writeFiles(dir, goodPlugin("demo", {}, { setupProbe }));
    try {
      loadIntegrationFolder(dir, tmp);
      return [];
    } catch (err) {
      return (err as IntegrationLoadError).problems;
    }
  };

  it("refuses a framework parameter, a malformed name and unknown fields, naming the field", () => {
    expect(problems({ echoQuery: "challenge" })).toEqual([]);
    expect(problems({ echoQuery: "stream" })).toEqual([
      "integrations/demo/integration.json: /setupProbe/echoQuery: 'stream' is a framework parameter",
    ]);
    expect(problems({ echoQuery: "Chal-lenge" })).toContain(
      'integrations/demo/integration.json: /setupProbe/echoQuery: must match pattern "^[a-z_][a-z0-9_]*$"',
    );
    expect(problems({ echo: "challenge" })).toContain(
      "integrations/demo/integration.json: /setupProbe: unknown field 'echo'",
    );
  });
});
