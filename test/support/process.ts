// Real server and service processes for the tests that need one of their own (crashes, signals,
// replicas, a database or Redis that goes away): free ports, spawning, waiting and killing.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freshDatabaseUrl } from "./harness";

const ROOT = path.resolve(__dirname, "../..");

/** The server as `npm start` runs it, without npm in between. */
export const SERVER_COMMAND = [process.execPath, "--import", "tsx", "src/main.ts"];

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export const canConnect = (port: number): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

/** Polls until the port accepts connections; false when it still does not after `attempts` tries. */
export async function waitForPort(port: number, attempts: number, intervalMs: number): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await canConnect(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}

/** SIGKILLs a child process and waits for its exit (nothing to do when it has already gone). */
export async function killProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * Starts the server (by `command`, from the repository root) on 127.0.0.1:port with extra env.
 * Only the helloworld plugin is loaded unless `env` says otherwise (INTEGRATIONS_ENABLED: "" for
 * every folder): these tests are about the process, and every plugin costs seconds per start.
 */
export function startServerProcess(command: string[], env: Record<string, string>, port: number): ServerProcess {
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      PORT: String(port),
      INTEGRATIONS_ENABLED: "helloworld",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port, output: () => out, exited };
}

/** Waits for the server's "listening" line; throws with its output when it exits or never gets there. */
export async function waitUntilListening(server: ServerProcess, attempts = 1200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    if (/Switchboard listening/.test(server.output())) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not start:\n${server.output()}`);
}

/** DATA_DIR (a new temporary folder) and DATABASE_URL (a fresh database) for a server process;
 * `onCleanup` receives the function that removes both. */
export async function serverEnvironment(
  tmpPrefix: string,
  onCleanup: (fn: () => Promise<void>) => void,
): Promise<{ DATA_DIR: string; DATABASE_URL?: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  const database = await freshDatabaseUrl();
  onCleanup(async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}) };
}
