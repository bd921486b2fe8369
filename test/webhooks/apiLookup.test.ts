// API lookups (manifest `api`): with the owner's token in the URL, a plugin's message shows what
// the service's API says about the ids in the payload; the lookups go only to the manifest's host
// over https, follow no redirect, read at most API_LOOKUP_MAX_RESPONSE_BYTES, and any failure
// leaves the message as the payload alone makes it. ClickUp is the example; the API is stubbed
// with nock from the plugin's own api_responses/ (and the shared corpus' when it is present).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nock from "nock";
import { fillPath } from "../../src/services/webhooks/apiLookup";
import { API_LOOKUP_MAX_PATH_CHARS, API_LOOKUP_MAX_RESPONSE_BYTES } from "../../src/limits";
import { IntegrationLoadError, loadIntegrationFolder } from "../../src/webhooks/loader";
import { goodPlugin, useTempDir, writeFiles } from "../support/pluginFolders";
import { redactUrl } from "../../src/logger";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const PLUGIN = path.join(__dirname, "..", "..", "integrations", "clickup");
const read = (...parts: string[]) => fs.readFileSync(path.join(PLUGIN, ...parts));
const taskCreated = read("fixtures", "task_created.json");
const keyResultUpdated = read("fixtures", "key_result_updated.json");
const task = JSON.parse(read("api_responses", "task.json").toString());
const goal = JSON.parse(read("api_responses", "goal.json").toString());
const TOKEN = "pk_4471205_ORCHARDTOKEN";
const API = "https://api.clickup.com";

const PAYLOAD_ONLY = ":new: Task [9abx21q](https://app.clickup.com/t/9abx21q) was **created** by Mireille Okafor.";

describe("API lookups (ClickUp)", () => {
  let server: TestServer;
  const logLines: string[] = [];
  const send = (body: Buffer, query: Record<string, string> = {}) =>
    postWebhook(server, "clickup", { body, query: { stream: "general", ...query } });
  const posted = async (body: Buffer, query: Record<string, string> = {}) => {
    const before = await latestMessageId(server);
    const res = await send(body, query);
    expect([res.status, res.body.result]).toEqual([200, "success"]);
    return messagesSince(server, before, server.users.bot.id);
  };

  beforeAll(async () => {
    server = await startTestServer(
      { LOG_LEVEL: "debug" },
      { integrations: ["clickup"], logDestination: { write: (line: string) => logLines.push(line) } },
    );
  });
  afterAll(() => server.close());
  afterEach(() => nock.cleanAll());

  it("renders the task's name, status, people and link from the API, sending the token only there", async () => {
    const scope = nock(API, { reqheaders: { authorization: TOKEN } })
      .get("/api/v2/task/9abx21q")
      .reply(200, task);
    const stored = await posted(taskCreated, { clickup_token: TOKEN });
    expect(scope.isDone()).toBe(true);
    expect(stored.map((m) => [m.topic, m.content])).toEqual([
      [
        "Prune the pear and plum trees",
        ":new: Task [Prune the pear and plum trees](https://app.clickup.com/t/9abx21q) was **created** by " +
          "Mireille Okafor in list **Harvest 2027**.\n" +
          "* **Status:** in progress\n* **Priority:** high\n* **Assignees:** Tomasz Wierzba and Ines Carvalho\n" +
          "* **Due:** <time:2026-01-09T12:00:00Z>\n* **Created by:** Mireille Okafor",
      ],
    ]);
    // The token is in no log line and no delivery-log row.
    expect(logLines.join("\n")).not.toContain(TOKEN);
    await server.deps.webhookOps.log.idle(); // the delivery log is written in the background
    const rows = await server.db("webhook_deliveries").select();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
  });

  it("renders a key result's goal and the key result's own name from the goal lookup", async () => {
    nock(API).get("/api/v2/goal/e3d5b7a1-2c4f-4e6a-8b9d-0f1e2d3c4b5a").reply(200, goal);
    const stored = await posted(keyResultUpdated, { clickup_token: TOKEN });
    expect(stored.map((m) => [m.topic, m.content])).toEqual([
      [
        "Ship the autumn harvest",
        ":pencil: Key result `a9b8c7d6-1234-4abc-9def-112233445566` was **updated** in goal " +
          "[Ship the autumn harvest](https://app.clickup.com/4471205/goals/7).\n" +
          "* **Name:** Crates shipped\n* **Type:** number\n* **Progress:** 45%\n" +
          "* **steps_current** changed by Tomasz Wierzba: 120 → 180",
      ],
    ]);
  });

  it("makes no request without a token (nock refuses any) and posts what the payload says", async () => {
    const stored = await posted(taskCreated);
    expect(stored.map((m) => m.content)).toEqual([PAYLOAD_ONLY]);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it.each([
    ["a 404", () => nock(API).get("/api/v2/task/9abx21q").reply(404, { err: "Task not found", ECODE: "ITEM_013" })],
    ["an answer that is not JSON", () => nock(API).get("/api/v2/task/9abx21q").reply(200, "<html>")],
    ["a connection error", () => nock(API).get("/api/v2/task/9abx21q").replyWithError("ECONNRESET")],
    [
      "an answer over the size cap",
      () =>
        nock(API)
          .get("/api/v2/task/9abx21q")
          .reply(200, { ...task, description: "x".repeat(API_LOOKUP_MAX_RESPONSE_BYTES) }),
    ],
  ])("falls back to the payload alone on %s", async (_what, stub) => {
    const scope = stub();
    const stored = await posted(taskCreated, { clickup_token: TOKEN });
    expect(scope.isDone()).toBe(true);
    expect(stored.map((m) => m.content)).toEqual([PAYLOAD_ONLY]);
  });

  it("does not follow a redirect to another host", async () => {
    const api = nock(API).get("/api/v2/task/9abx21q").reply(302, "", { location: "https://attacker.example/steal" });
    const elsewhere = nock("https://attacker.example").get("/steal").reply(200, task);
    const stored = await posted(taskCreated, { clickup_token: TOKEN });
    expect(api.isDone()).toBe(true);
    expect(elsewhere.isDone()).toBe(false);
    expect(stored.map((m) => m.content)).toEqual([PAYLOAD_ONLY]);
  });

  it("puts a payload id into one path segment, so it cannot reach another API path", async () => {
    const body = Buffer.from(JSON.stringify({ ...JSON.parse(taskCreated.toString()), task_id: "../../user?x=1" }));
    const scope = nock(API).get("/api/v2/task/..%2F..%2Fuser%3Fx%3D1").reply(404, {});
    await posted(body, { clickup_token: TOKEN });
    expect(scope.isDone()).toBe(true);
  });

  const SHARED = path.join(__dirname, "..", "..", "..", "shared", "fixtures", "clickup");
  (fs.existsSync(SHARED) ? it : it.skip)("renders the shared corpus' task answer", async () => {
    const shared = JSON.parse(fs.readFileSync(path.join(SHARED, "api_responses", "task_api_data.json"), "utf8"));
    nock(API).get("/api/v2/task/9abx21q").reply(200, shared);
    const stored = await posted(taskCreated, { clickup_token: "token" });
    expect(stored[0].topic).toBe(shared.name);
    expect(stored[0].content).toContain(`[${shared.name}](${shared.url})`);
    expect(stored[0].content).toContain(`* **Status:** ${shared.status.status}`);
  });
});

describe("API lookups (Notion): Bearer token and API version header", () => {
  const NOTION = path.join(__dirname, "..", "..", "integrations", "notion");
  const json = (...parts: string[]) => JSON.parse(fs.readFileSync(path.join(NOTION, ...parts), "utf8"));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["notion"] });
  });
  afterAll(() => server.close());
  afterEach(() => nock.cleanAll());

  it("renders the page's title, link and properties and the author's name", async () => {
    const headers = { authorization: "Bearer ntn_lantern", "notion-version": "2022-06-28" };
    const page = nock("https://api.notion.com", { reqheaders: headers })
      .get("/v1/pages/a41f0c2e-7b3d-4c8e-9f10-2b3c4d5e6f70")
      .reply(200, json("api_responses", "page.json"));
    const user = nock("https://api.notion.com", { reqheaders: headers })
      .get("/v1/users/b7c8d9e0-3333-4444-8555-c66677788899")
      .reply(200, json("api_responses", "user.json"));
    // The page is not a database: that lookup answers 404 and is left out.
    nock("https://api.notion.com").get("/v1/databases/a41f0c2e-7b3d-4c8e-9f10-2b3c4d5e6f70").reply(404, {});
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "notion", {
      body: fs.readFileSync(path.join(NOTION, "fixtures", "page.properties_updated.json")),
      query: { stream: "general", notion_token: "ntn_lantern" },
    });
    expect(res.status).toBe(200);
    expect(page.isDone() && user.isDone()).toBe(true);
    const stored = await messagesSince(server, before, server.users.bot.id);
    expect(stored.map((m) => [m.topic, m.content])).toEqual([
      [
        "Autumn catalogue",
        ":pencil: Page [Autumn catalogue](https://www.notion.so/Autumn-catalogue-a41f0c2e7b3d4c8e9f102b3c4d5e6f70) " +
          "was **updated (properties)** by Rafael Quintero.\n" +
          "* **Stage:** Proofreading\n* **Imprint:** Lantern Kids\n* **Print date:** 2027-02-15\n* **Pages:** 212\n" +
          "* **Editors:** Odile Marchetti\n* **Properties changed:** 2 properties\n* **Workspace:** Lantern Press\n" +
          "* **When:** <time:2026-11-20T14:05:09.120Z>",
      ],
    ]);
  });
});

describe("fillPath", () => {
  it("fills each placeholder from the payload, URL-encoded, and gives nothing when one is missing", () => {
    expect(fillPath("/v1/pages/{entity.id}", { entity: { id: "a b/c" } })).toBe("/v1/pages/a%20b%2Fc");
    expect(fillPath("/api/v2/list/{list_id}", { list_id: 9016001 })).toBe("/api/v2/list/9016001");
    expect(fillPath("/api/v2/list/{list_id}", { list_id: "" })).toBeUndefined();
    expect(fillPath("/api/v2/list/{list_id}", {})).toBeUndefined();
  });
});

describe("redactUrl", () => {
  it("hides service tokens given as URL options", () => {
    expect(redactUrl("/api/v1/external/clickup?api_key=k&clickup_token=pk_1&stream=a")).toBe(
      "/api/v1/external/clickup?api_key=[redacted]&clickup_token=[redacted]&stream=a",
    );
  });
});

describe("API lookups with a query string, okField and the lookup's object form", () => {
  const HOST = "https://api.lookup.example";
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-lookup-"));
    writeFiles(path.join(dir, "asker"), {
      "doc.md": "# Asker\n",
      "integration.json": JSON.stringify({
        name: "asker",
        displayName: "Asker",
        description: "Asks an API",
        categories: ["misc"],
        eventSource: { fixed: "message" },
        defaultTopic: "asker",
        urlOptions: [{ key: "asker_app_token", description: "The app's token" }],
        api: {
          host: "api.lookup.example",
          tokenOption: "asker_app_token",
          authHeader: "Authorization",
          authPrefix: "Bearer ",
          method: "GET",
          okField: "ok",
          lookups: {
            user: "/api/users.info?user={event.user}&include_locale=true",
            channel: { path: "/api/conversations.info?channel={event.channel}", method: "GET" },
          },
        },
        events: { message: {} },
      }),
      "schema.json": JSON.stringify({
        type: "object",
        properties: {
          event: { type: "object", properties: { user: { type: "string" }, channel: { type: "string" } } },
        },
      }),
      "templates/message.hbs":
        "By {{default api.user.user.name event.user}} in {{default api.channel.channel.name event.channel}}",
    });
    server = await startTestServer({ INTEGRATIONS_DIR: dir }, { integrations: "all" });
  });
  afterAll(async () => {
    nock.cleanAll();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => nock.cleanAll());

  const contentOf = async (event: Record<string, unknown>) => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "asker", {
      body: JSON.stringify({ event }),
      query: { stream: "general", asker_app_token: "xoxb-sekrit" },
    });
    expect(res.status).toBe(200);
    return (await messagesSince(server, before, server.users.bot.id)).map((m) => m.content);
  };

  it("fills a query placeholder as one query value and uses an answer whose okField is true", async () => {
    const user = nock(HOST, { reqheaders: { authorization: "Bearer xoxb-sekrit" } })
      .get("/api/users.info")
      .query({ user: "U1 & x=2#", include_locale: "true" })
      .reply(200, { ok: true, user: { name: "ada" } });
    const channel = nock(HOST)
      .get("/api/conversations.info")
      .query({ channel: "C9" })
      .reply(200, { ok: true, channel: { name: "general" } });
    expect(await contentOf({ user: "U1 & x=2#", channel: "C9" })).toEqual(["By ada in general"]);
    expect(user.isDone() && channel.isDone()).toBe(true);
  });

  it.each([
    ["ok: false (Slack's failed call, answered with a 200)", { ok: false, error: "user_not_found" }],
    ["no ok field", { user: { name: "ada" } }],
    ["ok that is not true", { ok: "true", user: { name: "ada" } }],
    ["a JSON array", [{ ok: true, user: { name: "ada" } }]],
  ])("treats an answer with %s as no answer", async (_what, answer) => {
    const scope = nock(HOST)
      .get("/api/users.info")
      .query(true)
      .reply(200, answer as nock.Body);
    expect(await contentOf({ user: "U1" })).toEqual(["By U1 in"]);
    expect(scope.isDone()).toBe(true);
  });

  it(`makes no lookup whose filled path is longer than ${API_LOOKUP_MAX_PATH_CHARS} characters`, async () => {
    // The stub would answer a made lookup: it stays unused.
    const scope = nock(HOST)
      .get("/api/users.info")
      .query(true)
      .reply(200, { ok: true, user: { name: "x" } });
    const long = "u".repeat(API_LOOKUP_MAX_PATH_CHARS);
    expect(await contentOf({ user: long })).toEqual([`By ${long} in`]);
    expect(scope.isDone()).toBe(false);
  });

  it("fillPath encodes query values, keeps the literal query, and gives nothing when a value is missing", () => {
    expect(fillPath("/api/users.info?user={u}&x=1", { u: "a&b=c d" })).toBe("/api/users.info?user=a%26b%3Dc%20d&x=1");
    expect(fillPath("/v1/{id}/items?cursor={c}", { id: "a/b", c: "?#" })).toBe("/v1/a%2Fb/items?cursor=%3F%23");
    expect(fillPath("/api/users.info?user={u}", {})).toBeUndefined();
  });
});

describe("API lookup manifests the loader refuses", () => {
  const tmp = useTempDir("sb-lookup-load-");
  const problems = (api: Record<string, unknown>): string[] => {
    const dir = path.join(tmp.dir(), "integrations", "demo");
    writeFiles(
      dir,
      goodPlugin("demo", {}, { urlOptions: [{ key: "demo_token", description: "t" }], api: { ...BASE_API, ...api } }),
    );
    try {
      loadIntegrationFolder(dir, tmp.dir());
    } catch (err) {
      return (err as IntegrationLoadError).problems;
    }
    return [];
  };
  const BASE_API = {
    host: "api.demo.example",
    tokenOption: "demo_token",
    authHeader: "Authorization",
    lookups: { a: "/a" },
  };

  it("accepts method GET, an okField and the object form", () => {
    expect(problems({ method: "GET", okField: "ok", lookups: { a: { path: "/a?b={c}", method: "GET" } } })).toEqual([]);
  });

  it("refuses another method, a malformed okField, a lookup path with a fragment, and names each", () => {
    expect(problems({ method: "POST" })).toEqual([
      "integrations/demo/integration.json: /api/method: must be equal to one of the allowed values",
    ]);
    expect(problems({ okField: "ok.status" })).toEqual([
      'integrations/demo/integration.json: /api/okField: must match pattern "^[A-Za-z_][A-Za-z0-9_]*$"',
    ]);
    expect(problems({ lookups: { a: { path: "/a", method: "DELETE" } } })).toContain(
      "integrations/demo/integration.json: /api/lookups/a/method: must be equal to one of the allowed values",
    );
    expect(problems({ lookups: { a: "/a#frag" } })).toContain(
      'integrations/demo/integration.json: /api/lookups/a: must match pattern "^/[^?#]*(\\?[^#]*)?$"',
    );
  });

  it("takes a token option named token or ending in _token (all redacted), nothing else", () => {
    expect(problems({ tokenOption: "demo_token" })).toEqual([]);
    expect(problems({ tokenOption: "secret" })[0]).toMatch(/\/api\/tokenOption: must match pattern/);
  });
});
