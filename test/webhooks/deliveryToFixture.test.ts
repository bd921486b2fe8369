// `npm run cli -- delivery-to-fixture`: a logged delivery becomes a fixture case whose expected
// file matches what the server posts for it (checked the way the generated suite checks fixtures).
// The command runs in this process (runCli, as src/cli.ts runs it; test/cli.test.ts runs the
// program itself).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadFixtureCases } from "../../src/webhooks/fixtures";
import { runCommand } from "../support/cli";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const ROOT = path.join(__dirname, "../..");
const githubPush = fs.readFileSync(path.join(ROOT, "integrations/github/fixtures/push__1_commit.json"), "utf8");

describe("npm run cli -- delivery-to-fixture", () => {
  let server: TestServer;
  let fixturesDir: string;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["github", "helloworld"] });
    fixturesDir = fs.mkdtempSync(path.join(os.tmpdir(), "fixtures-"));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(fixturesDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    runCommand(args, {
      ...process.env,
      DATA_DIR: server.config.dataDir,
      LOG_LEVEL: "silent",
      // The plugins of the test server: every other one would cost the command seconds to load.
      INTEGRATIONS_ENABLED: server.deps.integrations.names().join(","),
      DATABASE_URL: server.config.databaseUrl ?? "",
    });

  const newestId = async () => {
    await server.deps.webhookOps.log.idle();
    return (await server.as(server.users.owner).get("/webhooks/deliveries", { limit: 1 })).body.deliveries[0].id;
  };

  it("writes <event>__<variant>.json and an expected file the server agrees with", async () => {
    await postWebhook(server, "github", {
      body: githubPush,
      query: { stream: "general" },
      headers: { "X-GitHub-Event": "push", "X-GitHub-Delivery": "fixture-1" },
    });
    const id = await newestId();
    const saveAsFixture = (deliveryId: number) =>
      cli("delivery-to-fixture", "--id", String(deliveryId), "--name", "from_log", "--fixtures-dir", fixturesDir);
    const res = await saveAsFixture(id);
    expect(res.stderr.replace(/npm warn.*\n?/g, "")).toBe("");
    expect(res.code).toBe(0);
    const payloadPath = path.join(fixturesDir, "push__from_log.json");
    const expectedPath = path.join(fixturesDir, "push__from_log.expected.json");
    expect(JSON.parse(fs.readFileSync(payloadPath, "utf8"))).toEqual(JSON.parse(githubPush));
    const expected = JSON.parse(fs.readFileSync(expectedPath, "utf8"));
    expect(expected.headers).toEqual({ "x-github-delivery": "fixture-1" });

    // Sent the way the fixture suite sends it, the server posts exactly what the file says.
    const [fixture] = loadFixtureCases({ ...server.deps.integrations.get("github")!, fixturesDir });
    expect(fixture.name).toBe("push__from_log");
    const before = await latestMessageId(server);
    await postWebhook(server, "github", {
      query: { stream: "general", ...fixture.query },
      headers: { ...fixture.headers, "X-GitHub-Delivery": "fixture-2" },
      body: fixture.body,
      contentType: fixture.contentType,
    });
    const stored = (await messagesSince(server, before, server.users.bot.id)).map((m) => ({
      topic: m.topic,
      content: m.content,
    }));
    expect(stored.length).toBeGreaterThan(0);
    expect(expected.messages ?? [{ topic: expected.topic, content: expected.content }]).toEqual(stored);

    // An existing case is not overwritten; an unknown id is an error.
    const again = await saveAsFixture(id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("already exists");
    const missing = await cli("delivery-to-fixture", "--id", "99999999", "--fixtures-dir", fixturesDir);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("No delivery 99999999");
  });

  it("names a field-sourced event by its event key, and records an error answer", async () => {
    await postWebhook(server, "helloworld", {
      body: JSON.stringify({ event: "goodbye" }),
      query: { stream: "general" },
    });
    const id = await newestId();
    const res = await cli("delivery-to-fixture", "--id", String(id), "--fixtures-dir", fixturesDir);
    expect(res.stderr.replace(/npm warn.*\n?/g, "")).toBe("");
    expect(res.code).toBe(0);
    const expected = JSON.parse(
      fs.readFileSync(path.join(fixturesDir, `goodbye__delivery${id}.expected.json`), "utf8"),
    );
    expect(expected).toEqual({ error: expect.objectContaining({ status: 400, code: "INVALID_PAYLOAD" }) });
  });
});
