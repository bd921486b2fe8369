// The server as an operator runs it: `npm start` in its own process. SIGTERM stops it gracefully
// (a long-poll in flight gets its final heartbeat, exit code 0), and replicas started together on
// an empty database all come up (the migration lock and the first-run seeding are waited for).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freshDatabaseUrl } from "../support/harness";

const ROOT = path.resolve(__dirname, "../..");
jest.setTimeout(90_000);

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
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

function start(command: string[], env: Record<string, string>, port: number): Running {
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port, output: () => out, exited };
}

async function waitUntilListening(r: Running): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (r.child.exitCode !== null) throw new Error(`server exited early:\n${r.output()}`);
    if (/Switchboard listening/.test(r.output())) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not start:\n${r.output()}`);
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

async function environment(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-proc-"));
  const database = await freshDatabaseUrl();
  cleanups.push(async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}) };
}

it("npm start: SIGTERM answers the long-poll in flight with a heartbeat and exits 0", async () => {
  const env = await environment();
  const port = await freePort();
  const server = start(["npm", "start", "--silent"], { ...env, EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: "60" }, port);
  cleanups.push(() => void server.child.kill("SIGKILL"));
  await waitUntilListening(server);
  const key = /owner +owner@example\.com +API key (\S+)/.exec(server.output())![1];
  const auth = { authorization: "Basic " + Buffer.from(`owner@example.com:${key}`).toString("base64") };
  const base = `http://127.0.0.1:${port}/api/v1`;
  const registered = (await (await fetch(`${base}/register`, { method: "POST", headers: auth })).json()) as any;
  expect(registered.result).toBe("success");

  const poll = fetch(`${base}/events?queue_id=${registered.queue_id}&last_event_id=-1`, { headers: auth });
  await new Promise((resolve) => setTimeout(resolve, 300)); // the poll is now waiting on the server
  server.child.kill("SIGTERM");

  const answer = (await (await poll).json()) as any;
  expect(answer.result).toBe("success");
  expect(answer.events.map((e: { type: string }) => e.type)).toEqual(["heartbeat"]);
  expect(await server.exited).toBe(0);
  // Nothing is left listening on the port.
  await expect(fetch(`${base}/server_settings`)).rejects.toThrow();
});

it("three replicas started at once on an empty database all come up", async () => {
  const env = await environment();
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const replicas = ports.map((port) => start([process.execPath, "--import", "tsx", "src/main.ts"], env, port));
  cleanups.push(() => replicas.forEach((r) => r.child.kill("SIGKILL")));
  await Promise.all(replicas.map(waitUntilListening));
  for (const r of replicas) {
    const res = await fetch(`http://127.0.0.1:${r.port}/api/v1/server_settings`);
    expect(res.status).toBe(200);
  }
  // Exactly one of them seeded the demo organization.
  expect(replicas.filter((r) => /Created a demo organization/.test(r.output()))).toHaveLength(1);
  for (const r of replicas) r.child.kill("SIGTERM");
  expect(await Promise.all(replicas.map((r) => r.exited))).toEqual([0, 0, 0]);
});
