// One render thread (see pipelineThreads.ts): loads each plugin from its folder on first use (and
// keeps the ones it used last, a bounded number), compiles an organization's template overrides
// from their sources (cached), runs the pipeline and answers with plain data.
import v8 from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { templateCache } from "./helpers";
import { loadIntegrationFolder } from "./loader";
import { settlePipeline, type EventOverride, type PipelineResult } from "./pipeline";
import type { Integration } from "./registry";
import {
  decodeTaskMessage,
  toWireError,
  type MemoryRequest,
  type TaskMessage,
  type ThreadReply,
  type ThreadSettings,
  type ThreadTask,
  type WarmUp,
} from "./pipelineThreads";

const settings = workerData as ThreadSettings;
/**
 * The loaded plugins by folder, least recently used first (a Map keeps insertion order: a plugin
 * used again is moved to the end). Past `settings.plugins` the first is dropped, so the thread's
 * heap does not grow with the size of the registry (WEBHOOK_RENDER_PLUGINS).
 */
const integrations = new Map<string, Integration>();
/** Override templates, compiled from their sources as the main thread compiles them. */
const compiledOverride = templateCache(10_000);

function overridesOf(task: ThreadTask): Map<string, EventOverride> | undefined {
  if (!task.request.overrides) return undefined;
  return new Map(
    task.request.overrides.map(([key, sources]) => [
      key,
      {
        ...(sources.template ? { template: compiledOverride(sources.template, true) } : {}),
        ...(sources.topic ? { topic: compiledOverride(sources.topic, false) } : {}),
      },
    ]),
  );
}

const reply = (message: ThreadReply) => parentPort?.postMessage(JSON.stringify(message));

/** The plugin of `dir`, loaded when this thread does not hold it (`beforeLoading` is told first). */
function integrationAt(dir: string, beforeLoading?: () => void): { integration: Integration; loaded: boolean } {
  const known = integrations.get(dir);
  if (known) {
    integrations.delete(dir);
    integrations.set(dir, known);
    return { integration: known, loaded: false };
  }
  beforeLoading?.();
  // The server loaded this folder with every check before naming it here: the thread skips them.
  const integration = loadIntegrationFolder(dir, undefined, { checks: false });
  integrations.set(dir, integration);
  for (const oldest of integrations.keys()) {
    if (integrations.size <= settings.plugins) break;
    integrations.delete(oldest);
  }
  return { integration, loaded: true };
}

/** Loads the folders one per turn of the loop, so deliveries that arrive meanwhile are not held up. */
function warm(dirs: string[]): void {
  const [dir, ...rest] = dirs.slice(0, settings.plugins);
  if (dir === undefined) return;
  try {
    integrationAt(dir);
  } catch {
    // The server loaded every folder at start-up; one that fails now fails its delivery instead.
  }
  setImmediate(() => warm(rest));
}

function memory(request: MemoryRequest["memory"]): void {
  if (request.gc && typeof globalThis.gc === "function") globalThis.gc();
  const heap = v8.getHeapStatistics();
  reply({
    memory: { heapUsedBytes: heap.used_heap_size, heapTotalBytes: heap.total_heap_size, plugins: integrations.size },
  });
}

function run(task: ThreadTask, body: Buffer): ThreadReply {
  // Loading a plugin is not the delivery's time: the main thread stops its clock while this thread
  // loads one (a bound of its own runs instead) and restarts it once the plugin is loaded.
  const { integration, loaded } = integrationAt(task.dir, () => reply({ id: task.id, loading: true }));
  if (loaded) reply({ id: task.id, loaded: true });
  const result: PipelineResult = settlePipeline(integration, { ...task.request, body, overrides: overridesOf(task) });
  if ("outcome" in result) return { id: task.id, result };
  return { id: task.id, result: { error: toWireError(result.error), event: result.event, eventKey: result.eventKey } };
}

parentPort?.on("message", (message: TaskMessage[] | WarmUp | MemoryRequest) => {
  if (Array.isArray(message)) for (const task of message) serve(task);
  else if ("memory" in message) memory(message.memory);
  else warm(message.warm);
});

function serve(message: TaskMessage): void {
  const { task, body } = decodeTaskMessage(message);
  let answer: ThreadReply;
  try {
    answer = run(task, body);
  } catch (err) {
    // A plugin that no longer loads, or an override that no longer compiles.
    answer = { id: task.id, result: { error: toWireError(err) } };
  }
  try {
    reply(answer);
  } catch (err) {
    // A result JSON cannot carry (a plugin's transform returned a BigInt, say).
    reply({ id: task.id, result: { error: toWireError(err) } });
  }
}

// Started: from now on the main thread's clock runs for the tasks it sends here.
reply({ ready: true });
