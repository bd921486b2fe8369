// `npm run new-integration`: several samples → one schema fitting all of them; the event from a
// payload field, a header or a fixed name; and output that passes as it is — every scaffolded
// case posted through the real app stores exactly its expected message, the catalogue table is
// current, and check-integrations accepts the plugin.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { INTEGRATIONS_DOC, integrationsTableMarkdown } from "../../src/tools/integrationsTable";
import { scaffoldIntegration } from "../../src/tools/scaffold";
import { loadFixtureCases } from "../../src/webhooks/fixtures";
import { loadIntegrations } from "../../src/webhooks/loader";
import { startTestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

const down = {
  alertType: 0,
  monitor: { name: "API", url: "https://status.example/api", owner: null },
  reason: "Timeout after 30 s",
  tags: ["prod"],
};
const up = {
  alertType: 1,
  monitor: { name: "API", url: "https://status.example/api", owner: { name: "Ada" } },
  duration: 42.5,
  tags: [],
};
const upAgain = { ...up, monitor: { ...up.monitor, owner: null }, duration: 7 };

describe("npm run new-integration", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-new-"));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(tmp, file), "utf8"));

  it("infers one schema fitting every sample: nullable where a sample has null, required where all have it", () => {
    scaffoldIntegration(tmp, {
      name: "pinger",
      event: { field: "alertType" },
      samples: [
        { file: "down.json", payload: down },
        { file: "up.json", payload: up },
        { file: "up2.json", payload: upAgain },
      ],
    });
    const schema = read("integrations/pinger/schema.json");
    expect(schema.required).toEqual(["alertType", "monitor", "tags"]);
    expect(schema.properties.alertType).toEqual({ type: "integer" });
    expect(schema.properties.duration).toEqual({ type: "number" });
    expect(schema.properties.monitor.required).toEqual(["name", "url", "owner"]);
    expect(schema.properties.monitor.properties.owner).toMatchObject({
      type: ["object", "null"],
      properties: { name: { type: "string" } },
    });
    expect(schema.properties.tags).toEqual({ type: "array", items: { type: "string" } });
    // Events named by the field's value ("0", "1"), one case per sample.
    expect(read("integrations/pinger/integration.json").events).toEqual({ "0": {}, "1": {} });
    expect(fs.readdirSync(path.join(tmp, "integrations/pinger/fixtures")).sort()).toEqual([
      "0.expected.json",
      "0.json",
      "1.expected.json",
      "1.json",
      "1__2.expected.json",
      "1__2.json",
    ]);
  });

  it("writes output the fixture suite accepts as it is", async () => {
    scaffoldIntegration(tmp, {
      name: "pinger",
      displayName: "Pinger",
      category: "monitoring",
      event: { field: "alertType" },
      samples: [
        { file: "down.json", payload: down },
        { file: "up.json", payload: up },
      ],
    });
    scaffoldIntegration(tmp, {
      name: "hooky",
      event: { header: "X-Hooky-Event" },
      samples: [
        { file: "samples/push__main.json", payload: { title: "Pushed *2* commits", html_url: "https://h.example/1" } },
        { file: "issue.json", payload: { title: "Bug", html_url: "https://h.example/2", number: 3 } },
      ],
    });
    const integrationsDir = path.join(tmp, "integrations");
    const integrations = loadIntegrations(integrationsDir, tmp);
    expect(fs.readFileSync(path.join(tmp, INTEGRATIONS_DOC), "utf8")).toBe(integrationsTableMarkdown(integrations));

    const server = await startTestServer({ INTEGRATIONS_DIR: integrationsDir }, { integrations: "all" });
    try {
      for (const integration of integrations) {
        const cases = loadFixtureCases(integration);
        expect(cases.length).toBe(2);
        for (const c of cases) {
          const before = await latestMessageId(server);
          const res = await postWebhook(server, integration.name, {
            query: { stream: "general" },
            headers: c.headers,
            body: c.body,
            contentType: c.contentType,
          });
          expect(res.status).toBe(200);
          const [stored] = await messagesSince(server, before, server.users.bot.id);
          expect({ topic: stored.topic, content: stored.content }).toEqual(c.expected);
        }
      }
    } finally {
      await server.close();
    }
    expect(read("integrations/hooky/fixtures/push.expected.json")).toEqual({
      topic: "Hooky",
      content: "**Pushed \\*2\\* commits**\n[Open](https://h.example/1)",
    });
  });

  it("runs from the command line with a fixed event name, and check-integrations accepts the result", async () => {
    fs.writeFileSync(path.join(tmp, "a.json"), JSON.stringify({ summary: "Nightly backup done", size: 12 }));
    fs.writeFileSync(path.join(tmp, "b.json"), JSON.stringify({ summary: "Nightly backup failed", size: null }));
    const tsx = [require.resolve("tsx/cli")];
    const created = await run(
      process.execPath,
      [
        ...tsx,
        "src/tools/newIntegration.ts",
        "backups",
        "--from",
        `${path.join(tmp, "a.json")},${path.join(tmp, "b.json")}`,
        "--event",
        "backup",
        "--root",
        tmp,
      ],
      { cwd: ROOT, env: { ...process.env }, encoding: "utf8" },
    ).catch((err: { stderr: string }) => ({ stdout: "", stderr: err.stderr }));
    expect(created.stderr).toBe("");
    expect(read("integrations/backups/fixtures/backup__2.expected.json")).toEqual({
      topic: "Backups",
      content: "**Nightly backup failed**",
    });
    const checked = await run(process.execPath, [...tsx, "src/tools/checkIntegrations.ts"], {
      cwd: ROOT,
      env: { ...process.env, INTEGRATIONS_DIR: path.join(tmp, "integrations") },
      encoding: "utf8",
    });
    expect(checked.stdout).toContain("1 integration(s) OK.");
  });
});
