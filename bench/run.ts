// npm run bench: autocannon against a running Switchboard on MySQL/MariaDB.
// Cases: bare Koa hello world (baseline), POST /messages to a channel with 20 subscribers,
// GET /messages, and GitHub push payloads to /external/github. Writes bench/results.md.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import knex from "knex";
import { createDb, migrateLatest } from "../src/db/knex";
import { BOT_TYPE, ROLE } from "../src/db/rows";
import { upsertSubscriptions } from "../src/db/subscriptions";
import { withTransaction } from "../src/db/transaction";
import { insertChannel } from "../src/services/channels";
import { createRealm } from "../src/services/realms";
import { createBot, createUser } from "../src/services/users";
import { githubPushPayload } from "./githubPush";

const ROOT = path.join(__dirname, "..");
const BASE_URL = process.env.BENCH_DATABASE_URL ?? "mysql://root@127.0.0.1:3306/test";
const DB_NAME = "switchboard_bench";
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SUBSCRIBERS = 20;

interface Row {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function start(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [require.resolve("tsx/cli"), script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (/listening/i.test(out)) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
}

async function measure(name: string, opts: autocannon.Options): Promise<Row> {
  await autocannon({ ...opts, connections: CONNECTIONS, duration: 2 }); // warm-up, not recorded
  const result = await autocannon({ ...opts, connections: CONNECTIONS, duration: DURATION });
  const row = { name, requests: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
  process.stdout.write(`${name}: ${row.requests} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, non-2xx ${row.non2xx}\n`);
  return row;
}

async function freshDatabase(): Promise<string> {
  const admin = knex({ client: "mysql2", connection: { uri: BASE_URL } as never });
  await admin.raw(`DROP DATABASE IF EXISTS \`${DB_NAME}\``);
  await admin.raw(`CREATE DATABASE \`${DB_NAME}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
  const url = new URL(BASE_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

async function seed(databaseUrl: string, dataDir: string) {
  const db = createDb(databaseUrl, dataDir);
  await migrateLatest(db);
  const { realm, owner, ownerApiKey } = await createRealm(db, { subdomain: "", name: "Bench", owner: { email: "owner@bench.example", fullName: "Owner" } });
  const members = [owner.id];
  for (let i = 1; i < SUBSCRIBERS; i++) {
    members.push((await createUser(db, realm.id, { email: `user${i}@bench.example`, fullName: `User ${i}`, role: ROLE.member })).user.id);
  }
  const bot = await createBot(db, realm.id, { email: "bot@bench.example", fullName: "Bench Bot", ownerId: owner.id, botType: BOT_TYPE.incomingWebhook });
  await withTransaction(db, async (trx) => {
    const stream = await insertChannel(trx, realm, owner, { name: "bench" });
    await upsertSubscriptions(trx, members.map((user_id) => ({ user_id, stream_id: stream.id })));
  });
  await db.destroy();
  return { ownerEmail: owner.email, ownerKey: ownerApiKey, botKey: bot.apiKey };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-"));
  const databaseUrl = await freshDatabase();
  const creds = await seed(databaseUrl, dataDir);
  const rows: Row[] = [];

  const hello = await start("bench/helloKoa.ts", { PORT: "9981" });
  rows.push(await measure("bare Koa hello world (baseline)", { url: "http://127.0.0.1:9981/" }));
  hello.kill();

  const server = await start("src/main.ts", {
    PORT: "9982", HOST: "127.0.0.1", DATABASE_URL: databaseUrl, DATA_DIR: dataDir, RATE_LIMITING: "false", LOG_LEVEL: "warn",
    EXTERNAL_URL: "http://127.0.0.1:9982",
  });
  const auth = "Basic " + Buffer.from(`${creds.ownerEmail}:${creds.ownerKey}`).toString("base64");
  try {
    rows.push(await measure(`POST /messages (channel, ${SUBSCRIBERS} subscribers)`, {
      url: "http://127.0.0.1:9982/api/v1/messages",
      method: "POST",
      headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ type: "stream", to: "bench", topic: "load", content: "Benchmark **message** with a [link](https://example.com)." }).toString(),
    }));
    rows.push(await measure("GET /messages (newest 20 in the channel)", {
      url: `http://127.0.0.1:9982/api/v1/messages?${new URLSearchParams({ anchor: "newest", num_before: "20", num_after: "0", narrow: JSON.stringify([{ operator: "channel", operand: "bench" }]) })}`,
      headers: { authorization: auth },
    }));
    const probe = await fetch(`http://127.0.0.1:9982/api/v1/external/github?api_key=${creds.botKey}&stream=bench`, {
      method: "POST", headers: { "content-type": "application/json", "x-github-event": "push" }, body: JSON.stringify(githubPushPayload()),
    });
    if (probe.status === 200) {
      rows.push(await measure("POST /external/github (push, 5 commits)", {
        url: `http://127.0.0.1:9982/api/v1/external/github?api_key=${creds.botKey}&stream=bench`,
        method: "POST",
        headers: { "content-type": "application/json", "x-github-event": "push" },
        body: JSON.stringify(githubPushPayload()),
      }));
    } else {
      process.stdout.write(`github webhook not available (HTTP ${probe.status}); skipping that case\n`);
    }
  } finally {
    server.kill();
  }

  const cpu = os.cpus();
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu.length} × ${cpu[0]?.model ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, MariaDB via ${BASE_URL.replace(/\/\/[^@]*@/, "//")}.`,
    `autocannon: ${CONNECTIONS} connections, ${DURATION} s per case after a 2 s warm-up; load generator on the same machine.`,
    "",
    "| case | requests/s | p50 ms | p99 ms | non-2xx |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${r.name} | ${r.requests} | ${r.p50} | ${r.p99} | ${r.non2xx} |`),
    "",
  ].join("\n");
  fs.writeFileSync(path.join(ROOT, "bench", "results.md"), table);
  process.stdout.write("\n" + table);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
