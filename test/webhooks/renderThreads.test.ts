// Render threads (src/webhooks/pipelineThreads.ts) through real servers and a real plugin folder
// whose transform can be made slow, endless, memory-hungry or broken: the event loop keeps serving
// while a delivery renders, the time and memory limits answer 400 RENDER_LIMIT_EXCEEDED and replace
// the thread without failing the deliveries queued behind it, and errors keep their meaning across.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { ApiError } from "../../src/errors";
import { loadIntegrationFolder } from "../../src/webhooks/loader";
import {
  decodeTask,
  encodeTask,
  PipelineThreads,
  withoutLoaders,
  type ThreadTask,
} from "../../src/webhooks/pipelineThreads";
import { renderThreadBundle } from "../../src/webhooks/renderThreadBundle";
import { goodPlugin, writeFiles } from "../support/pluginFolders";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

// A thread that waits (Atomics.wait) is as busy to the clock as one that spins, at no CPU cost.
const BLOCK = "const block = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);";
const TRANSFORM = `
${BLOCK}
exports.transform = function transform(payload) {
  if (payload.mode === "spin") block(payload.ms);
  if (payload.mode === "forever") for (;;);
  if (payload.mode === "hog") { const hoard = []; for (;;) hoard.push(new Array(10000).fill(hoard.length)); }
  if (payload.mode === "bug") throw new TypeError("the plugin has a bug");
  return {};
};
`;

const pluginsDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-render-threads-"));
writeFiles(
  path.join(pluginsDir, "slowpoke"),
  goodPlugin("slowpoke", { "transform.js": TRANSFORM }, { displayName: "Slowpoke", transform: "transform.js" }),
);
// The same plugin, whose module takes LOAD_MS to load: longer than the clock test's limit on any
// machine, however fast it starts a thread.
const LOAD_MS = 1500;
writeFiles(
  path.join(pluginsDir, "slowload"),
  goodPlugin(
    "slowload",
    { "transform.js": `${TRANSFORM}\nblock(${LOAD_MS});\n` },
    { displayName: "Slowload", transform: "transform.js" },
  ),
);
afterAll(() => fs.rmSync(pluginsDir, { recursive: true, force: true }));

const deliver = (server: TestServer, payload: Record<string, unknown>, plugin = "slowpoke") =>
  postWebhook(server, plugin, { body: JSON.stringify(payload), query: { stream: "general" } });

/** A test server with these settings for the enclosing describe block (started once, closed after). */
function serverWith(env: Record<string, string>): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(env, { integrations: "all" });
  });
  afterAll(() => server?.close());
  return () => server as TestServer;
}

describe("render threads", () => {
  const server = serverWith({
    INTEGRATIONS_DIR: pluginsDir,
    WEBHOOK_RENDER_THREADS: "1",
    WEBHOOK_RENDER_TIMEOUT_MS: "1000",
  });

  it("keeps the event loop serving while a delivery renders", async () => {
    expect((await deliver(server(), { title: "warm-up" })).status).toBe(200); // the thread loads the plugin
    const finished: string[] = [];
    const slow = deliver(server(), { title: "slow", mode: "spin", ms: 800 }).then((res) => {
      finished.push("webhook");
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const settings = await fetch(`${server().url}/api/v1/server_settings`);
    finished.push("server_settings");
    expect(settings.status).toBe(200);
    expect((await slow).status).toBe(200);
    // Inline, the 800 ms transform would hold the loop and server_settings would be answered last.
    expect(finished).toEqual(["server_settings", "webhook"]);
  });

  it("stops a delivery past the time limit with a 400 naming it; deliveries queued behind it still post", async () => {
    const before = await latestMessageId(server());
    const endless = deliver(server(), { title: "endless", mode: "forever" });
    const queued = ["one", "two", "three"].map((title) => deliver(server(), { title }));
    const res = await endless;
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: "error",
      code: "RENDER_LIMIT_EXCEEDED",
      msg: "Reading this Slowpoke delivery took longer than 1000 ms (WEBHOOK_RENDER_TIMEOUT_MS)",
      limit: 1000,
      limit_name: "WEBHOOK_RENDER_TIMEOUT_MS",
    });
    expect((await Promise.all(queued)).map((r) => r.status)).toEqual([200, 200, 200]);
    const stored = (await messagesSince(server(), before)).map((m) => m.content).sort();
    expect(stored).toEqual(["Hello one", "Hello three", "Hello two"]);
    // The replacement thread serves the next delivery.
    expect((await deliver(server(), { title: "after" })).status).toBe(200);
  });

  it("gives a preview the same limit: it answers the error instead of what would be posted", async () => {
    const res = await server()
      .as(server().users.member)
      .post("/webhooks/preview", {
        integration: "slowpoke",
        body: JSON.stringify({ title: "endless", mode: "forever" }),
      });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      outcome: "error",
      messages: [],
      error: { code: "RENDER_LIMIT_EXCEEDED", msg: expect.stringContaining("WEBHOOK_RENDER_TIMEOUT_MS") },
    });
  });

  it("answers a plugin's own bug as before: a 500 with a request id, nothing stored", async () => {
    const before = await latestMessageId(server());
    const res = await deliver(server(), { title: "bug", mode: "bug" });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ result: "error", code: "INTERNAL_SERVER_ERROR" });
    expect(typeof res.body.request_id).toBe("string");
    expect(await messagesSince(server(), before)).toEqual([]);
  });

  it("keeps a refused delivery's meaning across the thread: a too-deep body is the same 400", async () => {
    const deep = `{"title":${"[".repeat(150)}${"]".repeat(150)}}`;
    const res = await postWebhook(server(), "slowpoke", { body: deep, query: { stream: "general" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "BAD_REQUEST", limit: 100 });
  });
});

describe("render threads' clock", () => {
  // Below LOAD_MS, and well above a render of this plugin on a loaded machine.
  const server = serverWith({ INTEGRATIONS_DIR: pluginsDir, WEBHOOK_RENDER_TIMEOUT_MS: "1000" });

  it("does not count starting the thread or loading the plugin (loading takes longer than this limit)", async () => {
    expect((await deliver(server(), { title: "first" }, "slowload")).status).toBe(200);
    const endless = await deliver(server(), { title: "endless", mode: "forever" }, "slowload");
    expect(endless.body.code).toBe("RENDER_LIMIT_EXCEEDED");
    // On the thread started in its place: started and loaded afresh, not counted either.
    expect((await deliver(server(), { title: "next" }, "slowload")).status).toBe(200);
  });
});

describe("render threads' memory limit", () => {
  const server = serverWith({ INTEGRATIONS_DIR: pluginsDir, WEBHOOK_RENDER_MEMORY_MB: "64" });

  it("stops a delivery that needs more memory than a thread has, and serves the next", async () => {
    const before = await latestMessageId(server());
    const res = await deliver(server(), { title: "hog", mode: "hog" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "RENDER_LIMIT_EXCEEDED",
      msg: "Reading this Slowpoke delivery needed more than 64 MB (WEBHOOK_RENDER_MEMORY_MB)",
      limit: 64,
      limit_name: "WEBHOOK_RENDER_MEMORY_MB",
    });
    expect((await deliver(server(), { title: "fine" })).status).toBe(200);
    expect((await messagesSince(server(), before)).map((m) => m.content)).toEqual(["Hello fine"]);
  });
});

describe("render threads off (WEBHOOK_RENDER_THREADS=0)", () => {
  const server = serverWith({ INTEGRATIONS_DIR: pluginsDir, WEBHOOK_RENDER_THREADS: "0" });

  it("renders on the event loop, with the same answers", async () => {
    const before = await latestMessageId(server());
    expect((await deliver(server(), { title: "inline" })).status).toBe(200);
    expect((await deliver(server(), { title: "bug", mode: "bug" })).status).toBe(500);
    expect((await messagesSince(server(), before)).map((m) => m.content)).toEqual(["Hello inline"]);
  });
});

describe("a task's wire form", () => {
  it("carries any body bytes and any header text unchanged", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.string(),
        fc.string({ unit: "binary" }),
        (bytes, header, secret) => {
          const task: ThreadTask = {
            id: 7,
            dir: "/plugins/x",
            request: { headers: { "x-event": header, "content-type": "application/json" }, query: { a: "\n" }, secret },
          };
          const decoded = decodeTask(encodeTask(task, Buffer.from(bytes)));
          expect(decoded.task).toEqual(task);
          expect([...decoded.body]).toEqual([...bytes]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("warming the threads", () => {
  /** A plugin whose transform notes each time a thread loads it (once per thread: require caches it). */
  function markerPlugin(dir: string): { folder: string; loads: () => number } {
    const marker = path.join(dir, "loads.txt");
    const transform = `require("node:fs").appendFileSync(${JSON.stringify(marker)}, "x"); exports.transform = () => ({});`;
    const folder = path.join(dir, "marker");
    writeFiles(folder, goodPlugin("marker", { "transform.js": transform }, { transform: "transform.js" }));
    return { folder, loads: () => (fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").length : 0) };
  }

  it("starts every thread and loads no plugin before its first delivery", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-render-warm-"));
    const { loads } = markerPlugin(dir);
    const threads = new PipelineThreads({ threads: 2, timeoutMs: 1000, memoryMb: 128, plugins: 64 });
    try {
      threads.warm();
      const reports = await threads.memory();
      expect(reports.map((r) => r.plugins)).toEqual([0, 0]);
      for (const report of reports) expect(report.heapUsedBytes).toBeGreaterThan(0);
      expect(loads()).toBe(0);
    } finally {
      await threads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loads the plugin folders it is given on every thread ahead of their first delivery", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-render-warm-"));
    const { folder, loads } = markerPlugin(dir);
    const threads = new PipelineThreads({ threads: 2, timeoutMs: 1000, memoryMb: 128, plugins: 64 });
    try {
      threads.warm([folder]);
      for (let waited = 0; loads() < 2 && waited < 30_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(loads()).toBe(2);
      expect((await threads.memory()).map((r) => r.plugins)).toEqual([1, 1]);
    } finally {
      await threads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a thread's plugins (WEBHOOK_RENDER_PLUGINS)", () => {
  it("keeps the ones it used last, at most that many, and loads a dropped one again when it is needed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-render-lru-"));
    const names = ["alpha", "bravo", "charlie"];
    for (const name of names) writeFiles(path.join(dir, name), goodPlugin(name));
    const plugins = Object.fromEntries(names.map((n) => [n, loadIntegrationFolder(path.join(dir, n))]));
    const threads = new PipelineThreads({ threads: 1, timeoutMs: 5000, memoryMb: 128, plugins: 2 });
    const render = async (name: string, title: string) => {
      const result = await threads.run(plugins[name], {
        headers: { "content-type": "application/json" },
        query: { stream: "general" },
        body: Buffer.from(JSON.stringify({ title })),
      });
      if (!("outcome" in result) || result.outcome.kind !== "messages") throw new Error(JSON.stringify(result));
      return result.outcome.messages.map((m) => m.content);
    };
    try {
      expect(await render("alpha", "one")).toEqual(["Hello one"]);
      expect(await render("bravo", "two")).toEqual(["Hello two"]);
      expect((await threads.memory()).map((r) => r.plugins)).toEqual([2]);
      // A third plugin drops the one used longest ago (alpha); alpha then comes back in bravo's place.
      expect(await render("charlie", "three")).toEqual(["Hello three"]);
      expect((await threads.memory()).map((r) => r.plugins)).toEqual([2]);
      expect(await render("alpha", "four")).toEqual(["Hello four"]);
      expect(await render("charlie", "five")).toEqual(["Hello five"]);
      expect((await threads.memory()).map((r) => r.plugins)).toEqual([2]);
    } finally {
      await threads.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a thread's code (renderThreadBundle.ts)", () => {
  const entry = path.resolve(__dirname, "../../src/webhooks/renderThreadEntry.ts");

  it("is the sources bundled into one file, named by its content, built once per process", () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-render-bundle-"));
    try {
      const file = renderThreadBundle(entry, cacheDir);
      expect(file).toMatch(/render-thread-[0-9a-f]{16}\.js$/);
      expect(path.dirname(file as string)).toBe(cacheDir);
      const code = fs.readFileSync(file as string, "utf8");
      // The framework is inside; packages are still required from node_modules.
      expect(code).toContain("function loadIntegrationFolder(");
      expect(code).toContain('require("handlebars")');
      expect(code).toMatch(/\/\/# sourceMappingURL=render-thread-[0-9a-f]{16}\.js\.map\n$/);
      expect(fs.existsSync(`${file}.map`)).toBe(true);
      expect(renderThreadBundle(entry, cacheDir)).toBe(file);
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it("is reused while its sources hash the same, and built again when one changes", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-render-bundle-"));
    const cache = path.join(dir, "cache");
    try {
      writeFiles(dir, {
        "a/entry.ts": 'import { word } from "./dep";\nconsole.log(word);\n',
        "a/dep.ts": 'export const word = "one";\n',
        "b/other.ts": 'console.log("other");\n',
      });
      const entry = path.join(dir, "a", "entry.ts");
      // The list of what the entry's bundle was built from (one per entry, named by the entry's path).
      const list = path.join(
        cache,
        `built-from-${crypto.createHash("sha256").update(entry).digest("hex").slice(0, 12)}.json`,
      );
      const first = renderThreadBundle(entry, cache) as string;
      const builtAt = fs.statSync(list).mtimeMs;
      // Another entry in between: this process's memory of the last bundle is gone.
      renderThreadBundle(path.join(dir, "b", "other.ts"), cache);
      expect(renderThreadBundle(entry, cache)).toBe(first);
      expect(fs.statSync(list).mtimeMs).toBe(builtAt); // reused, not built
      fs.writeFileSync(path.join(dir, "a", "dep.ts"), 'export const word = "two";\n');
      renderThreadBundle(path.join(dir, "b", "other.ts"), cache);
      const second = renderThreadBundle(entry, cache) as string;
      expect(second).not.toBe(first);
      expect(fs.readFileSync(second, "utf8")).toContain('"two"');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("starts without the process's module loaders (npm start's --import tsx), keeping its other options", () => {
    expect(
      withoutLoaders([
        "--import",
        "tsx",
        "--expose-gc",
        "--require=./x.js",
        "-r",
        "y",
        "--loader=z",
        "--max-old-space-size=64",
      ]),
    ).toEqual(["--expose-gc", "--max-old-space-size=64"]);
  });

  it("is not built when a source outside the entry's folder names its own path (threads then start through tsx)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-render-bundle-"));
    try {
      writeFiles(dir, {
        "a/entry.ts": 'import { here } from "../b/where";\nconsole.log(here);\n',
        "b/where.ts": "export const here = __dirname;\n",
        "a/plain.ts": 'import { here } from "../b/fixed";\nconsole.log(here, __dirname);\n',
        "b/fixed.ts": 'export const here = "b";\n',
      });
      expect(renderThreadBundle(path.join(dir, "a", "entry.ts"), path.join(dir, "cache"))).toBeUndefined();
      expect(fs.existsSync(path.join(dir, "cache"))).toBe(false);
      // The same layout without it is bundled (the entry's own folder may use it).
      expect(renderThreadBundle(path.join(dir, "a", "plain.ts"), path.join(dir, "cache"))).toBeDefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives a plugin's transform.ts the bundle's framework: its refusal is the same 400 as inline", async () => {
    // slack_incoming's transform.ts imports src/webhooks/plugin.ts and calls refusePayload.
    const dir = path.resolve(__dirname, "../../integrations/slack_incoming");
    const integration = loadIntegrationFolder(dir);
    const request = {
      headers: { "content-type": "application/json" },
      query: { stream: "general" },
      body: fs.readFileSync(path.join(dir, "fixtures", "invalid__nothing_to_show.json")),
    };
    const threads = new PipelineThreads({ threads: 1, timeoutMs: 5000, memoryMb: 128, plugins: 2 });
    const inline = new PipelineThreads({ threads: 0, timeoutMs: 5000, memoryMb: 128, plugins: 2 });
    try {
      const [threaded, onLoop] = [await threads.run(integration, request), await inline.run(integration, request)];
      for (const result of [threaded, onLoop]) {
        if (!("error" in result)) throw new Error(JSON.stringify(result));
        expect(result.error).toBeInstanceOf(ApiError);
        expect((result.error as ApiError).code).toBe("INVALID_PAYLOAD");
      }
      expect((threaded as { error: Error }).error.message).toBe((onLoop as { error: Error }).error.message);
    } finally {
      await threads.close();
      await inline.close();
    }
  });
});
