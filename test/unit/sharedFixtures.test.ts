// Replays the shared reference corpus (../shared/fixtures/<integration>/, with headers, query and
// content type from each index.json) against every plugin we have, through the pure pipeline and
// what the delivery does to its messages (src/services/webhooks/dryRun.ts; no HTTP, no database):
// each file must give a message or a deliberate ignore — never an error. Skipped when absent,
// except in CI (CI=true) where ../shared exists: there, replaying nothing is a failure.
import fs from "node:fs";
import path from "node:path";
import { dryRunDelivery } from "../../src/services/webhooks/dryRun";
import { loadIntegrations } from "../../src/webhooks/loader";

const ROOT = path.resolve(__dirname, "../..");
const SHARED = path.resolve(ROOT, "..", "shared", "fixtures");
const integrations = loadIntegrations(path.join(ROOT, "integrations"), ROOT, { checks: false });

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

// Payloads we refuse on purpose where the reference posts nothing, because the sender's own product
// refuses them too (Slack answers 400 `no_text` to a message with nothing to show): a 4xx, never a 500.
const REFUSED: Record<string, string> = {
  "slack_incoming/null_text.json": "INVALID_PAYLOAD",
  "slack_incoming/attachment_pieces_all_null.json": "INVALID_PAYLOAD",
  // Not a Confluence event at all (no webhookEvent): the reference answers 400 too.
  "confluence_cloud/example_anomalous_payload.json": "INVALID_PAYLOAD",
  // The reference itself answers 400 for a Freshstatus delivery with neither title nor event type.
  "freshstatus/freshstatus_invalid_payload_with_missing_data.json": "INVALID_PAYLOAD",
  // AppOptics: a body with neither `violations` nor `clear`, and truncated JSON: the reference answers 400 for both.
  "appoptics/bad_msg_type.json": "INVALID_PAYLOAD",
  "appoptics/bad_request.json": "INVALID_PAYLOAD",
  // Slack: the reference answers 400 "Missing 'text' argument" / "Missing 'user_name' argument" and
  // "channels_map_to_topics parameter other than 0 or 1"; ours name the field, or the option and its
  // values (a URL option outside its manifest `values` is the framework's BAD_REQUEST).
  "slack/message_info_missing_text.txt": "INVALID_PAYLOAD",
  "slack/message_info_missing_user_name.txt": "INVALID_PAYLOAD",
  "slack/message_with_normal_text--invalid_channels_map_to_topics.json": "BAD_REQUEST",
};

const covered = fs.existsSync(SHARED)
  ? integrations.filter((i) => fs.existsSync(path.join(SHARED, i.name, "index.json")))
  : [];
// Without the corpus (e.g. a clone elsewhere) there is nothing to replay: one visible skip below.
if (covered.length > 0)
  describe("shared reference fixtures", () => {
    for (const integration of covered) {
      const entries: IndexEntry[] = JSON.parse(
        fs.readFileSync(path.join(SHARED, integration.name, "index.json"), "utf8"),
      );
      describe(integration.name, () => {
        for (const entry of entries) {
          it(entry.fixture, () => {
            const body = bodyFor(entry, fs.readFileSync(path.join(SHARED, integration.name, entry.fixture)));
            const contentType =
              entry.content_type ?? (entry.form_field ? "application/x-www-form-urlencoded" : "application/json");
            const headers = Object.fromEntries(
              Object.entries({ "content-type": contentType, ...entry.headers }).map(([k, v]) => [k.toLowerCase(), v]),
            );
            // A message, or no message because the plugin deliberately ignores this delivery.
            const result = dryRunDelivery(integration, { headers, query: { stream: "general", ...entry.query }, body });
            const refused = REFUSED[`${integration.name}/${entry.fixture}`];
            if (refused) return expect(result.error).toMatchObject({ status: 400, code: refused });
            expect(result.error).toBeUndefined();
            expect(result.ignored === true || (result.messages ?? [result]).every((m) => m.content)).toBe(true);
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
