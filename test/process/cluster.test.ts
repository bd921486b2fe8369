// WEB_CONCURRENCY=N: the server forks N workers sharing one port (node's cluster). With Redis they
// share event queues (a queue registered through one worker is polled through any), both answer
// requests, and SIGTERM to the primary stops them all. Without Redis it refuses to start.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freshDatabaseUrl } from "../support/harness";

const ROOT = path.resolve(__dirname, "../..");
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
jest.setTimeout(120_000);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    // Only helloworld: the test is about the processes, and every plugin costs seconds per worker.
    env: { ...process.env, HOST: "127.0.0.1", INTEGRATIONS_ENABLED: "helloworld", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** One request on a connection of its own, so the primary hands each to the next worker. */
function request(
  port: number,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path: `/api/v1${pathAndQuery}`, agent: false, headers },
      (res) => {
        let data = "";
        res.on("data", (d) => (data += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

it("WEB_CONCURRENCY=2 with Redis: two workers answer, share the queues, and SIGTERM stops them all", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-cluster-"));
  const database = await freshDatabaseUrl();
  cleanups.push(async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const port = await freePort();
  const server = start({
    WEB_CONCURRENCY: "2",
    PORT: String(port),
    REDIS_URL,
    REDIS_PREFIX: `sbtest-cluster-${process.pid}-${Date.now()}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  cleanups.push(() => void server.child.kill("SIGKILL"));
  for (let i = 0; (server.output().match(/Switchboard listening on/g) ?? []).length < 2; i++) {
    if (server.child.exitCode !== null || i > 1000) throw new Error(`cluster did not start:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // Both workers answer: the request log lines (pino's pid field) name two processes.
  for (let i = 0; i < 6; i++) expect((await request(port, "GET", "/server_settings")).status).toBe(200);
  const pids = new Set(
    server
      .output()
      .split("\n")
      .filter((line) => line.includes('"msg":"request"') && line.includes("/server_settings"))
      .map((line) => (JSON.parse(line) as { pid: number }).pid),
  );
  expect(pids.size).toBe(2);
  expect(pids.has(server.child.pid!)).toBe(false);

  // A queue registered through one worker works through every worker.
  const key = /owner +owner@example\.com +API key (\S+)/.exec(server.output())![1];
  const auth = { authorization: "Basic " + Buffer.from(`owner@example.com:${key}`).toString("base64") };
  const registered = await request(port, "POST", "/register?event_types=%5B%22message%22%5D", auth);
  expect(registered.body.result).toBe("success");
  const sent = await request(port, "POST", "/messages?type=stream&to=general&topic=cluster&content=hi", auth);
  expect(sent.body.result).toBe("success");
  for (let i = 0; i < 4; i++) {
    const polled = await request(
      port,
      "GET",
      `/events?queue_id=${encodeURIComponent(registered.body.queue_id)}&last_event_id=-1&dont_block=true`,
      auth,
    );
    expect(polled.body.result).toBe("success");
    expect(polled.body.events.map((e: { message: { id: number } }) => e.message.id)).toEqual([sent.body.id]);
  }

  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  for (const pid of pids) expect(isAlive(pid)).toBe(false);
  await expect(request(port, "GET", "/server_settings")).rejects.toThrow();
});

it("WEB_CONCURRENCY=2 without REDIS_URL refuses to start, saying why", async () => {
  const server = start({ WEB_CONCURRENCY: "2", PORT: String(await freePort()), REDIS_URL: "" });
  cleanups.push(() => void server.child.kill("SIGKILL"));
  expect(await server.exited).toBe(1);
  expect(server.output()).toMatch(/WEB_CONCURRENCY=2 needs REDIS_URL/);
});
