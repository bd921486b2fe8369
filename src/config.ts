// Environment → one typed Config object. Nothing else reads process.env.
import os from "node:os";
import path from "node:path";
import { parseNetworks } from "./services/webhooks/outboundPolicy";

export interface Config {
  port: number;
  host: string;
  /** mysql://… selects MySQL/MariaDB; undefined selects the embedded SQLite file. */
  databaseUrl?: string;
  dataDir: string;
  uploadsDir: string;
  redisUrl?: string;
  /** smtp(s)://user:pass@host:port for outgoing mail (invitations); unset = mail is off. Never log it. */
  smtpUrl?: string;
  /** Namespace for Redis keys and channels, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  /** Public base URL of the server, used in zuliprc files, links and server_settings. */
  externalUrl: string;
  /** TRUST_PROXY: take the client IP and protocol from X-Forwarded-For / X-Forwarded-Proto (behind a proxy). */
  trustProxy: boolean;
  /** Host name (without subdomain) that realms' subdomains hang off. */
  rootDomain: string;
  rateLimit: {
    enabled: boolean;
    userRequests: number;
    ipRequests: number;
    windowSeconds: number;
    authFailures: number;
  };
  limits: {
    /** Largest non-multipart API request body. */
    maxBodyBytes: number;
    /** Largest webhook request body. */
    maxWebhookBodyBytes: number;
    /** Largest uploaded file. */
    maxUploadBytes: number;
    /** Largest custom emoji image. */
    maxEmojiBytes: number;
    /** Time a client has to send a request's line and headers. */
    headersTimeoutMs: number;
    /** Time a client has to send a whole request, body included (a slow upload is cut off after it). */
    requestTimeoutMs: number;
  };
  logLevel: string;
  /** Plugin folders for incoming webhooks; undefined → <repo>/integrations. */
  integrationsDir?: string;
  /** Only these plugin folders are loaded (INTEGRATIONS_ENABLED); undefined → every folder. */
  integrationsEnabled?: string[];
  eventQueueIdleSeconds: number;
  longPollTimeoutSeconds: number;
  /**
   * How long a long-poll waits before its heartbeat (EVENT_QUEUE_HEARTBEAT_SECONDS, 45 s, at most the
   * long-poll timeout): well inside the 90 s after which clients give up on a poll, as the reference.
   */
  heartbeatSeconds: number;
  /** Unacknowledged events one queue may hold; past it the queue is dropped and its client re-registers. */
  eventQueueMaxEvents: number;
  /** Event queues one user may hold (per process without Redis); past it the least recently used is dropped. */
  eventQueueMaxPerUser: number;
  /** The longest `idle_queue_timeout` a client may ask for at /register; longer asks get this. */
  eventQueueMaxIdleSeconds: number;
  /** Worker processes `npm start` forks (node's cluster, one shared port); more than 1 needs Redis. */
  webConcurrency: number;
  /** The reference's WEB_PUBLIC_STREAMS_ENABLED server setting (default on). */
  webPublicStreamsEnabled: boolean;
  /** Webhook delivery log and de-duplication (docs/webhook-operations.md). */
  webhookLog: {
    enabled: boolean;
    maxBodyBytes: number;
    maxPerBot: number;
    maxAgeDays: number;
    pruneIntervalSeconds: number;
    dedupWindowSeconds: number;
  };
  /** Threads that read and render webhook deliveries off the event loop, and their limits per delivery. */
  webhookRender: {
    threads: number;
    timeoutMs: number;
    memoryMb: number;
    /** Plugins one thread keeps compiled, the ones it used last (pipelineWorker.ts). */
    plugins: number;
  };
  /**
   * Where plugins' API lookups may connect when the bot owner names the site (manifest
   * `api.hostOption`, Confluence's base_url): public addresses over https, unless these allow more.
   */
  apiLookup: {
    /** API_LOOKUP_ALLOW_HTTP: also http:// sites (the token then crosses the network in clear). */
    allowHttp: boolean;
    /** API_LOOKUP_ALLOWED_NETWORKS: CIDR blocks or addresses reachable though not public (`10.20.0.0/16`). */
    allowedNetworks: string[];
    /** API_LOOKUP_ALLOWED_HOSTS: host names that may resolve to any address (`wiki.corp.example`). */
    allowedHosts: string[];
  };
  /** Soft deactivation of long-idle users (services/users/softDeactivation.ts); 0 days = never. */
  softDeactivation: {
    inactiveDays: number;
    intervalSeconds: number;
  };
  /** Bounds on email invitations (services/invitations/checks.ts; docs/security.md "Access and limits"). */
  invitations: {
    /** Addresses one POST /invites may name (after duplicates are dropped). */
    maxAddressesPerRequest: number;
    /** Email invitations one user may create in any 24 hours (revoked ones count). */
    dailyMaxPerUser: number;
    /** Email invitations one organization may create in any 24 hours (revoked ones count). */
    dailyMaxPerRealm: number;
    /** An address with a pending invitation younger than this is not invited (mailed) again; 0 = off. */
    resendIntervalSeconds: number;
  };
}

/** Defaults of the invitation limits (Config.invitations), named as their environment variables. */
export const INVITE_MAX_ADDRESSES_PER_REQUEST = 100;
export const INVITE_DAILY_MAX_PER_USER = 100;
export const INVITE_DAILY_MAX_PER_REALM = 500;
export const INVITE_RESEND_INTERVAL_SECONDS = 3600;

/** A comma- or space-separated list setting (empty entries dropped). */
function listFromEnv(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? "").split(/[\s,]+/).filter((entry) => entry !== "");
}

const nonEmpty = (list: string[]): string[] | undefined => (list.length > 0 ? list : undefined);

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFromEnv(env, "PORT", 9991);
  const dataDir = path.resolve(env.DATA_DIR || "data");
  const externalUrl = (env.EXTERNAL_URL || `http://localhost:${port}`).replace(/\/$/, "");
  return {
    port,
    host: env.HOST || "0.0.0.0",
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    uploadsDir: path.resolve(env.UPLOADS_DIR || path.join(dataDir, "uploads")),
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || "switchboard",
    externalUrl,
    rootDomain: (env.ROOT_DOMAIN || new URL(externalUrl).hostname).toLowerCase(),
    trustProxy: env.TRUST_PROXY === "true",
    rateLimit: {
      enabled: env.RATE_LIMITING !== "false",
      userRequests: intFromEnv(env, "RATE_LIMIT_USER_REQUESTS", 200),
      ipRequests: intFromEnv(env, "RATE_LIMIT_IP_REQUESTS", 100),
      windowSeconds: intFromEnv(env, "RATE_LIMIT_WINDOW_SECONDS", 60),
      authFailures: intFromEnv(env, "RATE_LIMIT_AUTH_FAILURES", 30),
    },
    limits: {
      maxBodyBytes: intFromEnv(env, "MAX_BODY_BYTES", 1024 * 1024),
      maxWebhookBodyBytes: intFromEnv(env, "MAX_WEBHOOK_BODY_BYTES", 5 * 1024 * 1024),
      maxUploadBytes: intFromEnv(env, "MAX_UPLOAD_BYTES", 25 * 1024 * 1024),
      maxEmojiBytes: intFromEnv(env, "MAX_EMOJI_BYTES", 5 * 1024 * 1024),
      headersTimeoutMs: Math.max(100, intFromEnv(env, "HTTP_HEADERS_TIMEOUT_MS", 20_000)),
      requestTimeoutMs: Math.max(100, intFromEnv(env, "HTTP_REQUEST_TIMEOUT_MS", 120_000)),
    },
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === "test" ? "silent" : "info"),
    integrationsDir: env.INTEGRATIONS_DIR ? path.resolve(env.INTEGRATIONS_DIR) : undefined,
    integrationsEnabled: nonEmpty(listFromEnv(env, "INTEGRATIONS_ENABLED")),
    eventQueueIdleSeconds: intFromEnv(env, "EVENT_QUEUE_IDLE_SECONDS", 600),
    longPollTimeoutSeconds: intFromEnv(env, "EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS", 90),
    heartbeatSeconds: Math.min(
      intFromEnv(env, "EVENT_QUEUE_HEARTBEAT_SECONDS", 45),
      intFromEnv(env, "EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS", 90),
    ),
    eventQueueMaxEvents: Math.max(1, intFromEnv(env, "EVENT_QUEUE_MAX_EVENTS", 10_000)),
    eventQueueMaxPerUser: Math.max(1, intFromEnv(env, "EVENT_QUEUE_MAX_PER_USER", 50)),
    eventQueueMaxIdleSeconds: Math.max(1, intFromEnv(env, "EVENT_QUEUE_MAX_IDLE_SECONDS", 7 * 24 * 3600)),
    webConcurrency: Math.max(1, intFromEnv(env, "WEB_CONCURRENCY", 1)),
    webPublicStreamsEnabled: env.WEB_PUBLIC_STREAMS_ENABLED !== "false",
    webhookLog: {
      enabled: env.WEBHOOK_LOG_ENABLED !== "false",
      maxBodyBytes: intFromEnv(env, "WEBHOOK_LOG_MAX_BODY_BYTES", 256 * 1024),
      maxPerBot: intFromEnv(env, "WEBHOOK_LOG_MAX_PER_BOT", 1000),
      maxAgeDays: intFromEnv(env, "WEBHOOK_LOG_MAX_AGE_DAYS", 14),
      pruneIntervalSeconds: intFromEnv(env, "WEBHOOK_LOG_PRUNE_INTERVAL_SECONDS", 600),
      dedupWindowSeconds: intFromEnv(env, "WEBHOOK_DEDUP_WINDOW_SECONDS", 86400),
    },
    webhookRender: {
      // One core stays for the event loop (and the database): one thread on 2 cores, at most 4.
      threads: intFromEnv(env, "WEBHOOK_RENDER_THREADS", Math.max(1, Math.min(4, os.availableParallelism() - 1))),
      timeoutMs: Math.max(10, intFromEnv(env, "WEBHOOK_RENDER_TIMEOUT_MS", 5_000)),
      memoryMb: Math.max(16, intFromEnv(env, "WEBHOOK_RENDER_MEMORY_MB", 512)),
      plugins: Math.max(1, intFromEnv(env, "WEBHOOK_RENDER_PLUGINS", 64)),
    },
    apiLookup: apiLookupFromEnv(env),
    softDeactivation: {
      inactiveDays: intFromEnv(env, "SOFT_DEACTIVATION_DAYS", 28),
      intervalSeconds: intFromEnv(env, "SOFT_DEACTIVATION_INTERVAL_SECONDS", 3600),
    },
    invitations: {
      maxAddressesPerRequest: Math.max(
        1,
        intFromEnv(env, "INVITE_MAX_ADDRESSES_PER_REQUEST", INVITE_MAX_ADDRESSES_PER_REQUEST),
      ),
      dailyMaxPerUser: Math.max(1, intFromEnv(env, "INVITE_DAILY_MAX_PER_USER", INVITE_DAILY_MAX_PER_USER)),
      dailyMaxPerRealm: Math.max(1, intFromEnv(env, "INVITE_DAILY_MAX_PER_REALM", INVITE_DAILY_MAX_PER_REALM)),
      resendIntervalSeconds: intFromEnv(env, "INVITE_RESEND_INTERVAL_SECONDS", INVITE_RESEND_INTERVAL_SECONDS),
    },
  };
}

function apiLookupFromEnv(env: NodeJS.ProcessEnv): Config["apiLookup"] {
  const allowedNetworks = listFromEnv(env, "API_LOOKUP_ALLOWED_NETWORKS");
  parseNetworks(allowedNetworks); // a typo must stop the start, not silently allow nothing
  const allowedHosts = listFromEnv(env, "API_LOOKUP_ALLOWED_HOSTS").map((h) => h.toLowerCase());
  for (const host of allowedHosts)
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/.test(host))
      throw new Error(`API_LOOKUP_ALLOWED_HOSTS: '${host}' is not a host name`);
  return { allowHttp: env.API_LOOKUP_ALLOW_HTTP === "true", allowedNetworks, allowedHosts };
}
