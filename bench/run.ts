// npm run bench: autocannon against Switchboard and against baselines, all in the same run, on loopback.
// Cases: bare Koa (baseline), a naive Koa+Knex send (baseline, MySQL), a raw better-sqlite3 send
// (baseline), POST /messages to a 20-subscriber channel on MySQL and on SQLite, GET /messages, GitHub
// push, POST /messages to a 1,000-subscriber channel (all active, then with 980 soft-deactivated),
// and event latency (a long-polling client, from the start of a send to the event's arrival). The
// throughput cases run in rounds (BENCH_ROUNDS, 3) and report their median round; MariaDB is settled
// before each MySQL case. Last, the event loop's delay while 4 MB webhook deliveries are posted
// (bench/webhookLoopDelay.ts, key webhookLoopDelay). First, before any of those servers starts: the
// server's start-up time on fresh and existing databases against a bare Koa's (key startup), and the
// memory of its main thread and of each render thread (key threadMemory; bench/startup.ts); how long
// a render thread takes to start, from its bundle and through tsx (key threadStart; bench/threadStart.ts).
// Writes bench/results.md and bench/results.json.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import knex from "knex";
import { createDb, migrateLatest } from "../src/db/knex";
import { BOT_TYPE, ROLE, type UserRow } from "../src/db/rows";
import { upsertSubscriptions } from "../src/db/subscriptions";
import { withTransaction } from "../src/db/transaction";
import { insertChannel } from "../src/services/channels/channels";
import { createRealm } from "../src/services/realms/realms";
import { softDeactivateIdleUsers } from "../src/services/users/softDeactivation";
import { createBot, createUser } from "../src/services/users/users";
import { nameKey } from "../src/names";
import { githubPushPayload } from "./githubPush";
import { measureWebhookLoopDelay, type LoopDelayCase } from "./webhookLoopDelay";
import { measureMemoryPerThread, measureStartup, type StartupCase } from "./startup";
import type { ThreadMemoryResult } from "./threadMemory";
import { measureThreadStart, type ThreadStartCase } from "./threadStart";

const ROOT = path.join(__dirname, "..");
const BASE_URL = process.env.BENCH_DATABASE_URL ?? "mysql://root@127.0.0.1:3306/test";
// Several benches can share one MariaDB and one machine: each with its own database and ports.
const DB_NAME = process.env.BENCH_DB_NAME ?? "switchboard_bench";
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 9980);
// BENCH_ONLY=send,webhook: only those cases (keys as in results.json's order), for a quick look.
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",")) : undefined;
const wanted = (key: string) => !ONLY || ONLY.has(key);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 300);
// Rounds of the throughput cases; each reports its median round.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const SUBSCRIBERS = 20;
const CROWD = 1000;

interface Case {
  name: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  /** Requests/s of each round, when the case ran in rounds (the row shows their median). */
  rps_rounds?: number[];
}

function start(script: string, env: Record<string, string>): Promise<ChildProcess> {
  // BENCH_PROFILE=dir: the servers write V8 CPU profiles there (one folder per port) when they stop.
  const profile = process.env.BENCH_PROFILE;
  const args = profile
    ? ["--cpu-prof", `--cpu-prof-dir=${path.join(profile, env.PORT ?? "server")}`, "--import", "tsx", script]
    : [require.resolve("tsx/cli"), script];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (/listening/i.test(out)) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill();
  await exited;
}

async function measure(name: string, opts: autocannon.Options): Promise<Case> {
  await autocannon({ ...opts, connections: CONNECTIONS, duration: 2 }); // warm-up, not recorded
  const result = await autocannon({ ...opts, connections: CONNECTIONS, duration: DURATION });
  const row = {
    name,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
  process.stdout.write(`${name}: ${row.rps} req/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms, failed ${row.non2xx}\n`);
  return row;
}

/** A case's median round: requests/s, p50 and p99 each the median of the rounds; failures summed. */
function medianCase(rounds: Case[]): Case {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  return {
    name: rounds[0].name,
    rps: Math.round(median(rounds.map((r) => r.rps))),
    p50_ms: median(rounds.map((r) => r.p50_ms)),
    p99_ms: median(rounds.map((r) => r.p99_ms)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    ...(rounds.length > 1 ? { rps_rounds: rounds.map((r) => r.rps) } : {}),
  };
}

async function freshMysqlDatabase(): Promise<string> {
  const admin = knex({ client: "mysql2", connection: { uri: BASE_URL } as never });
  await admin.raw(`DROP DATABASE IF EXISTS \`${DB_NAME}\``);
  await admin.raw(`CREATE DATABASE \`${DB_NAME}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
  const url = new URL(BASE_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

const SETTLE_LIMIT_MS = 60_000;
let settleUnavailable = false;

/**
 * Before each MySQL case: MariaDB writes out the dirty pages the earlier cases left (it flushes them
 * lazily, at innodb_io_capacity, while the next case runs), so no case pays for another's writes and
 * the naive baseline, measured first, has no head start. The flushing setting is restored at once.
 * Needs the privilege to set globals; without it the cases run unsettled (said once).
 */
async function settleMariaDb(): Promise<void> {
  if (settleUnavailable) return;
  const admin = knex({ client: "mysql2", connection: { uri: BASE_URL } as never, pool: { min: 1, max: 1 } });
  try {
    const [[saved]] = (await admin.raw("SELECT @@GLOBAL.innodb_max_dirty_pages_pct AS pct")) as [{ pct: number }[]];
    await admin.raw("SET GLOBAL innodb_max_dirty_pages_pct = 0");
    try {
      const until = Date.now() + SETTLE_LIMIT_MS;
      while (Date.now() < until) {
        const [[dirty]] = (await admin.raw("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")) as [
          { Value: string }[],
        ];
        if (Number(dirty.Value) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await admin.raw("SET GLOBAL innodb_max_dirty_pages_pct = ?", [saved.pct]);
    }
  } catch (err) {
    settleUnavailable = true;
    process.stdout.write(`MariaDB not settled between cases: ${(err as Error).message}\n`);
  } finally {
    await admin.destroy();
  }
}

/** An organization with a 20-subscriber channel `bench`, a 1,000-subscriber `crowd`, a webhook bot. */
async function seed(databaseUrl: string, dataDir: string) {
  const db = createDb(databaseUrl, dataDir);
  await migrateLatest(db);
  const { realm, owner, ownerApiKey } = await createRealm(db, {
    subdomain: "",
    name: "Bench",
    owner: { email: "owner@bench.example", fullName: "Owner" },
  });
  const members = [owner.id];
  const listener = await createUser(db, realm.id, {
    email: "listener@bench.example",
    fullName: "Listener",
    role: ROLE.member,
  });
  members.push(listener.user.id);
  while (members.length < SUBSCRIBERS) {
    const n = members.length;
    const email = `user${n}@bench.example`;
    members.push((await createUser(db, realm.id, { email, fullName: `User ${n}`, role: ROLE.member })).user.id);
  }
  // The crowd: rows cloned from a member (creating 1,000 users through the service takes too long).
  const { id: _id, ...template } = (await db<UserRow>("users").where({ id: members[2] }).first())!;
  const clones = Array.from({ length: CROWD - SUBSCRIBERS }, (_, i) => ({
    ...template,
    email: `crowd${i}@bench.example`,
    email_key: nameKey(`crowd${i}@bench.example`),
    delivery_email: `crowd${i}@bench.example`,
    full_name: `Crowd ${i}`,
    api_key_hash: crypto.randomBytes(32).toString("hex"),
    // Away for two months: the soft-deactivation job marks them idle when the bench runs it.
    last_active_at: Math.floor(Date.now() / 1000) - 60 * 86_400,
  }));
  for (let i = 0; i < clones.length; i += 200) await db("users").insert(clones.slice(i, i + 200));
  const crowd = (await db("users").where("email", "like", "crowd%").select("id")).map((r: { id: number }) => r.id);
  const bot = await createBot(db, realm.id, {
    email: "bot@bench.example",
    fullName: "Bench Bot",
    ownerId: owner.id,
    botType: BOT_TYPE.incomingWebhook,
  });
  const streamId = await withTransaction(db, async (trx) => {
    const stream = await insertChannel(trx, realm, owner, { name: "bench" });
    await upsertSubscriptions(
      trx,
      members.map((user_id) => ({ user_id, stream_id: stream.id })),
    );
    const big = await insertChannel(trx, realm, owner, { name: "crowd" });
    const everyone = [...members, ...crowd].map((user_id) => ({ user_id, stream_id: big.id }));
    for (let i = 0; i < everyone.length; i += 200) await trx("subscriptions").insert(everyone.slice(i, i + 200));
    return stream.id;
  });
  await db.destroy();
  const basic = (email: string, key: string) => "Basic " + Buffer.from(`${email}:${key}`).toString("base64");
  return {
    realmId: realm.id,
    ownerId: owner.id,
    streamId,
    members,
    owner: basic(owner.email, ownerApiKey),
    listener: basic(listener.user.email, listener.apiKey),
    botKey: bot.apiKey,
  };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

function sendBody(to: string): string {
  return new URLSearchParams({
    type: "stream",
    to,
    topic: "load",
    content: "Benchmark **message** with a [link](https://example.com).",
  }).toString();
}

function sendCase(name: string, port: number, auth: string, to: string): Promise<Case> {
  return measure(name, {
    url: `http://127.0.0.1:${port}/api/v1/messages`,
    method: "POST",
    headers: { ...(auth ? { authorization: auth } : {}), "content-type": "application/x-www-form-urlencoded" },
    body: sendBody(to),
  });
}

function baselineEnv(seeded: Seeded, databaseUrl: string, port: number): Record<string, string> {
  return {
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    REALM_ID: String(seeded.realmId),
    SENDER_ID: String(seeded.ownerId),
    STREAM_ID: String(seeded.streamId),
    RECIPIENTS: seeded.members.join(","),
  };
}

function serverEnv(port: number, databaseUrl: string, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    RATE_LIMITING: "false",
    LOG_LEVEL: "warn",
    EXTERNAL_URL: `http://127.0.0.1:${port}`,
    EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: "30",
  };
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) / 100;
}

/** A one-at-a-time case's row: its "requests/s" is sends per second; p50/p99 of the samples. */
function latencyCase(name: string, samples: number[], seconds: number): Case {
  samples.sort((a, b) => a - b);
  const row: Case = {
    name,
    rps: Math.round((LATENCY_SAMPLES + 20) / seconds),
    p50_ms: percentile(samples, 50),
    p99_ms: percentile(samples, 99),
    non2xx: 0,
  };
  process.stdout.write(`${row.name}: p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms\n`);
  return row;
}

/**
 * A long-polling client's delay from the start of a send to the arrival of its event, sends one at a
 * time. The client polls without pause; each send's event is recognised by its message id, so events
 * of sends still finishing from an earlier case cannot be taken for it.
 */
async function eventLatency(port: number, seeded: Seeded, database: string): Promise<Case> {
  const api = `http://127.0.0.1:${port}/api/v1`;
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const registered = await fetch(`${api}/register`, {
    method: "POST",
    headers: { authorization: seeded.listener, ...form },
    body: new URLSearchParams({ event_types: JSON.stringify(["message"]) }).toString(),
  }).then((r) => r.json() as Promise<{ queue_id: string; last_event_id: number }>);
  let lastEventId = registered.last_event_id;
  const arrivedAt = new Map<number, number>();
  const waiting = new Map<number, (at: number) => void>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const query = new URLSearchParams({ queue_id: registered.queue_id, last_event_id: String(lastEventId) });
      const res = await fetch(`${api}/events?${query}`, { headers: { authorization: seeded.listener } });
      const arrived = performance.now();
      const body = (await res.json()) as { events?: { id: number; type: string; message?: { id: number } }[] };
      if (!body.events) throw new Error(`event latency: GET /events answered ${JSON.stringify(body)}`);
      for (const event of body.events) {
        lastEventId = Math.max(lastEventId, event.id);
        if (event.type !== "message" || !event.message) continue;
        const waiter = waiting.get(event.message.id);
        if (waiter) waiter(arrived);
        else arrivedAt.set(event.message.id, arrived);
      }
    }
  })();
  const samples: number[] = [];
  const began = performance.now();
  for (let i = 0; i < LATENCY_SAMPLES + 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2)); // let the poll park on the server
    const sent = performance.now();
    const send = await fetch(`${api}/messages`, {
      method: "POST",
      headers: { authorization: seeded.owner, ...form },
      body: sendBody("bench"),
    });
    if (send.status !== 200) throw new Error(`event latency: send answered ${send.status}`);
    const { id } = (await send.json()) as { id: number };
    const arrived = arrivedAt.get(id) ?? (await new Promise<number>((resolve) => waiting.set(id, resolve)));
    if (i >= 20) samples.push(arrived - sent); // the first 20 warm up
  }
  const seconds = (performance.now() - began) / 1000;
  polling = false;
  // One last send wakes the parked poll so the loop can end.
  await fetch(`${api}/messages`, {
    method: "POST",
    headers: { authorization: seeded.owner, ...form },
    body: sendBody("bench"),
  });
  await poller;
  return latencyCase(`event latency (long-polling client, send start → event, ${database})`, samples, seconds);
}

/**
 * The floor under event latency: the naive send's own response time, sends one at a time (a send's
 * event can only exist once its transaction has committed, and a MariaDB commit waits for its log
 * to reach the disk).
 */
async function serialSendLatency(port: number, name: string): Promise<Case> {
  const samples: number[] = [];
  const began = performance.now();
  for (let i = 0; i < LATENCY_SAMPLES + 20; i++) {
    const sent = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: sendBody("bench"),
    });
    if (res.status !== 200) throw new Error(`${name}: answered ${res.status}`);
    await res.arrayBuffer();
    if (i >= 20) samples.push(performance.now() - sent); // the first 20 warm up
  }
  const seconds = (performance.now() - began) / 1000;
  return latencyCase(name, samples, seconds);
}

/** The start-up and memory tables of results.md (empty when neither was measured). */
function startupTables(
  startup: StartupCase[],
  memory: ThreadMemoryResult | undefined,
  threadStart: ThreadStartCase[],
): string[] {
  const lines: string[] = [];
  if (startup.length > 0)
    lines.push(
      `Start-up: spawning \`node --import tsx\` to the first 200 from GET /api/v1/server_settings (the baseline: from ` +
        `GET /), median of ${startup[0].rounds_ms.length} round(s); CPU time of every thread of the process until ` +
        "then, and its RSS once it answered:",
      "",
      "| case | ms to first 200 | each round, ms | CPU ms | RSS MB |",
      "| --- | ---: | --- | ---: | ---: |",
      ...startup.map((c) => `| ${c.name} | ${c.ms} | ${c.rounds_ms.join(", ")} | ${c.cpu_ms} | ${c.rss_mb} |`),
      "",
    );
  if (memory) {
    const threads = (r: ThreadMemoryResult["after_start"]) =>
      r.threads.map((t) => `${t.heap_used_mb} (${t.plugins} plugins)`).join("; ");
    lines.push(
      `Memory per thread (bench/threadMemory.ts: ${memory.plugins} plugins, ${memory.threads} render thread(s) keeping ` +
        `at most ${memory.plugins_per_thread} plugins each; heap used after a garbage collection, MB):`,
      "",
      "| when | main thread heap | process RSS | each render thread's heap |",
      "| --- | ---: | ---: | --- |",
      `| after start | ${memory.after_start.main_heap_used_mb} | ${memory.after_start.rss_mb} | ${threads(memory.after_start)} |`,
      `| after all ${memory.cases} fixture cases, once each | ${memory.after_every_fixture.main_heap_used_mb} | ` +
        `${memory.after_every_fixture.rss_mb} | ${threads(memory.after_every_fixture)} |`,
      "",
    );
  }
  if (threadStart.length > 0) {
    const [bare, bundled, viaTsx] = threadStart;
    lines.push(
      `Render thread start (bench/threadStart.ts): new Worker to its first message, one at a time, median of ` +
        `${bare.starts_ms.length}; CPU ms of the process per start. Bundle ÷ tsx: ` +
        `${(bundled.ms / viaTsx.ms).toFixed(2)} of the time, ${(bundled.cpu_ms / viaTsx.cpu_ms).toFixed(2)} of the CPU.`,
      "",
      "| case | ms to ready | each start, ms | CPU ms |",
      "| --- | ---: | --- | ---: |",
      ...threadStart.map((c) => `| ${c.name} | ${c.ms} | ${c.starts_ms.join(", ")} | ${c.cpu_ms} |`),
      "",
    );
  }
  return lines;
}

async function main(): Promise<void> {
  // Start-up and memory first, while no other server of the bench is running.
  const startup: StartupCase[] = wanted("startup")
    ? await measureStartup({
        port: PORT_BASE + 20,
        rounds: ROUNDS,
        mysql: { baseUrl: BASE_URL, database: `${DB_NAME}_startup` },
      })
    : [];
  const memory = wanted("threadMemory") ? await measureMemoryPerThread() : undefined;
  const threadStart = wanted("threadStart") ? await measureThreadStart(10) : [];
  if (ONLY && [...ONLY].every((key) => ["startup", "threadMemory", "threadStart"].includes(key))) {
    process.stdout.write("\n" + startupTables(startup, memory, threadStart).join("\n") + "\n");
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-"));
  const mysqlUrl = await freshMysqlDatabase();
  const sqliteFile = path.join(dataDir, "server.sqlite3");
  const rawSqliteFile = path.join(dataDir, "raw.sqlite3");
  const mysql = await seed(mysqlUrl, path.join(dataDir, "mysql"));
  // The SQLite databases only for the cases that use them.
  const sqlite =
    wanted("sqliteSend") || wanted("eventLatencySqlite")
      ? await seed(`sqlite:${sqliteFile}`, path.join(dataDir, "sqlite"))
      : mysql;
  const raw = wanted("rawSqliteSend") ? await seed(`sqlite:${rawSqliteFile}`, path.join(dataDir, "raw")) : mysql;
  const cases: Record<string, Case> = {};
  const port = (n: number) => PORT_BASE + n;
  const base = (n: number) => `http://127.0.0.1:${port(n)}`;
  const githubPush = (n: number, name: string) =>
    measure(name, {
      url: `${base(n)}/api/v1/external/github?api_key=${mysql.botKey}&stream=bench`,
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "push" },
      body: JSON.stringify(githubPushPayload()),
    });
  const narrow = JSON.stringify([{ operator: "channel", operand: "bench" }]);
  const readQuery = new URLSearchParams({ anchor: "newest", num_before: "20", num_after: "0", narrow });

  // The processes under test; each starts when its first case runs and stays up until the end.
  const servers = {
    bareKoa: { script: "bench/helloKoa.ts", env: { PORT: String(port(1)) } },
    naive: { script: "bench/naiveSend.ts", env: baselineEnv(mysql, mysqlUrl, port(3)) },
    rawSqlite: {
      script: "bench/naiveSend.ts",
      env: { ...baselineEnv(raw, rawSqliteFile, port(4)), BASELINE: "sqlite" },
    },
    sqlite: { script: "src/main.ts", env: serverEnv(port(5), `sqlite:${sqliteFile}`, path.join(dataDir, "sqlite")) },
    // Webhook ingest with the delivery log off; the main server has it on, as by default.
    hookOff: {
      script: "src/main.ts",
      env: { ...serverEnv(port(6), mysqlUrl, path.join(dataDir, "mysql")), WEBHOOK_LOG_ENABLED: "false" },
    },
    main: { script: "src/main.ts", env: serverEnv(port(2), mysqlUrl, path.join(dataDir, "mysql")) },
  };
  type Server = (typeof servers)[keyof typeof servers];
  interface Measured {
    key: string;
    server: Server;
    onMysql: boolean;
    run: () => Promise<Case>;
  }
  const running = new Map<Server, ChildProcess>();
  const stopAll = async () => {
    for (const child of running.values()) await stop(child);
    running.clear();
  };
  const measureOne = async ({ server, onMysql, run }: Measured): Promise<Case> => {
    if (!running.has(server)) running.set(server, await start(server.script, server.env));
    if (onMysql) await settleMariaDb();
    return run();
  };

  // The throughput cases, measured in rounds (each round runs them all, in this order) so that a
  // slow minute of a shared machine falls on every case alike; each case reports its median round.
  const inRounds: Measured[] = [
    {
      key: "bareKoa",
      server: servers.bareKoa,
      onMysql: false,
      run: () => measure("bare Koa hello world (baseline)", { url: `${base(1)}/` }),
    },
    {
      key: "naiveSend",
      server: servers.naive,
      onMysql: true,
      run: () =>
        sendCase(
          `naive Koa+Knex send, 1 + ${SUBSCRIBERS} rows in a transaction (baseline, MySQL)`,
          port(3),
          "",
          "bench",
        ),
    },
    {
      key: "rawSqliteSend",
      server: servers.rawSqlite,
      onMysql: false,
      run: () => sendCase(`raw better-sqlite3 send, 1 + ${SUBSCRIBERS} rows (baseline)`, port(4), "", "bench"),
    },
    {
      key: "sqliteSend",
      server: servers.sqlite,
      onMysql: false,
      run: () =>
        sendCase(`POST /messages (channel, ${SUBSCRIBERS} subscribers, SQLite)`, port(5), sqlite.owner, "bench"),
    },
    {
      key: "webhookLogOff",
      server: servers.hookOff,
      onMysql: true,
      run: () => githubPush(6, "POST /external/github (push, 5 commits, MySQL, delivery log off)"),
    },
    {
      key: "send",
      server: servers.main,
      onMysql: true,
      run: () => sendCase(`POST /messages (channel, ${SUBSCRIBERS} subscribers, MySQL)`, port(2), mysql.owner, "bench"),
    },
    {
      key: "read",
      server: servers.main,
      onMysql: true,
      run: () =>
        measure("GET /messages (newest 20 in the channel, MySQL)", {
          url: `${base(2)}/api/v1/messages?${readQuery}`,
          headers: { authorization: mysql.owner },
        }),
    },
    {
      key: "webhook",
      server: servers.main,
      onMysql: true,
      run: () => githubPush(2, "POST /external/github (push, 5 commits, MySQL)"),
    },
  ].filter((c) => wanted(c.key));
  // Once each, after the rounds: the one-at-a-time latencies, then the 1,000-subscriber flood (last,
  // as MariaDB flushes its million rows for a while afterwards).
  const once: Measured[] = [
    {
      key: "naiveSerialSend",
      server: servers.naive,
      onMysql: true,
      run: () => serialSendLatency(port(3), "naive send one at a time, its response time (baseline, MySQL)"),
    },
    { key: "eventLatency", server: servers.main, onMysql: true, run: () => eventLatency(port(2), mysql, "MySQL") },
    // The same path without a disk flush per commit (SQLite in WAL mode syncs at checkpoints): what is
    // left of the latency once the database's commit is out of it.
    {
      key: "eventLatencySqlite",
      server: servers.sqlite,
      onMysql: false,
      run: () => eventLatency(port(5), sqlite, "SQLite"),
    },
    {
      key: "crowdSend",
      server: servers.main,
      onMysql: true,
      run: () =>
        sendCase(`POST /messages (channel, ${CROWD} subscribers, all active, MySQL)`, port(2), mysql.owner, "crowd"),
    },
  ].filter((c) => wanted(c.key));
  try {
    const rounds: Record<string, Case[]> = {};
    for (let round = 1; round <= ROUNDS && inRounds.length > 0; round++) {
      process.stdout.write(`round ${round} of ${ROUNDS}\n`);
      for (const measured of inRounds) (rounds[measured.key] ??= []).push(await measureOne(measured));
    }
    for (const [key, measuredRounds] of Object.entries(rounds)) cases[key] = medianCase(measuredRounds);
    for (const measured of once) cases[measured.key] = await measureOne(measured);
  } finally {
    await stopAll();
  }

  // The same channel once the soft-deactivation job has run: the crowd, away for two months, is
  // marked idle (as most members of a big organization are), so sends skip their rows. A new server,
  // so nothing it cached before the job is in the way.
  if (wanted("crowdIdleSend")) {
    const db = createDb(mysqlUrl, path.join(dataDir, "mysql"));
    await softDeactivateIdleUsers(db, { inactiveDays: 28 });
    await db.destroy();
    const idleServer = { script: "src/main.ts", env: serverEnv(port(7), mysqlUrl, path.join(dataDir, "mysql")) };
    try {
      cases.crowdIdleSend = await measureOne({
        key: "crowdIdleSend",
        server: idleServer,
        onMysql: true,
        run: () =>
          sendCase(
            `POST /messages (channel, ${CROWD} subscribers, ${CROWD - SUBSCRIBERS} of them soft-deactivated, MySQL)`,
            port(7),
            mysql.owner,
            "crowd",
          ),
      });
    } finally {
      await stopAll();
    }
  }

  // Large deliveries: how long 4 MB webhook bodies hold a server's event loop (bench/webhookLoopDelay.ts:
  // the server in this process on SQLite, the deliveries posted from a worker thread).
  const loopDelay: LoopDelayCase[] = wanted("webhookLoopDelay") ? await measureWebhookLoopDelay() : [];

  // A ratio whose cases were not run (BENCH_ONLY) is null.
  const ratio = (a: Case | undefined, b: Case | undefined) =>
    a && b ? Math.round((a.rps / b.rps) * 1000) / 1000 : null;
  const ratios = {
    send_vs_naive_send: ratio(cases.send, cases.naiveSend),
    sqlite_send_vs_raw_sqlite: ratio(cases.sqliteSend, cases.rawSqliteSend),
    read_vs_bare_koa: ratio(cases.read, cases.bareKoa),
    webhook_vs_send: ratio(cases.webhook, cases.send),
    crowd_cost_vs_send_cost: ratio(cases.send, cases.crowdSend),
    idle_crowd_cost_vs_send_cost: ratio(cases.send, cases.crowdIdleSend),
    webhook_log_on_vs_off: ratio(cases.webhook, cases.webhookLogOff),
    event_latency_p99_vs_naive_serial_send_p99:
      cases.eventLatency && cases.naiveSerialSend
        ? Math.round((cases.eventLatency.p99_ms / cases.naiveSerialSend.p99_ms) * 1000) / 1000
        : null,
    // Start-up on a fresh SQLite data directory against a bare Koa's under the same tsx.
    startup_vs_bare_koa_startup: startup.length >= 2 ? Math.round((startup[1].ms / startup[0].ms) * 1000) / 1000 : null,
  };
  // A target whose cases were not run (BENCH_ONLY) is null: "not run".
  const check = (value: number | null | undefined, ok: (v: number) => boolean) =>
    value === null || value === undefined ? null : ok(value);
  const targets = [
    ["send ≥ 1.5× naive send", check(ratios.send_vs_naive_send, (v) => v >= 1.5)],
    ["send p99 < 50 ms", check(cases.send?.p99_ms, (v) => v < 50)],
    ["read ≥ 5% of bare Koa", check(ratios.read_vs_bare_koa, (v) => v >= 0.05)],
    ["webhook ≥ 0.9× send", check(ratios.webhook_vs_send, (v) => v >= 0.9)],
    ["SQLite send ≥ 0.6× raw better-sqlite3", check(ratios.sqlite_send_vs_raw_sqlite, (v) => v >= 0.6)],
    [
      `${CROWD}-subscriber send < 10× a ${SUBSCRIBERS}-subscriber one (all ${CROWD} active)`,
      check(ratios.crowd_cost_vs_send_cost, (v) => v < 10),
    ],
    [
      `${CROWD}-subscriber send < 10× a ${SUBSCRIBERS}-subscriber one (${CROWD - SUBSCRIBERS} soft-deactivated)`,
      check(ratios.idle_crowd_cost_vs_send_cost, (v) => v < 10),
    ],
    ["event latency p99 < 5 ms", check(cases.eventLatency?.p99_ms, (v) => v < 5)],
    [
      "start-up < 10 s with every plugin (each database, fresh and existing)",
      startup.length >= 2 ? startup.slice(1).every((c) => c.ms < 10_000) : null,
    ],
  ] as const;
  const order = [
    "bareKoa",
    "naiveSend",
    "rawSqliteSend",
    "send",
    "sqliteSend",
    "read",
    "webhook",
    "webhookLogOff",
    "crowdSend",
    "crowdIdleSend",
    "naiveSerialSend",
  ];
  const rows = [...order, "eventLatency", "eventLatencySqlite"]
    .map((key) => cases[key])
    .filter((row) => row !== undefined);
  const cpu = os.cpus();
  const when = new Date().toISOString().slice(0, 10);
  // A partial run (BENCH_ONLY) only prints its table: the committed results stay whole.
  const write = (file: string, text: string) => {
    if (!ONLY) fs.writeFileSync(path.join(ROOT, "bench", file), text);
  };
  write(
    "results.json",
    JSON.stringify(
      {
        measured: when,
        machine: `${cpu.length} × ${cpu[0]?.model ?? "CPU"}, Node ${process.version}`,
        connections: CONNECTIONS,
        seconds: DURATION,
        rounds: ROUNDS,
        cases: rows,
        ratios,
        targets: Object.fromEntries(targets),
        loop_delay: loopDelay,
        startup,
        thread_memory: memory ?? null,
        thread_start: threadStart,
      },
      null,
      2,
    ) + "\n",
  );
  const table = [
    `Measured ${when} on ${cpu.length} × ${cpu[0]?.model ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
      `Node ${process.version}, MariaDB via ${BASE_URL.replace(/\/\/[^@]*@/, "//")}.`,
    `autocannon: ${CONNECTIONS} connections, ${DURATION} s per case after a 2 s warm-up; load generator on the ` +
      `same machine. The throughput cases ran in ${ROUNDS} rounds; each row is its case's median round. ` +
      `Event latency: ${LATENCY_SAMPLES} sends one at a time (its "requests/s" is sends/s).`,
    "",
    "| case | requests/s | p50 ms | p99 ms | failed | each round, requests/s |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${r.non2xx} | ${r.rps_rounds?.join(", ") ?? "once"} |`,
    ),
    "",
    "| ratio | value |",
    "| --- | ---: |",
    ...Object.entries(ratios).map(([name, value]) => `| ${name} | ${value} |`),
    "",
    "| target | met |",
    "| --- | --- |",
    ...targets.map(([name, met]) => `| ${name} | ${met === null ? "not run" : met ? "yes" : "no"} |`),
    "",
    "Event-loop delay while large webhook deliveries are posted (perf_hooks.monitorEventLoopDelay; SQLite):",
    "",
    "| deliveries | max ms | p99 ms | mean ms | loop busy per delivery, ms |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...loopDelay.map((c) => `| ${c.name} | ${c.max_ms} | ${c.p99_ms} | ${c.mean_ms} | ${c.busy_ms_per_delivery} |`),
    "",
    ...startupTables(startup, memory, threadStart),
  ].join("\n");
  // The "## Earlier measurements" part of results.md is history: kept below the new table.
  const resultsFile = path.join(ROOT, "bench", "results.md");
  const previous = fs.existsSync(resultsFile) ? fs.readFileSync(resultsFile, "utf8") : "";
  const history = previous.indexOf("\n## Earlier measurements\n");
  write("results.md", history < 0 ? table : table + previous.slice(history));
  process.stdout.write("\n" + table);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
