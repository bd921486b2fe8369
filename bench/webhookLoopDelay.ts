// How long large webhook deliveries hold the server's event loop. The server runs in this process
// (real app, fresh SQLite database, seeded organization); a worker thread posts 4 MB helloworld
// deliveries over loopback, so the client's own work never runs on the loop being measured.
// perf_hooks.monitorEventLoopDelay samples the loop every 1 ms meanwhile, and the loop's busy time
// (performance.eventLoopUtilization) is divided by the deliveries.
//   npx tsx bench/webhookLoopDelay.ts            → one line of JSON per case
//   LOOP_PROBE_DELIVERIES=n LOOP_PROBE_MB=n     → deliveries per case, body size
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { startTestServer } from "../test/support/harness";

const DELIVERIES = Number(process.env.LOOP_PROBE_DELIVERIES ?? 10);
const BODY_MB = Number(process.env.LOOP_PROBE_MB ?? 4);

export interface LoopDelayCase {
  name: string;
  deliveries: number;
  concurrency: number;
  statuses: Record<string, number>;
  /** Event-loop delay while the deliveries were posted, in ms. */
  max_ms: number;
  p99_ms: number;
  mean_ms: number;
  /** Time the event loop was busy (not waiting for I/O), per delivery, in ms. */
  busy_ms_per_delivery: number;
}

// The client, in plain JavaScript (a worker thread runs it as given).
const CLIENT = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, body, total, concurrency } = workerData;
const statuses = {};
let next = 0;
async function lane() {
  while (next < total) {
    next++;
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    await res.text();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
}
Promise.all(Array.from({ length: concurrency }, lane)).then(() => parentPort.postMessage(statuses));
`;

function post(url: string, body: string, total: number, concurrency: number): Promise<Record<string, number>> {
  const worker = new Worker(CLIENT, { eval: true, workerData: { url, body, total, concurrency } });
  return new Promise((resolve, reject) => {
    worker.once("message", (statuses) => {
      void worker.terminate();
      resolve(statuses as Record<string, number>);
    });
    worker.once("error", reject);
  });
}

export async function measureWebhookLoopDelay(env: Record<string, string> = {}): Promise<LoopDelayCase[]> {
  const server = await startTestServer({
    RATE_LIMIT_WEBHOOK_REQUESTS: "100000",
    MAX_WEBHOOK_BODY_BYTES: String((BODY_MB + 1) * 1024 * 1024),
    ...env,
  });
  try {
    const url = `${server.url}/api/v1/external/helloworld?api_key=${server.users.bot.apiKey}&stream=general`;
    const padding = "x".repeat(BODY_MB * 1024 * 1024);
    const bodies = {
      // An unused field: the body is read, parsed and logged, the message is small.
      padding: JSON.stringify({ featured_title: "Aurora", featured_url: "https://example.com/a", padding }),
      // A 4 MB title: the message itself is large (and cut to the length limit).
      content: JSON.stringify({
        featured_title: padding.replace(/x{80}/g, "word ".repeat(16)),
        featured_url: "https://example.com/a",
      }),
    };
    // Warm up: the render thread loads the plugin, the route and caches are hot.
    await post(url, bodies.padding, 2, 1);
    const cases: LoopDelayCase[] = [];
    for (const [kind, body] of Object.entries(bodies)) {
      for (const concurrency of [1, 5]) {
        await server.deps.webhookOps.log.idle();
        const histogram = monitorEventLoopDelay({ resolution: 1 });
        histogram.enable();
        const startUtilization = performance.eventLoopUtilization();
        const statuses = await post(url, body, DELIVERIES, concurrency);
        await server.deps.webhookOps.log.idle();
        histogram.disable();
        const { active } = performance.eventLoopUtilization(startUtilization);
        cases.push({
          name: `${BODY_MB} MB helloworld (${kind}), ${concurrency} at a time`,
          deliveries: DELIVERIES,
          concurrency,
          statuses,
          max_ms: Math.round(histogram.max / 1e5) / 10,
          p99_ms: Math.round(histogram.percentile(99) / 1e5) / 10,
          mean_ms: Math.round(histogram.mean / 1e5) / 10,
          busy_ms_per_delivery: Math.round((active / DELIVERIES) * 10) / 10,
        });
      }
    }
    return cases;
  } finally {
    await server.close();
  }
}

if (require.main === module) {
  void measureWebhookLoopDelay().then((cases) => {
    for (const c of cases) process.stdout.write(JSON.stringify(c) + "\n");
  });
}
