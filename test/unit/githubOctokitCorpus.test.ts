// GitHub's published example payloads (npm @octokit/webhooks-examples: github.com and every GitHub
// Enterprise Server version it ships) replayed as the GitHub plugin would receive them, with
// `X-GitHub-Event` set to the example's event name, through the pure pipeline and what the delivery
// does to its messages (src/services/webhooks/dryRun.ts). Every delivery must be answered with a
// 2xx (GitHub disables hooks that keep failing), and at least 90% of them must produce a message:
// the rest are deliberate, documented ignores (incomplete runs, duplicates) or events we do not render.
import fs from "node:fs";
import path from "node:path";
import { dryRunDelivery } from "../../src/services/webhooks/dryRun";
import { loadIntegrationFolder } from "../../src/webhooks/loader";

const EXAMPLES = path.dirname(require.resolve("@octokit/webhooks-examples/package.json"));
const MIN_MESSAGE_RATIO = 0.9;

interface ExampleGroup {
  name: string;
  examples: Record<string, unknown>[];
}

interface Delivery {
  event: string;
  action: string;
  body: string;
}

/** Every example of every published corpus, once: the versions repeat many payloads verbatim. */
function loadDeliveries(): Delivery[] {
  const corpora = fs
    .readdirSync(EXAMPLES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(EXAMPLES, d.name, "index.json")))
    .map((d) => d.name)
    .sort();
  const seen = new Set<string>();
  const deliveries: Delivery[] = [];
  for (const corpus of corpora) {
    const groups: ExampleGroup[] = JSON.parse(fs.readFileSync(path.join(EXAMPLES, corpus, "index.json"), "utf8"));
    for (const group of groups) {
      for (const example of group.examples) {
        const body = JSON.stringify(example);
        const key = `${group.name}\n${body}`;
        if (seen.has(key)) continue;
        seen.add(key);
        deliveries.push({ event: group.name, action: String(example.action ?? "-"), body });
      }
    }
  }
  return deliveries;
}

describe("GitHub plugin on @octokit/webhooks-examples", () => {
  const github = loadIntegrationFolder(path.resolve(__dirname, "../../integrations/github"));

  it("answers every example with a 2xx, and at least 90% of them with a message", () => {
    const deliveries = loadDeliveries();
    expect(deliveries.length).toBeGreaterThan(300);
    const failures: string[] = [];
    const silent = new Map<string, number>();
    let withMessage = 0;
    for (const delivery of deliveries) {
      const result = dryRunDelivery(github, {
        body: Buffer.from(delivery.body),
        query: { stream: "general" },
        headers: { "content-type": "application/json", "x-github-event": delivery.event },
      });
      const label = `${delivery.event}.${delivery.action}`;
      // An unsupported event is answered 200 (with a code): GitHub sees a success, nothing is posted.
      if (result.error && (result.error.status < 200 || result.error.status >= 300)) {
        failures.push(`${label}: ${result.error.status} ${result.error.code} ${result.error.msg}`);
        continue;
      }
      if (!result.error && !result.ignored) withMessage++;
      else silent.set(label, (silent.get(label) ?? 0) + 1);
    }
    const ratio = withMessage / deliveries.length;
    const ignoredList = [...silent].map(([label, n]) => `${label} ×${n}`).join(", ");
    process.stdout.write(
      `octokit corpus: ${withMessage}/${deliveries.length} examples produced a message ` +
        `(${(100 * ratio).toFixed(1)}%); without one: ${ignoredList}\n`,
    );
    expect(failures).toEqual([]);
    expect(ratio).toBeGreaterThanOrEqual(MIN_MESSAGE_RATIO);
  });
});
