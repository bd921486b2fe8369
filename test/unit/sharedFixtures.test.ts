// Replays the shared reference corpus (../shared/fixtures/<integration>/, with headers, query and
// content type from each index.json) against every plugin we have: each file must give a 200 with
// a stored message or a deliberate ignore — never an error, never a 5xx. Skipped when absent,
// except in CI (CI=true) where ../shared exists: there, replaying nothing is a failure.
import fs from "node:fs";
import path from "node:path";
import { loadIntegrations } from "../src/webhooks/loader";
import { runPipeline } from "../src/webhooks/pipeline";
import { startTestServer, type TestServer } from "./support/harness";
import { latestMessageId, messagesSince, postWebhook } from "./support/webhooks";

const ROOT = path.resolve(__dirname, "..");
const SHARED = path.resolve(ROOT, "..", "shared", "fixtures");
const integrations = loadIntegrations(path.join(ROOT, "integrations"));

interface IndexEntry {
  fixture: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  content_type?: string;
  /** The service sends the file's JSON as this one form field (`payload=<JSON>`). */
  form_field?: string;
}

/** The body exactly as the service sends it: the file, or the file's JSON inside one form field. */
function bodyFor(entry: IndexEntry, file: Buffer): Buffer {
  if (!entry.form_field) return file;
  return Buffer.from(new URLSearchParams({ [entry.form_field]: file.toString("utf8") }).toString());
}

const covered = fs.existsSync(SHARED)
  ? integrations.filter((i) => fs.existsSync(path.join(SHARED, i.name, "index.json")))
  : [];
// Without the corpus (e.g. a clone elsewhere) there is nothing to replay: one visible skip below.
// (A skipped describe holding beforeAll but no tests is itself an error in Jest.)
if (covered.length > 0)
  describe("shared reference fixtures", () => {
    let server: TestServer;
    beforeAll(async () => {
      // Every file is its own delivery: samples may reuse a sender delivery id, so no de-duplication here.
      server = await startTestServer({ WEBHOOK_DEDUP_WINDOW_SECONDS: "0" });
    });
    afterAll(() => server.close());

    for (const integration of covered) {
      const entries: IndexEntry[] = JSON.parse(
        fs.readFileSync(path.join(SHARED, integration.name, "index.json"), "utf8"),
      );
      describe(integration.name, () => {
        for (const entry of entries) {
          it(entry.fixture, async () => {
            const body = bodyFor(entry, fs.readFileSync(path.join(SHARED, integration.name, entry.fixture)));
            const contentType =
              entry.content_type ?? (entry.form_field ? "application/x-www-form-urlencoded" : "application/json");
            const before = await latestMessageId(server);
            const res = await postWebhook(server, integration.name, {
              body,
              contentType,
              headers: entry.headers,
              query: { stream: "general", ...entry.query },
            });
            const stored = await messagesSince(server, before, server.users.bot.id);
            expect({ status: res.status, code: res.body.code, msg: res.body.msg }).toEqual({
              status: 200,
              code: undefined,
              msg: "",
            });
            if (stored.length === 0) {
              // No message is only fine when the plugin deliberately ignores this delivery.
              const headers = Object.fromEntries(
                Object.entries({ "content-type": contentType, ...entry.headers }).map(([k, v]) => [k.toLowerCase(), v]),
              );
              const outcome = runPipeline(integration, { headers, query: entry.query ?? {}, body });
              expect(outcome.kind).toBe("ignored");
            }
          });
        }
      });
    }
  });

// In CI the checkout sits beside ../shared: replaying nothing there means the corpus moved or the
// lookup broke, so it fails instead of skipping (a skip would hide a suite that no longer runs).
const inCiWithShared = process.env.CI === "true" && fs.existsSync(path.resolve(ROOT, "..", "shared"));
if (covered.length === 0 && inCiWithShared)
  it("replays ../shared/fixtures (CI with ../shared present)", () => {
    throw new Error(`../shared exists but no integration has ${SHARED}/<name>/index.json: nothing was replayed`);
  });
else if (covered.length === 0)
  it.skip("replays ../shared/fixtures (not present beside this checkout)", () => undefined);
