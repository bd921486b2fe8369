// npm run send-fixture -- <integration> <case> --site URL --api-key KEY [--stream S] [--topic T]
// Replays integrations/<name>/fixtures/<case>.json against a running server with the same headers,
// query and body encoding as the test suite, so authors can see the message in a real client.
import path from "node:path";
import { loadFixtureCases } from "../webhooks/fixtures";
import { loadIntegrationFolder } from "../webhooks/loader";
import { repoRoot } from "../webhooks/startup";
import { fail, parseArgs } from "./args";

async function main(): Promise<void> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  const [name, caseName] = positional;
  const site = typeof options.site === "string" ? options.site.replace(/\/$/, "") : undefined;
  const apiKey = typeof options["api-key"] === "string" ? options["api-key"] : process.env.WEBHOOK_API_KEY;
  if (!name || !caseName || !site || !apiKey) {
    fail(
      "usage: npm run send-fixture -- <integration> <case> --site URL --api-key KEY [--stream S] [--topic T]\n(the key may also come from WEBHOOK_API_KEY)",
    );
  }
  const root = repoRoot();
  const integration = loadIntegrationFolder(path.join(root, "integrations", name), root);
  const cases = loadFixtureCases(integration);
  const c = cases.find((x) => x.name === caseName || `${x.name}.json` === caseName);
  if (!c)
    fail(
      `no fixture '${caseName}' in ${path.relative(root, integration.fixturesDir)}/ (have: ${cases.map((x) => x.name).join(", ") || "none"})`,
    );

  const query = new URLSearchParams({ ...c.query });
  query.set("api_key", apiKey);
  for (const key of ["stream", "topic"]) if (typeof options[key] === "string") query.set(key, options[key] as string);
  const res = await fetch(`${site}/api/v1/external/${name}?${query}`, {
    method: "POST",
    headers: { "content-type": c.contentType, ...c.headers },
    body: c.body,
  });
  const headerText = Object.entries(c.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
  process.stdout.write(
    `POST /api/v1/external/${name} (${c.name}.json${headerText ? `, ${headerText}` : ""}) → ${res.status}\n${await res.text()}\n`,
  );
  if (!res.ok) process.exitCode = 1;
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
