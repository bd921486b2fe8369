// One render thread (see pipelineThreads.ts): loads each plugin from its folder on first use,
// compiles an organization's template overrides from their sources (cached), runs the pipeline and
// answers with plain data.
import { parentPort } from "node:worker_threads";
import { templateCache } from "./helpers";
import { loadIntegrationFolder } from "./loader";
import { settlePipeline, type EventOverride, type PipelineResult } from "./pipeline";
import type { Integration } from "./registry";
import {
  decodeTaskMessage,
  toWireError,
  type TaskMessage,
  type ThreadReply,
  type ThreadTask,
  type WarmUp,
} from "./pipelineThreads";

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

function integrationAt(dir: string): { integration: Integration; loaded: boolean } {
  const known = integrations.get(dir);
  if (known) return { integration: known, loaded: false };
  const integration = loadIntegrationFolder(dir);
  integrations.set(dir, integration);
  return { integration, loaded: true };
}

/** Loads the folders one per turn of the loop, so deliveries that arrive meanwhile are not held up. */
function warm(dirs: string[]): void {
  const [dir, ...rest] = dirs;
  if (dir === undefined) return;
  try {
    integrationAt(dir);
  } catch {
    // The server loaded every folder at start-up; one that fails now fails its delivery instead.
  }
  setImmediate(() => warm(rest));
}

function run(task: ThreadTask, body: Buffer): ThreadReply {
  const { integration, loaded } = integrationAt(task.dir);
  // Loading a plugin is not the delivery's time: the main thread restarts its clock.
  if (loaded) reply({ id: task.id, loaded: true });
  const result: PipelineResult = settlePipeline(integration, { ...task.request, body, overrides: overridesOf(task) });
  if ("outcome" in result) return { id: task.id, result };
  return { id: task.id, result: { error: toWireError(result.error), event: result.event, eventKey: result.eventKey } };
}

parentPort?.on("message", (message: TaskMessage[] | WarmUp) => {
  if (!Array.isArray(message)) return warm(message.warm);
  for (const task of message) serve(task);
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
