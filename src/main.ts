// Server entry point: config → database (migrated) → demo data on first run → listen.
import type { Server } from "node:http";
import { createApp } from "./app";
import { createDeps } from "./bootstrap";
import { loadConfig } from "./config";
import { seedDemoIfEmpty } from "./services/demo";

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createDeps(config);
  const demo = await seedDemoIfEmpty(deps.db, { dataDir: config.dataDir, externalUrl: config.externalUrl });
  if (demo) {
    const lines = [
      "",
      "Created a demo organization (first run):",
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
  const app = createApp(deps);
  const server: Server = app.listen(config.port, config.host, () => {
    deps.logger.info({ port: config.port, database: config.databaseUrl ? "mysql" : "sqlite" }, "Switchboard listening");
    process.stdout.write(`Switchboard listening on ${config.externalUrl} (database: ${config.databaseUrl ? "MySQL" : "SQLite in " + config.dataDir})\n`);
  });
  // Long-polls hold connections open; let them end with the process.
  server.keepAliveTimeout = 65_000;
  const shutdown = () => {
    deps.logger.info("shutting down");
    server.close();
    server.closeAllConnections();
    void deps.close().then(() => process.exit(0));
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((err) => {
  process.stderr.write(`Switchboard failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
