// SQLite in WAL mode appends commits to a log and copies the log back into the database file at a
// checkpoint, with an fsync of each file. Left to SQLite, the checkpoint runs inside the commit that
// takes the log past 1,000 pages, on the committing connection's thread: here the event loop, which
// stopped for 8–19 ms every 75–100 sends. Instead, the connection's own checkpoints are turned off
// and a worker thread checkpoints through a second connection while the event loop goes on.
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import type { Knex } from "knex";

export interface WalCheckpointerOptions {
  /** The log size (bytes) at which the thread starts: a short-lived database never needs one. */
  startBytes: number;
  /** How often the thread checkpoints (cheap when nothing was committed since). */
  intervalMs: number;
  /**
   * The log's limit in pages. A checkpoint running beside a steady stream of commits never catches
   * up with the last one, and SQLite only starts the log over once a checkpoint has; past this many
   * pages, new queries wait (the event loop does not) while one checkpoint runs alone.
   */
  maxPages: number;
  /** Told why the thread failed (SQLite checkpoints itself again from then on). */
  onFailure?: (reason: string) => void;
}

export const WAL_CHECKPOINTER_DEFAULTS: WalCheckpointerOptions = {
  startBytes: 1024 * 1024,
  intervalMs: 100,
  maxPages: 4000,
};

/** What the checkpointer has done so far (tests and the log read it). */
export interface WalCheckpointerStats {
  started: boolean;
  checkpoints: number;
  /** Checkpoints run with the connection held, because the log had passed `maxPages`. */
  exclusiveCheckpoints: number;
  /** The log's size in pages at the latest checkpoint, and how many of them it had copied back. */
  logPages: number;
  checkpointedPages: number;
  /** Why the thread stopped, when it failed (SQLite's own checkpoints are back on then). */
  failure?: string;
}

export interface WalCheckpointer {
  stats(): WalCheckpointerStats;
  stop(): Promise<void>;
}

/** What a checkpoint reports: `log` pages in the log, `checkpointed` of them copied back. */
interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

// Plain JavaScript, so that the thread starts the same under tsx, Jest and compiled code. SQLite's
// errors lose their message crossing threads, so the thread reports its failure itself.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
let db, timer;
function guarded(fn) {
  try {
    fn();
  } catch (err) {
    clearInterval(timer);
    parentPort.postMessage({ failed: String(err && err.message ? err.message : err) });
    parentPort.close();
  }
}
const checkpoint = () => db.pragma("wal_checkpoint(PASSIVE)")[0];
guarded(() => {
  const Database = require(workerData.driver);
  db = new Database(workerData.filename, { fileMustExist: true });
  timer = setInterval(() => guarded(() => parentPort.postMessage({ periodic: checkpoint() })), workerData.intervalMs);
});
parentPort.on("message", (message) => {
  if (message === "checkpoint") guarded(() => parentPort.postMessage({ requested: checkpoint() }));
  if (message === "stop") {
    clearInterval(timer);
    if (db) db.close();
    parentPort.close();
  }
});
`;

/** The SQLite file's checkpoints move to a worker thread; `db` is the pool whose connection commits. */
export function startWalCheckpointer(db: Knex, filename: string, options: WalCheckpointerOptions): WalCheckpointer {
  const stats: WalCheckpointerStats = {
    started: false,
    checkpoints: 0,
    exclusiveCheckpoints: 0,
    logPages: 0,
    checkpointedPages: 0,
  };
  let worker: Worker | undefined;
  let stopped = false;
  let exclusive: Promise<void> | undefined;
  let answerRequested: ((result: CheckpointResult | undefined) => void) | undefined;

  // A failed thread hands checkpoints back to SQLite rather than let the log grow without end.
  const restoreSqliteCheckpoints = (err: unknown) => {
    if (!worker) return;
    // Not `instanceof Error`: an error from the thread may come from another realm.
    stats.failure = String((err as { message?: unknown } | undefined)?.message ?? err);
    worker = undefined;
    answerRequested?.(undefined);
    if (stopped) return;
    options.onFailure?.(stats.failure);
    db.raw(`PRAGMA wal_autocheckpoint = 1000`).catch(() => undefined);
  };

  // With the one connection held, no commit lands between the checkpoint and the next write, so
  // the log is copied back whole and SQLite starts it over.
  const checkpointExclusively = async () => {
    const connection = await db.client.acquireConnection();
    try {
      if (!worker) return;
      const answered = new Promise<CheckpointResult | undefined>((resolve) => (answerRequested = resolve));
      worker.postMessage("checkpoint");
      const result = await answered;
      if (!result) return; // the thread failed or is stopping
      record(result);
      stats.exclusiveCheckpoints++;
    } finally {
      answerRequested = undefined;
      db.client.releaseConnection(connection);
    }
  };

  const record = (result: CheckpointResult) => {
    stats.checkpoints++;
    stats.logPages = result.log;
    stats.checkpointedPages = result.checkpointed;
  };

  const start = () => {
    stats.started = true;
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { filename, driver: require.resolve("better-sqlite3"), intervalMs: options.intervalMs },
    });
    worker.unref();
    worker.on("message", (message: { periodic?: CheckpointResult; requested?: CheckpointResult; failed?: string }) => {
      if (message.failed) return restoreSqliteCheckpoints(new Error(message.failed));
      if (message.requested) return answerRequested?.(message.requested);
      if (!message.periodic) return;
      record(message.periodic);
      if (message.periodic.log > options.maxPages && !exclusive && !stopped) {
        // Only taking the connection can fail (a pool closing or busy past its timeout): the next
        // periodic checkpoint tries again, and the thread carries on.
        exclusive = checkpointExclusively()
          .catch(() => undefined)
          .finally(() => (exclusive = undefined));
      }
    });
    worker.on("error", restoreSqliteCheckpoints);
    worker.on("exit", (code) => restoreSqliteCheckpoints(new Error(`checkpoint thread exited (code ${code})`)));
  };

  // Until the log is big enough to matter, a cheap look at its size now and then.
  const walFile = `${filename}-wal`;
  const watcher = setInterval(() => {
    fs.promises.stat(walFile).then(
      (stat) => {
        if (stat.size < options.startBytes || stopped || stats.started) return;
        clearInterval(watcher);
        start();
      },
      () => undefined, // no log yet
    );
  }, options.intervalMs);
  watcher.unref();

  return {
    stats: () => ({ ...stats }),
    async stop() {
      stopped = true;
      clearInterval(watcher);
      answerRequested?.(undefined);
      await exclusive;
      const ending = worker;
      worker = undefined; // its exit is no failure now
      if (!ending) return;
      const exited = new Promise((resolve) => ending.once("exit", resolve));
      ending.postMessage("stop");
      await exited;
    },
  };
}
