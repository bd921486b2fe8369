// Render threads: the webhook pipeline (signature, JSON parsing, schema, transform, templates) runs
// on worker threads, so a large or slow delivery never holds the server's event loop, the work of
// many deliveries spreads over the machine's other cores, and a delivery that takes longer than the
// time limit (or more memory than the thread is given) is stopped: its thread is terminated and
// replaced. Each thread loads a plugin from its folder the first time it is asked for it, and keeps
// the plugins it used last, at most `plugins` of them (pipelineWorker.ts).
// threads = 0 runs the pipeline inline on the event loop, without the time and memory limits.
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { ApiError, type ErrorCode } from "../errors";
import { settlePipeline, type Outcome, type PipelineResult, type WebhookRequest } from "./pipeline";
import type { Integration } from "./registry";
import { renderThreadBundle } from "./renderThreadBundle";
import { repoRoot } from "./startup";

/**
 * Time a thread may take to load a plugin for a delivery, apart from the delivery's own limit.
 * The server loaded every plugin once at start-up, so only a loaded machine makes this slow; the
 * bound still stops a thread that never finishes.
 */
export const RENDER_PLUGIN_LOAD_TIMEOUT_MS = 30_000;

export interface RenderLimits {
  /** Worker threads; 0 runs the pipeline on the event loop. */
  threads: number;
  /** Time one delivery may take on its thread (starting the thread and loading the plugin do not count). */
  timeoutMs: number;
  /** Heap (old generation) one thread may use. */
  memoryMb: number;
  /**
   * Plugins one thread keeps compiled: the ones it used last (WEBHOOK_RENDER_PLUGINS). The bound
   * keeps a thread's heap from growing with the registry (docs/benchmarks.md#start-up-and-memory).
   */
  plugins: number;
}

/** What a thread is given when it starts (worker_threads' workerData). */
export interface ThreadSettings {
  plugins: number;
}

/** A delivery as it crosses to a thread: plain data only (overrides travel as template sources). */
export interface ThreadTask {
  id: number;
  /** The plugin's folder. */
  dir: string;
  request: Omit<WebhookRequest, "overrides" | "body"> & {
    overrides?: [eventKey: string, sources: { template?: string; topic?: string }][];
  };
}

/**
 * Messages cross as strings: the task as JSON, a newline, then the body's bytes as Latin-1 (one
 * character per byte, so any bytes survive). A string is copied in one piece; the structured clone
 * of the same object and a transferred buffer cost the event loop about twice as much, for the
 * small bodies most deliveries have (large ones: TRANSFER_BODY_BYTES below).
 */
export function encodeTask(task: ThreadTask, body: Buffer): string {
  return `${JSON.stringify(task)}\n${body.toString("latin1")}`;
}

export function decodeTask(message: string): { task: ThreadTask; body: Buffer } {
  const end = message.indexOf("\n"); // JSON.stringify never writes a raw newline
  return { task: JSON.parse(message.slice(0, end)) as ThreadTask, body: Buffer.from(message.slice(end + 1), "latin1") };
}

/**
 * Bodies of at least this many bytes cross as a transferred buffer instead of inside the task's
 * string. For a 4 MB body the Latin-1 string cost the event loop its conversion, its copy into the
 * message and then its garbage; copying the bytes into a buffer of their own is one memcpy, and
 * the transfer copies nothing. Small bodies keep the string, which is cheaper for them.
 */
export const TRANSFER_BODY_BYTES = 64 * 1024;

/** A task as posted: the string above, or (a large body) the task's JSON and its body's own buffer. */
export type TaskMessage = string | { task: string; body: ArrayBuffer };

export function encodeTaskMessage(task: ThreadTask, body: Buffer): { message: TaskMessage; transfer?: ArrayBuffer } {
  if (body.length < TRANSFER_BODY_BYTES) return { message: encodeTask(task, body) };
  // allocUnsafeSlow: an ArrayBuffer of its own, not a slice of Node's shared pool, so it can be
  // transferred. The request's Buffer itself stays: the delivery log still reads it.
  const copy = Buffer.allocUnsafeSlow(body.length);
  body.copy(copy);
  return { message: { task: JSON.stringify(task), body: copy.buffer }, transfer: copy.buffer };
}

export function decodeTaskMessage(message: TaskMessage): { task: ThreadTask; body: Buffer } {
  if (typeof message === "string") return decodeTask(message);
  return { task: JSON.parse(message.task) as ThreadTask, body: Buffer.from(message.body) };
}

/**
 * An error as it crosses back: an ApiError's fields; any other error's name, message, stack and
 * own primitive fields (a library's `status` or `code`), so the HTTP error handler still reads them.
 */
export type WireError =
  | { api: { code: ErrorCode; message: string; extra: Record<string, unknown>; status: number } }
  | { name: string; message: string; stack?: string; fields: Record<string, string | number | boolean> };

/** The other messages a thread gets: plugin folders to load ahead of their first delivery; a memory report. */
export interface WarmUp {
  warm: string[];
}

export interface MemoryRequest {
  /** Collect garbage first, where the process runs with --expose-gc (the bench). */
  memory: { gc: boolean };
}

/** One render thread's heap (V8's own figures for its isolate) and the plugins it holds. */
export interface ThreadMemory {
  heapUsedBytes: number;
  heapTotalBytes: number;
  plugins: number;
}

export type ThreadReply =
  | { ready: true }
  | { memory: ThreadMemory }
  | { id: number; loading: true }
  | { id: number; loaded: true }
  | { id: number; result: { outcome: Outcome } | { error: WireError; event?: string; eventKey?: string } };

export function toWireError(err: unknown): WireError {
  if (err instanceof ApiError)
    return { api: { code: err.code, message: err.message, extra: err.extra, status: err.status } };
  const e = err instanceof Error ? err : new Error(String(err));
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(e))
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value;
  return { name: e.name, message: e.message, stack: e.stack, fields };
}

function fromWireError(wire: WireError): Error {
  if ("api" in wire) return new ApiError(wire.api.code, wire.api.message, wire.api.extra, { status: wire.api.status });
  const err = Object.assign(new Error(wire.message), wire.fields);
  err.name = wire.name;
  if (wire.stack) err.stack = wire.stack;
  return err;
}

/** The 400 a delivery gets when reading it went past a render limit (named by its setting). */
function renderLimitError(integration: Integration, limits: RenderLimits, which: "time" | "memory"): ApiError {
  const { displayName } = integration.manifest;
  return which === "time"
    ? new ApiError(
        "RENDER_LIMIT_EXCEEDED",
        `Reading this ${displayName} delivery took longer than ${limits.timeoutMs} ms (WEBHOOK_RENDER_TIMEOUT_MS)`,
        { limit: limits.timeoutMs, limit_name: "WEBHOOK_RENDER_TIMEOUT_MS" },
      )
    : new ApiError(
        "RENDER_LIMIT_EXCEEDED",
        `Reading this ${displayName} delivery needed more than ${limits.memoryMb} MB (WEBHOOK_RENDER_MEMORY_MB)`,
        { limit: limits.memoryMb, limit_name: "WEBHOOK_RENDER_MEMORY_MB" },
      );
}

/**
 * The thread's entry point. Under TypeScript (tsx or Jest) the loader that compiled this file does
 * not reach worker threads: a thread runs the sources bundled into one file (renderThreadBundle.ts),
 * or, where that cannot be built, starts with tsx's require hook. `via: "tsx"` always does (the
 * bench compares the two: bench/threadStart.ts).
 */
export function startWorker(limits: RenderLimits, via: "bundle" | "tsx" = "bundle"): Worker {
  const ext = path.extname(__filename);
  const entry = path.join(__dirname, `pipelineWorker${ext}`);
  const resourceLimits = { maxOldGenerationSizeMb: limits.memoryMb };
  const workerData: ThreadSettings = { plugins: Math.max(1, limits.plugins) };
  if (ext !== ".ts") return new Worker(entry, { resourceLimits, workerData });
  const bundle =
    via === "bundle" &&
    renderThreadBundle(
      path.join(__dirname, "renderThreadEntry.ts"),
      path.join(repoRoot(), "node_modules", ".cache", "switchboard"),
    );
  // Without the process's module loaders: a thread inherits `--import tsx` (npm start), whose
  // hooks would make each thread start as slowly as without the bundle (bench/threadStart.ts).
  if (bundle) return new Worker(bundle, { resourceLimits, workerData, execArgv: withoutLoaders(process.execArgv) });
  const code = `require(${JSON.stringify(require.resolve("tsx/cjs"))}); require(${JSON.stringify(entry)});`;
  return new Worker(code, { eval: true, resourceLimits, workerData });
}

/** Node's options without those that load modules first (`--import`, `--require`, `--loader`). */
export function withoutLoaders(execArgv: readonly string[]): string[] {
  const LOADERS = ["--import", "--require", "-r", "--loader", "--experimental-loader"];
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i];
    if (LOADERS.includes(flag))
      i++; // its value is the next word
    else if (!LOADERS.some((loader) => flag.startsWith(`${loader}=`))) out.push(flag);
  }
  return out;
}

interface Task {
  wire: ThreadTask;
  body: Buffer;
  integration: Integration;
  resolve: (result: PipelineResult) => void;
}

interface Slot {
  worker: Worker;
  /**
   * Tasks sent to this thread, in order: it runs them one after another, so the first is the one
   * running. They are sent without waiting for the previous answer, so the thread never waits for
   * a busy event loop to hand it the next.
   */
  tasks: Task[];
  /** The thread has started (its modules are loaded): before that, no task's clock runs. */
  ready: boolean;
  timer?: NodeJS.Timeout;
  /** The error the thread died of, if any (out of memory, a crash). */
  failure?: Error & { code?: string };
  /** memory() calls waiting for this thread's report, in order. */
  memoryWaiters: ((report: ThreadMemory | undefined) => void)[];
}

export class PipelineThreads {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  private dispatchScheduled = false;

  constructor(
    private readonly limits: RenderLimits,
    private readonly logger?: Pick<Logger, "warn" | "error">,
  ) {}

  /** The pipeline's result for this delivery; never rejects (errors are in the result). */
  run(integration: Integration, request: WebhookRequest): Promise<PipelineResult> {
    if (this.limits.threads === 0) return Promise.resolve(settlePipeline(integration, request));
    if (this.closed) return Promise.resolve({ error: shuttingDown() });
    const { overrides, body, ...rest } = request;
    const sources = overrides
      ? [...overrides].flatMap(([key, o]) => (o.sources ? [[key, o.sources] as [string, typeof o.sources]] : []))
      : [];
    const wire: ThreadTask = {
      id: this.nextId++,
      dir: integration.dir,
      request: { ...rest, ...(sources.length > 0 ? { overrides: sources } : {}) },
    };
    return new Promise((resolve) => {
      this.queue.push({ wire, body, integration, resolve });
      // The deliveries that arrive in one turn of the event loop go together, one message per thread.
      if (!this.dispatchScheduled) {
        this.dispatchScheduled = true;
        setImmediate(() => {
          this.dispatchScheduled = false;
          this.dispatch();
        });
      }
    });
  }

  /**
   * Starts every thread, so the first delivery after a start does not wait for one (about a second).
   * Each also loads these plugin folders in the background, one per turn of its loop (deliveries are
   * served in between), as many as it keeps (`plugins`). The server calls it once it listens, with
   * no folders: a thread compiles a plugin on its first delivery. Tests and the CLI leave threads lazy.
   */
  warm(dirs: readonly string[] = []): void {
    if (this.closed) return;
    while (this.slots.length < this.limits.threads) this.spawn();
    if (dirs.length > 0) for (const slot of this.slots) slot.worker.postMessage({ warm: [...dirs] } satisfies WarmUp);
  }

  /**
   * Each running thread's heap and plugin count, answered between deliveries (after those already
   * sent to it). `gc`: collect garbage first, where the process has --expose-gc.
   */
  async memory(options: { gc?: boolean } = {}): Promise<ThreadMemory[]> {
    const reports = await Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<ThreadMemory | undefined>((resolve) => {
            slot.memoryWaiters.push(resolve);
            slot.worker.postMessage({ memory: { gc: options.gc === true } } satisfies MemoryRequest);
          }),
      ),
    );
    return reports.filter((r) => r !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.resolve({ error: shuttingDown() });
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      clearTimeout(slot.timer);
      for (const task of slot.tasks.splice(0)) task.resolve({ error: shuttingDown() });
      for (const waiter of slot.memoryWaiters.splice(0)) waiter(undefined);
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** Sends queued tasks to the least loaded thread, starting threads up to the limit. */
  private dispatch(): void {
    const batches = new Map<Slot, { messages: TaskMessage[]; transfer: ArrayBuffer[] }>();
    while (this.queue.length > 0) {
      let slot = this.slots.reduce<Slot | undefined>(
        (a, b) => (a && a.tasks.length <= b.tasks.length ? a : b),
        undefined,
      );
      if ((!slot || slot.tasks.length > 0) && this.slots.length < this.limits.threads) slot = this.spawn();
      if (!slot) break;
      const task = this.queue.shift() as Task;
      slot.tasks.push(task);
      if (slot.tasks.length === 1 && slot.ready) this.arm(slot);
      const batch = batches.get(slot) ?? { messages: [], transfer: [] };
      const { message, transfer } = encodeTaskMessage(task.wire, task.body);
      batch.messages.push(message);
      if (transfer) batch.transfer.push(transfer);
      batches.set(slot, batch);
    }
    // One message per thread: posting costs the event loop about as much per message as per task.
    for (const [slot, batch] of batches) slot.worker.postMessage(batch.messages, batch.transfer);
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker(this.limits), tasks: [], ready: false, memoryWaiters: [] };
    slot.worker.unref();
    slot.worker.on("message", (reply: string) => this.onReply(slot, JSON.parse(reply) as ThreadReply));
    slot.worker.on("error", (err) => (slot.failure = err));
    slot.worker.on("exit", () => this.onExit(slot));
    this.slots.push(slot);
    return slot;
  }

  /**
   * (Re)starts the running task's clock: when it becomes the first of its thread (once the thread
   * has started: starting one takes about a second, more on a loaded machine), and again once the
   * thread has loaded its plugin; while the thread loads one, the plugin-load bound runs instead.
   * The thread may have started the task a little earlier (its previous answer was still waiting
   * for the event loop), so a delivery gets at least the limit, never less.
   */
  private arm(slot: Slot, ms = this.limits.timeoutMs): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.expire(slot, ms), ms);
  }

  private onReply(slot: Slot, reply: ThreadReply): void {
    if ("ready" in reply) {
      slot.ready = true;
      if (slot.tasks.length > 0) this.arm(slot);
      return;
    }
    if ("memory" in reply) return slot.memoryWaiters.shift()?.(reply.memory);
    const task = slot.tasks[0];
    if (!task || task.wire.id !== reply.id) return;
    if ("loading" in reply) return this.arm(slot, Math.max(RENDER_PLUGIN_LOAD_TIMEOUT_MS, this.limits.timeoutMs));
    if ("loaded" in reply) return this.arm(slot);
    clearTimeout(slot.timer);
    slot.tasks.shift();
    if (slot.tasks.length > 0) this.arm(slot);
    const { result } = reply;
    task.resolve(
      "outcome" in result
        ? result
        : { error: fromWireError(result.error), event: result.event, eventKey: result.eventKey },
    );
  }

  private expire(slot: Slot, limitMs: number): void {
    const task = slot.tasks[0];
    if (!task) return;
    this.logger?.warn(
      { integration: task.integration.name, limitMs },
      "webhook delivery went past the render time limit; its thread is replaced",
    );
    this.retire(slot, renderLimitError(task.integration, this.limits, "time"));
    void slot.worker.terminate();
  }

  private onExit(slot: Slot): void {
    const task = slot.tasks[0];
    if (!task) return this.retire(slot);
    const outOfMemory = slot.failure?.code === "ERR_WORKER_OUT_OF_MEMORY";
    if (outOfMemory)
      this.logger?.warn(
        { integration: task.integration.name, limitMb: this.limits.memoryMb },
        "webhook delivery went past the render memory limit; its thread is replaced",
      );
    else this.logger?.error({ err: slot.failure, integration: task.integration.name }, "render thread died");
    this.retire(
      slot,
      outOfMemory
        ? renderLimitError(task.integration, this.limits, "memory")
        : new Error(`render thread exited: ${slot.failure?.message ?? "no error given"}`),
    );
  }

  /**
   * Takes a thread out of the pool: its running task gets `error`; the tasks waiting behind it go
   * back to the front of the queue for another thread.
   */
  private retire(slot: Slot, error?: Error): void {
    clearTimeout(slot.timer);
    for (const waiter of slot.memoryWaiters.splice(0)) waiter(undefined);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    const [running, ...waiting] = slot.tasks.splice(0);
    if (running && error) running.resolve({ error });
    else if (running) waiting.unshift(running);
    this.queue.unshift(...waiting);
    if (!this.closed) this.dispatch();
  }
}

const shuttingDown = () => new ApiError("SERVICE_UNAVAILABLE", "The server is shutting down");
