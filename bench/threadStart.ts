// How long a render thread takes to start: from `new Worker` to its first message ("ready", sent
// once its modules are loaded), one thread at a time, and the CPU time of the whole process over
// all the starts (a worker's own thread counts in it). Three ways, in the same run:
//   - a bare worker that only posts "ready" (the baseline: what any thread costs);
//   - the render thread from its bundle (src/webhooks/renderThreadBundle.ts), as the server starts it;
//   - the render thread through tsx's require hook, as threads started before the bundle.
//   npx tsx bench/threadStart.ts   → one line of JSON (BENCH_ROUNDS starts of each, default 10)
import { Worker } from "node:worker_threads";
import { startWorker } from "../src/webhooks/pipelineThreads";

export interface ThreadStartCase {
  name: string;
  /** Median of the starts, ms. */
  ms: number;
  starts_ms: number[];
  /** CPU time of the process per start, ms (mean). */
  cpu_ms: number;
}

const LIMITS = { threads: 1, timeoutMs: 5000, memoryMb: 512, plugins: 64 };
const BARE = 'require("node:worker_threads").parentPort.postMessage(JSON.stringify({ ready: true }));';

function once(start: () => Worker): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = process.hrtime.bigint();
    const worker = start();
    worker.once("error", reject);
    worker.once("message", () => {
      const ms = Number(process.hrtime.bigint() - began) / 1e6;
      void worker.terminate().then(() => resolve(Math.round(ms * 10) / 10));
    });
  });
}

async function measure(name: string, rounds: number, start: () => Worker): Promise<ThreadStartCase> {
  await once(start); // the first start also builds the bundle or fills tsx's cache: not counted
  const cpuBefore = process.cpuUsage();
  const starts: number[] = [];
  for (let i = 0; i < rounds; i++) starts.push(await once(start));
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = [...starts].sort((a, b) => a - b);
  return {
    name,
    ms: sorted[Math.floor(sorted.length / 2)],
    starts_ms: starts,
    cpu_ms: Math.round((cpu.user + cpu.system) / 1000 / rounds),
  };
}

export async function measureThreadStart(rounds: number): Promise<ThreadStartCase[]> {
  return [
    await measure("bare worker thread (baseline)", rounds, () => new Worker(BARE, { eval: true })),
    await measure("render thread, from its bundle", rounds, () => startWorker(LIMITS, "bundle")),
    await measure("render thread, through tsx's require hook", rounds, () => startWorker(LIMITS, "tsx")),
  ];
}

if (require.main === module)
  void measureThreadStart(Math.max(1, Number(process.env.BENCH_ROUNDS ?? 10))).then((cases) =>
    process.stdout.write(JSON.stringify(cases) + "\n"),
  );
