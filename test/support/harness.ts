// Starts the real app on a real database (fresh SQLite file, or a fresh MySQL database when
// TEST_DATABASE_URL is set) listening on a loopback port, with a seeded organization.
// Plugins: only helloworld (milliseconds to load) unless the test asks for others
// (`startTestServer({}, { integrations: ["github"] })`, or "all" for tests about the whole
// catalogue or a custom INTEGRATIONS_DIR): loading all of them costs seconds per boot.
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestListener, Server } from "node:http";
import os from "node:os";
import path from "node:path";
import knex from "knex";
import type { DestinationStream } from "pino";
import { createApp } from "../../src/app";
import { createHttpServer } from "../../src/http/server";
import { createDeps } from "../../src/bootstrap";
import { loadConfig, type Config } from "../../src/config";
import type { AppDeps } from "../../src/deps";
import { clearCaches } from "../../src/db/cache";
import { BOT_TYPE, ROLE, type RealmRow, type UserRow } from "../../src/db/rows";
import { upsertSubscriptions } from "../../src/db/subscriptions";
import { withTransaction } from "../../src/db/transaction";
import { insertChannel } from "../../src/services/channels/channels";
import { createRealm } from "../../src/services/realms/realms";
import { createBot, createUser } from "../../src/services/users/users";
import { ApiClient } from "./client";
import { HARNESS_SNS_CERT_URL, harnessSnsKeys } from "./snsSigning";
import { copyMigratedTemplate } from "./mysqlTemplate";

export interface TestUser extends UserRow {
  apiKey: string;
}

export interface TestServer {
  url: string;
  deps: AppDeps;
  db: AppDeps["db"];
  config: Config;
  realm: RealmRow;
  users: {
    owner: TestUser;
    admin: TestUser;
    moderator: TestUser;
    member: TestUser;
    other: TestUser;
    guest: TestUser;
    bot: TestUser;
    genericBot: TestUser;
  };
  /** Channel `general`: owner, admin, member and other are subscribed. */
  general: { id: number; name: string };
  as(user: TestUser): ApiClient;
  anonymous(): ApiClient;
  close(): Promise<void>;
}

/** Another server process's worth of app (own queues, limiter, bus) on the same database. */
export interface SecondServer {
  url: string;
  deps: AppDeps;
  as(user: TestUser): ApiClient;
  close(): Promise<void>;
}

// Tests set up state by writing rows directly (server.db(...).update(...)), as an operator would,
// bypassing the db/ writers that invalidate the caches. Such a write (any write not made while the app
// handles a request) forgets the server's cached rows, so tests see what they wrote; the app's own
// writes still rely on their invalidations, which the tests therefore check.
const appRequests = new AsyncLocalStorage<true>();
// Node keeps every enabled AsyncLocalStorage in one list per process and visits each one for every
// promise created; Jest evaluates this module afresh for each test file, so a worker would gather
// one live instance per file it ran and every later file would pay for all of them (about a tenth of
// the end-to-end tier's CPU, in band). Disabled when the file ends; run() enables it again if needed.
if (typeof afterAll === "function") afterAll(() => appRequests.disable());
const WRITE_STATEMENT = /^\s*(insert|update|delete|replace)\b/i;

function forgetCachesOnDirectWrites(db: AppDeps["db"]): void {
  db.on("query-response", (_response: unknown, query: { sql?: string }) => {
    if (!appRequests.getStore() && WRITE_STATEMENT.test(query.sql ?? "")) clearCaches(db);
  });
}

async function listen(deps: AppDeps): Promise<{ url: string; server: Server }> {
  const server = createHttpServer(createApp(deps), deps.config.limits);
  const [handle] = server.listeners("request") as RequestListener[];
  server.removeAllListeners("request");
  server.on("request", (req, res) => appRequests.run(true, () => handle(req, res)));
  forgetCachesOnDirectWrites(deps.db);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export async function startSecondServer(first: TestServer, env: Record<string, string> = {}): Promise<SecondServer> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: first.config.dataDir,
    EXTERNAL_URL: first.config.externalUrl,
    LOG_LEVEL: first.config.logLevel,
    EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: String(first.config.longPollTimeoutSeconds),
    RATE_LIMIT_USER_REQUESTS: String(first.config.rateLimit.userRequests),
    RATE_LIMIT_IP_REQUESTS: String(first.config.rateLimit.ipRequests),
    RATE_LIMIT_AUTH_FAILURES: String(first.config.rateLimit.authFailures),
    ...(first.config.databaseUrl ? { DATABASE_URL: first.config.databaseUrl } : {}),
    ...(first.config.redisUrl ? { REDIS_URL: first.config.redisUrl, REDIS_PREFIX: first.config.redisPrefix } : {}),
    ...env,
  });
  // The same plugins as the first server (a second process of the same deployment).
  const deps = await createDeps(config, {
    integrations: first.deps.integrations.names(),
    pluginChecks: pluginChecksFor(config),
  });
  const { url, server } = await listen(deps);
  return {
    url,
    deps,
    as: (user) => new ApiClient(url, user.email, user.apiKey),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deps.close();
    },
  };
}

/**
 * The repository's plugins are loaded with every authoring check by the pure tier
 * (test/unit/integrations.test.ts); a test server leaves those out (about a second for all of
 * them). A test with its own INTEGRATIONS_DIR is about loading folders: it keeps them.
 */
const pluginChecksFor = (config: Config): boolean => config.integrationsDir !== undefined;

let counter = 0;

export const usingMysql = (): boolean => Boolean(process.env.TEST_DATABASE_URL);

export async function freshDatabaseUrl(): Promise<{ url: string | undefined; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => undefined };
  const name = `sb_test_${process.pid}_${Date.now() % 100000}_${counter++}`;
  const admin = knex({ client: "mysql2", connection: { uri: base } as never, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const a = knex({ client: "mysql2", connection: { uri: base } as never, pool: { min: 0, max: 1 } });
      await a.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await a.destroy();
    },
  };
}

const DEFAULT_PLUGINS = ["helloworld"];

export interface TestServerOptions {
  logDestination?: DestinationStream;
  /** The plugin folders to load (by name), or "all"; only helloworld by default. */
  integrations?: readonly string[] | "all";
}

/** A fresh MySQL database already at the latest migration (a copy of the template), or a fresh SQLite one. */
async function migratedDatabaseUrl(): ReturnType<typeof freshDatabaseUrl> {
  const database = await freshDatabaseUrl();
  const base = process.env.TEST_DATABASE_URL;
  // An empty database is left as it is if the copy cannot be made: the app then migrates it.
  if (base && database.url) await copyMigratedTemplate(base, new URL(database.url).pathname.slice(1));
  return database;
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-test-"));
  const database = await migratedDatabaseUrl();
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    EXTERNAL_URL: "http://localhost:9991",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: "2",
    RATE_LIMIT_USER_REQUESTS: "100000",
    RATE_LIMIT_IP_REQUESTS: "100000",
    RATE_LIMIT_AUTH_FAILURES: "100000",
    REDIS_PREFIX: `sbtest-${process.pid}-${Date.now()}-${counter}`,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const integrations = options.integrations === "all" ? true : (options.integrations ?? DEFAULT_PLUGINS);
  const deps = await createDeps(config, {
    logDestination: options.logDestination,
    integrations,
    pluginChecks: pluginChecksFor(config),
  });
  // postWebhook signs Amazon SNS bodies with this key (test/support/snsSigning.ts): trusted, never fetched.
  if (deps.integrations.all().some((i) => i.manifest.verification === "aws-sns"))
    deps.webhookOps.sns.remember(HARNESS_SNS_CERT_URL, harnessSnsKeys().publicKey);
  const { realm, owner, ownerApiKey } = await createRealm(deps.db, {
    subdomain: "",
    name: "Test Org",
    owner: { email: "owner@test.example", fullName: "Olivia Owner" },
  });
  const make = async (email: string, fullName: string, role: number): Promise<TestUser> => {
    const { user, apiKey } = await createUser(deps.db, realm.id, { email, fullName, role });
    return { ...user, apiKey };
  };
  const admin = await make("admin@test.example", "Adam Admin", ROLE.administrator);
  const moderator = await make("moderator@test.example", "Mona Moderator", ROLE.moderator);
  const member = await make("member@test.example", "Mel Member", ROLE.member);
  const other = await make("other@test.example", "Otto Other", ROLE.member);
  const guest = await make("guest@test.example", "Gus Guest", ROLE.guest);
  const bot = await createBot(deps.db, realm.id, {
    email: "webhook-bot@test.example",
    fullName: "Webhook Bot",
    ownerId: owner.id,
    botType: BOT_TYPE.incomingWebhook,
  });
  const genericBot = await createBot(deps.db, realm.id, {
    email: "generic-bot@test.example",
    fullName: "Generic Bot",
    ownerId: member.id,
    botType: BOT_TYPE.generic,
  });
  const general = await withTransaction(deps.db, async (trx) => {
    const stream = await insertChannel(trx, realm, owner, { name: "general", description: "Everyone" });
    await upsertSubscriptions(
      trx,
      [owner.id, admin.id, member.id, other.id].map((user_id) => ({ user_id, stream_id: stream.id })),
    );
    return { id: stream.id, name: stream.name };
  });
  const { url, server } = await listen(deps);
  return {
    url,
    deps,
    db: deps.db,
    config,
    realm,
    users: {
      owner: { ...owner, apiKey: ownerApiKey },
      admin,
      moderator,
      member,
      other,
      guest,
      bot: { ...bot.user, apiKey: bot.apiKey },
      genericBot: { ...genericBot.user, apiKey: genericBot.apiKey },
    },
    general,
    as: (user) => new ApiClient(url, user.email, user.apiKey),
    anonymous: () => new ApiClient(url),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deps.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
