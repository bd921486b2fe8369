// Server entry point: config → database (migrated) → demo data on first run → listen.
// WEB_CONCURRENCY=N (N > 1, REDIS_URL required) makes this process a primary that forks N workers
// sharing the port (node's cluster); each worker is the single-process server below.
import cluster from "node:cluster";
import type { Server } from "node:http";
import { createApp } from "./app";
import { loadMultipartParser } from "./http/bodyParser";
import { createHttpServer } from "./http/server";
import { createDeps, migrateDatabase } from "./bootstrap";
import { loadConfig } from "./config";
import { seedDemoIfEmpty } from "./services/realms/demo";

/** In-flight requests get this long to finish after SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stop accepting, wake every long-poll with a final heartbeat, let in-flight requests finish
 * (bounded by `graceMs`), then close the database and Redis.
 */
async function stopGracefully(server: Server, deps: Awaited<ReturnType<typeof createDeps>>, graceMs: number) {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  deps.queues.close();
  // Keep-alive connections turn idle as their last answer is sent; close each as soon as it does.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, graceMs);
  });
  await Promise.race([closed, deadline]);
  clearTimeout(timer);
  clearInterval(sweep);
  await deps.close();
}

/**
 * Replicas starting together on an empty database race to seed it (a unique name, or SQLite's
 * write lock, stops the losers); a loser tries again and then finds the database seeded.
 */
async function seedDemoOnce<T>(seed: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await seed();
    } catch (err) {
      if (attempt >= 20) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createDeps(config);
  const seedOptions = { dataDir: config.dataDir, externalUrl: config.externalUrl };
  const demo = await seedDemoOnce(() => seedDemoIfEmpty(deps.db, seedOptions));
  if (demo) {
    const lines = [
      "",
      "Created a demo organization (first run):",
      `  sign in ${demo.signIn.url}  as ${demo.owner.email}, password ${demo.owner.password}`,
      `          (also in ${demo.signIn.file})`,
      `  owner   ${demo.owner.email}  API key ${demo.owner.apiKey}`,
      `          zuliprc: ${demo.owner.zuliprc}`,
      `  member  ${demo.member.email}  API key ${demo.member.apiKey}`,
      `  bot     ${demo.bot.email}  API key ${demo.bot.apiKey}`,
      `          zuliprc: ${demo.bot.zuliprc}`,
      `  channel #${demo.channel}`,
      "",
      "Try the webhook:",
      `  ${demo.webhookCurl}`,
      "",
    ];
    process.stdout.write(lines.join("\n") + "\n");
  }
  const server: Server = createHttpServer(createApp(deps), config.limits);
  server.listen(config.port, config.host, () => {
    deps.webhookOps.warmRenderThreads();
    loadMultipartParser();
    deps.logger.info({ port: config.port, database: config.databaseUrl ? "mysql" : "sqlite" }, "Switchboard listening");
    process.stdout.write(
      `Switchboard listening on ${config.externalUrl} (database: ${config.databaseUrl ? "MySQL" : "SQLite in " + config.dataDir})\n`,
    );
  });
  // Long-polls hold connections open; let them end with the process.
  server.keepAliveTimeout = 65_000;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info({ signal }, "shutting down");
    void stopGracefully(server, deps, SHUTDOWN_GRACE_MS).then(
      () => process.exit(0),
      (err) => {
        deps.logger.error({ err }, "error while shutting down");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

/**
 * The primary: forks the workers, replaces one that dies after it was serving, stops everything if
 * one dies before (a broken configuration would otherwise restart forever), and on SIGTERM/SIGINT
 * forwards the signal to every worker and exits once they all have (1 if any exited with an error).
 */
function runPrimary(workers: number): void {
  const serving = new Set<number>();
  let stopping = false;
  let failed = false;
  const fork = () => {
    const worker = cluster.fork();
    worker.once("listening", () => serving.add(worker.id));
  };
  const live = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of live()) worker.process.kill(signal);
    if (live().length === 0) process.exit(failed ? 1 : 0);
  };
  cluster.on("exit", (worker, code, signal) => {
    if (code !== 0) failed = true;
    const wasServing = serving.delete(worker.id);
    if (stopping) {
      if (live().length === 0) process.exit(failed ? 1 : 0);
      return;
    }
    // Exit code 0 is a worker stopped by a signal of its own (e.g. Ctrl-C reaches the whole process group).
    if (code === 0) return stop("SIGTERM");
    if (!wasServing) {
      process.stderr.write(`Switchboard: a worker failed to start (exit ${code ?? signal}); stopping\n`);
      return stop("SIGTERM");
    }
    process.stderr.write(`Switchboard: worker ${worker.process.pid} exited (${code ?? signal}); starting another\n`);
    fork();
  });
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  process.stdout.write(`Switchboard: starting ${workers} worker processes\n`);
  for (let i = 0; i < workers; i++) fork();
}

async function start(): Promise<void> {
  if (!cluster.isPrimary) return main();
  const config = loadConfig();
  if (config.webConcurrency <= 1) return main();
  if (!config.redisUrl) {
    throw new Error(
      `WEB_CONCURRENCY=${config.webConcurrency} needs REDIS_URL: without Redis each process would keep its own ` +
        "event queues and rate limits, so clients would miss events and limits would multiply. " +
        "Set REDIS_URL, or leave WEB_CONCURRENCY unset (1).",
    );
  }
  // The primary migrates before forking, so the workers find nothing to do instead of queuing for
  // the migration lock.
  await migrateDatabase(config);
  runPrimary(config.webConcurrency);
}

Promise.resolve()
  .then(start)
  .catch((err) => {
    process.stderr.write(`Switchboard failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
