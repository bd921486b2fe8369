// GitHub's published example payloads (npm @octokit/webhooks-examples: github.com and every GitHub
// Enterprise Server version it ships) posted through the real app as the GitHub plugin would receive
// them, with `X-GitHub-Event` set to the example's event name. Every delivery must be answered with a
// 2xx (GitHub disables hooks that keep failing), and at least 90% of them must produce a message:
// the rest are deliberate, documented ignores (incomplete runs, duplicates) or events we do not render.
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

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
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers every example with a 2xx, and at least 90% of them with a message", async () => {
    const deliveries = loadDeliveries();
    expect(deliveries.length).toBeGreaterThan(300);
    const failures: string[] = [];
    const silent = new Map<string, number>();
    let withMessage = 0;
    // The bot's messages so far; each delivery's own are the ones after it (one query per delivery).
    let before = await latestMessageId(server);
    for (const delivery of deliveries) {
      const res = await postWebhook(server, "github", {
        body: delivery.body,
        query: { stream: server.general.name },
        headers: { "X-GitHub-Event": delivery.event },
      });
      const label = `${delivery.event}.${delivery.action}`;
      if (res.status < 200 || res.status >= 300) {
        failures.push(`${label}: ${res.status} ${res.body.code} ${res.body.msg}`);
        continue;
      }
      const stored = await messagesSince(server, before, server.users.bot.id);
      if (stored.length > 0) {
        withMessage++;
        before = stored[stored.length - 1].id;
      } else silent.set(label, (silent.get(label) ?? 0) + 1);
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
