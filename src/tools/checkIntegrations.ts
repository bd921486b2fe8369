// npm run check-integrations — loads every plugin exactly as the server does (exit 1 with one line
// per problem), then prints a table: name, events, fixtures, doc, plus coverage warnings.
import fs from "node:fs";
import path from "node:path";
import { loadFixtureCases, unexercisedEvents } from "../webhooks/fixtures";
import { IntegrationLoadError, loadIntegrations } from "../webhooks/loader";
import type { Integration } from "../webhooks/registry";
import { repoRoot } from "../webhooks/startup";

function coverage(integration: Integration): { fixtures: number; missingExpected: string[]; unexercised: string[] } {
  const cases = loadFixtureCases(integration);
  return {
    fixtures: cases.length,
    missingExpected: cases.filter((c) => !c.expected).map((c) => c.name),
    unexercised: unexercisedEvents(integration, cases),
  };
}

function main(): void {
  // INTEGRATIONS_DIR (as for the server) checks another plugin folder; each plugin has its fixtures/.
  const integrationsDir = path.resolve(process.env.INTEGRATIONS_DIR ?? path.join(repoRoot(), "integrations"));
  const root = path.dirname(integrationsDir);
  let integrations: Integration[];
  try {
    integrations = loadIntegrations(integrationsDir, root);
  } catch (err) {
    if (err instanceof IntegrationLoadError) {
      process.stderr.write(err.problems.join("\n") + "\n");
      process.exit(1);
    }
    throw err;
  }
  const rows = [["name", "display name", "events", "fixtures", "doc"]];
  const warnings: string[] = [];
  for (const i of integrations) {
    const cov = coverage(i);
    const doc = fs.existsSync(path.join(i.dir, i.manifest.docs ?? "doc.md"));
    rows.push([i.name, i.manifest.displayName, String(i.events.size), String(cov.fixtures), doc ? "yes" : "NO"]);
    if (cov.fixtures === 0) warnings.push(`${i.name}: no fixtures in ${path.relative(root, i.fixturesDir)}/`);
    if (cov.missingExpected.length)
      warnings.push(
        `${i.name}: no .expected.json for ${cov.missingExpected.join(", ")} (run UPDATE_FIXTURES=1 npm run test:plugin -- ${i.name})`,
      );
    if (cov.unexercised.length) warnings.push(`${i.name}: no fixture exercises event(s) ${cov.unexercised.join(", ")}`);
  }
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => r[col].length)));
  const line = (r: string[]) =>
    r
      .map((cell, col) => cell.padEnd(widths[col]))
      .join("  ")
      .trimEnd();
  process.stdout.write(
    [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n") + "\n",
  );
  if (warnings.length > 0) {
    process.stdout.write(`\n${warnings.map((w) => `warning: ${w}`).join("\n")}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`\n${integrations.length} integration(s) OK.\n`);
  }
}

main();
