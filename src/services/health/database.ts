// Database outages: recognised from the driver's errors, logged once when they start and once
// when a background probe finds the database back (instead of one error line per request).
import type { Logger } from "pino";
import { pingDatabase, type Db } from "../../db/knex";

/** Seconds a client is told to wait (Retry-After) while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
const PROBE_INTERVAL_MS = 1_000;

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "ER_CON_COUNT_ERROR",
  "ER_SERVER_SHUTDOWN",
  "SQLITE_CANTOPEN",
]);

/** True for errors that mean "the database cannot be reached", not "this query is wrong". */
export function isDatabaseUnreachable(err: unknown): boolean {
  const e = err as { name?: string; code?: string; fatal?: boolean; message?: string } | null;
  if (!e || typeof e !== "object") return false;
  if (e.name === "KnexTimeoutError") return true; // no pool connection could be made in time
  if (e.code && CONNECTION_CODES.has(e.code)) return true;
  return e.fatal === true && typeof e.code === "string" && e.code.startsWith("PROTOCOL_");
}

export interface DatabaseHealth {
  /** Called for each request that failed because the database is unreachable. */
  failed(err: unknown): void;
  close(): void;
}

export function createDatabaseHealth(db: Db, logger: Logger): DatabaseHealth {
  let probe: NodeJS.Timeout | undefined;
  let closed = false;
  const check = async () => {
    try {
      await pingDatabase(db);
      clearInterval(probe);
      probe = undefined;
      logger.info("database is reachable again");
    } catch {
      /* still down: the next probe tries again */
    }
  };
  return {
    failed(err) {
      if (probe || closed) return;
      logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        "database unreachable: answering 503 until it is back",
      );
      probe = setInterval(() => void check(), PROBE_INTERVAL_MS);
      probe.unref();
    },
    close() {
      closed = true;
      clearInterval(probe);
    },
  };
}
