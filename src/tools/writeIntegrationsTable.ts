// npm run integrations-table — regenerates docs/integrations.md from the manifests.
import fs from "node:fs";
import path from "node:path";
import { IntegrationLoadError, loadIntegrations } from "../webhooks/loader";
import { repoRoot } from "../webhooks/startup";
import { INTEGRATIONS_DOC, integrationsTableMarkdown } from "./integrationsTable";

const root = repoRoot();
try {
  const integrations = loadIntegrations(path.join(root, "integrations"), root);
  const file = path.join(root, INTEGRATIONS_DOC);
  const text = integrationsTableMarkdown(integrations);
  const changed = !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text;
  if (changed) fs.writeFileSync(file, text);
  process.stdout.write(`${INTEGRATIONS_DOC}: ${integrations.length} integrations${changed ? " (updated)" : ""}\n`);
} catch (err) {
  if (!(err instanceof IntegrationLoadError)) throw err;
  process.stderr.write(err.problems.join("\n") + "\n");
  process.exit(1);
}
