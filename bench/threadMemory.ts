// Memory of a server process with every plugin: the main thread's heap and the process's RSS, and
// each render thread's heap, once it has started (threads warmed as the server warms them) and
// again after every fixture case of every plugin has gone through the render threads once (each
// plugin then loaded, its validators run and its templates compiled for the events it rendered).
// Garbage is collected before each reading (run with --expose-gc), so the figures are what stays.
// The deliveries go straight to the threads (no HTTP, no database): plugins with API lookups or
// signing certificates would otherwise reach for their service's host.
//   node --expose-gc --import tsx bench/threadMemory.ts   → one line of JSON
//   WEBHOOK_RENDER_PLUGINS=n, WEBHOOK_RENDER_THREADS=n    → as for the server
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDeps } from "../src/bootstrap";
import { loadConfig } from "../src/config";
import { fixtureRequest, loadFixtureCases } from "../src/webhooks/fixtures";
import type { ThreadMemory } from "../src/webhooks/pipelineThreads";

export interface MemoryReading {
  main_heap_used_mb: number;
  rss_mb: number;
  threads: { heap_used_mb: number; heap_total_mb: number; plugins: number }[];
}

export interface ThreadMemoryResult {
  plugins: number;
  threads: number;
  plugins_per_thread: number;
  cases: number;
  after_start: MemoryReading;
  after_every_fixture: MemoryReading;
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

async function reading(threads: () => Promise<ThreadMemory[]>): Promise<MemoryReading> {
  gc();
  const reports = await threads();
  return {
    main_heap_used_mb: mb(process.memoryUsage().heapUsed),
    rss_mb: mb(process.memoryUsage().rss),
    threads: reports.map((t) => ({
      heap_used_mb: mb(t.heapUsedBytes),
      heap_total_mb: mb(t.heapTotalBytes),
      plugins: t.plugins,
    })),
  };
}

export async function measureThreadMemory(): Promise<ThreadMemoryResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-bench-memory-"));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "" });
  const deps = await createDeps(config);
  try {
    const { threads } = deps.webhookOps;
    deps.webhookOps.warmRenderThreads();
    // Started once every thread answers and whatever the warm-up loads is loaded (counts stop moving).
    let last = "";
    for (let polls = 0; polls < 600; polls++) {
      const counts = (await threads.memory()).map((t) => t.plugins).join(",");
      if (counts === last && counts.split(",").length === config.webhookRender.threads) break;
      last = counts;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const afterStart = await reading(() => threads.memory({ gc: true }));
    const integrations = deps.integrations.all();
    let cases = 0;
    // Two in flight, so every thread gets deliveries (a task goes to the least busy thread).
    const work = integrations.flatMap((integration) =>
      loadFixtureCases(integration).map((c) => () => threads.run(integration, fixtureRequest(c, { stream: "bench" }))),
    );
    const lane = async () => {
      for (let next = work.shift(); next; next = work.shift()) {
        await next();
        cases++;
      }
    };
    await Promise.all([lane(), lane()]);
    const afterEvery = await reading(() => threads.memory({ gc: true }));
    return {
      plugins: integrations.length,
      threads: config.webhookRender.threads,
      plugins_per_thread: config.webhookRender.plugins,
      cases,
      after_start: afterStart,
      after_every_fixture: afterEvery,
    };
  } finally {
    await deps.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void measureThreadMemory().then((result) => process.stdout.write(JSON.stringify(result) + "\n"));
}
