// Start-up of the server as `npm start` runs it (`node --import tsx src/main.ts`, every plugin):
// from spawning the process to the first 200 from GET /api/v1/server_settings, on a fresh database
// (migrations and the demo organization) and on the one that run left (nothing to migrate), on
// SQLite and on MariaDB; with the process's CPU time up to then and its RSS once it answers. The
// baseline is a bare Koa hello world started the same way (Node and tsx alone). Each case runs
// BENCH_ROUNDS times and reports its median round; a fresh case gets a new database each round.
// Then the memory per thread (bench/threadMemory.ts, in its own process).
//   npx tsx bench/startup.ts               → one line of JSON per case (SQLite only without STARTUP_MYSQL_URL)
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import knex from "knex";
import type { ThreadMemoryResult } from "./threadMemory";

const ROOT = path.join(__dirname, "..");
const POLL_MS = 20;
const GIVE_UP_MS = 120_000;
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

export interface StartupCase {
  name: string;
  /** Spawn → first 200, each round, ms. */
  rounds_ms: number[];
  /** The median round's figures. */
  ms: number;
  cpu_ms: number;
  rss_mb: number;
}

interface Round {
  ms: number;
  cpuMs: number;
  rssMb: number;
}

/** utime + stime of every thread of the process (ms), and its resident set (MB), from /proc. */
function processFigures(pid: number): { cpuMs: number; rssMb: number } {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return { cpuMs, rssMb: rss ? Math.round(Number(rss[1]) / 102.4) / 10 : NaN };
  } catch {
    return { cpuMs: NaN, rssMb: NaN }; // not Linux
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill();
  await exited;
}

/** Spawns `script` and polls `url` until it answers 200. */
async function startOnce(script: string, env: Record<string, string>, url: string): Promise<Round> {
  const began = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  try {
    while (performance.now() - began < GIVE_UP_MS) {
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}: ${stderr}`);
      const ok = await fetch(url).then(
        async (res) => {
          await res.arrayBuffer();
          return res.status === 200;
        },
        () => false,
      );
      if (ok) {
        const ms = Math.round(performance.now() - began);
        return { ms, ...processFigures(child.pid!) };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`${script} did not answer ${url} within ${GIVE_UP_MS} ms`);
  } finally {
    await stop(child);
  }
}

function medianRound(name: string, rounds: Round[]): StartupCase {
  const sorted = [...rounds].sort((a, b) => a.ms - b.ms);
  const mid = sorted[Math.floor(sorted.length / 2)];
  const row = {
    name,
    rounds_ms: rounds.map((r) => r.ms),
    ms: mid.ms,
    cpu_ms: Math.round(mid.cpuMs),
    rss_mb: mid.rssMb,
  };
  process.stdout.write(`${name}: ${row.ms} ms to the first 200 (CPU ${row.cpu_ms} ms, RSS ${row.rss_mb} MB)\n`);
  return row;
}

function serverEnv(port: number, dataDir: string, databaseUrl = ""): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    EXTERNAL_URL: `http://127.0.0.1:${port}`,
  };
}

async function recreateMysql(baseUrl: string, name: string): Promise<string> {
  const admin = knex({ client: "mysql2", connection: { uri: baseUrl } as never });
  try {
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The start-up cases. `mysql`: MariaDB's server URL and a database name to (re)create for them;
 * without it only SQLite is measured.
 */
export async function measureStartup(options: {
  port: number;
  rounds: number;
  mysql?: { baseUrl: string; database: string };
}): Promise<StartupCase[]> {
  const { port, rounds } = options;
  const settings = `http://127.0.0.1:${port}/api/v1/server_settings`;
  const cases: StartupCase[] = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-bench-startup-"));
  try {
    const koa: Round[] = [];
    for (let i = 0; i < rounds; i++)
      koa.push(await startOnce("bench/helloKoa.ts", { PORT: String(port) }, `http://127.0.0.1:${port}/`));
    cases.push(medianRound("bare Koa hello world, node --import tsx (baseline)", koa));

    const fresh: Round[] = [];
    const existing: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      const dataDir = path.join(work, `sqlite-${i}`);
      fresh.push(await startOnce("src/main.ts", serverEnv(port, dataDir), settings));
      existing.push(await startOnce("src/main.ts", serverEnv(port, dataDir), settings));
    }
    cases.push(medianRound("Switchboard, SQLite, fresh data directory (migrations + demo organization)", fresh));
    cases.push(medianRound("Switchboard, SQLite, existing database", existing));

    if (options.mysql) {
      const { baseUrl, database } = options.mysql;
      const freshMy: Round[] = [];
      const existingMy: Round[] = [];
      for (let i = 0; i < rounds; i++) {
        const url = await recreateMysql(baseUrl, database);
        const dataDir = path.join(work, `mysql-${i}`);
        freshMy.push(await startOnce("src/main.ts", serverEnv(port, dataDir, url), settings));
        existingMy.push(await startOnce("src/main.ts", serverEnv(port, dataDir, url), settings));
      }
      cases.push(medianRound("Switchboard, MariaDB, fresh database (migrations + demo organization)", freshMy));
      cases.push(medianRound("Switchboard, MariaDB, existing database", existingMy));
      const admin = knex({ client: "mysql2", connection: { uri: baseUrl } as never });
      await admin.raw(`DROP DATABASE IF EXISTS \`${database}\``).finally(() => admin.destroy());
    }
    return cases;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** bench/threadMemory.ts in a process of its own (with --expose-gc), its JSON line parsed. */
export function measureMemoryPerThread(env: Record<string, string> = {}): Promise<ThreadMemoryResult> {
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "bench/threadMemory.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      if (code !== 0) return reject(new Error(`bench/threadMemory.ts exited with ${code}: ${out}`));
      resolve(JSON.parse(last) as ThreadMemoryResult);
    });
  });
}

if (require.main === module) {
  const mysqlUrl = process.env.STARTUP_MYSQL_URL;
  void (async () => {
    const cases = await measureStartup({
      port: Number(process.env.BENCH_PORT_BASE ?? 9980) + 20,
      rounds: Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3)),
      mysql: mysqlUrl ? { baseUrl: mysqlUrl, database: "switchboard_bench_startup" } : undefined,
    });
    for (const c of cases) process.stdout.write(JSON.stringify(c) + "\n");
    process.stdout.write(JSON.stringify(await measureMemoryPerThread()) + "\n");
  })();
}
