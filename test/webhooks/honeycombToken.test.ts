// Honeycomb sends the webhook's shared secret itself in X-Honeycomb-Webhook-Token ("algorithm":
// "token"): a bot with a secret accepts exactly that token and refuses another, a case change and
// a delivery without the header, without ever echoing the secret.
import fs from "node:fs";
import path from "node:path";
import { loadIntegrationFolder } from "../../src/webhooks/loader";
import { runPipeline } from "../../src/webhooks/pipeline";
import { refusalOf } from "../support/apiErrors";

const PLUGIN_DIR = path.join(__dirname, "..", "..", "integrations", "honeycomb");
const plugin = loadIntegrationFolder(PLUGIN_DIR);
const body = fs.readFileSync(path.join(PLUGIN_DIR, "fixtures", "triggered.json"));
const SECRET = "Hive-Token-7f3a";

const deliver = (token?: string) =>
  runPipeline(plugin, {
    headers: {
      "content-type": "application/json",
      ...(token !== undefined ? { "x-honeycomb-webhook-token": token } : {}),
    },
    query: {},
    body,
    secret: SECRET,
  });

describe("X-Honeycomb-Webhook-Token", () => {
  it("accepts the bot's secret sent as the token", () => {
    expect(deliver(SECRET).kind).toBe("messages");
  });

  it("refuses another token, a case change and a missing header, naming the header but not the secret", () => {
    for (const token of ["Hive-Token-7f3b", SECRET.toLowerCase(), `${SECRET}x`]) {
      const refusal = refusalOf(() => deliver(token));
      expect(refusal).toMatchObject({
        code: "INVALID_SIGNATURE",
        message: "The 'X-Honeycomb-Webhook-Token' token does not match the bot's webhook secret",
      });
      expect(JSON.stringify(refusal)).not.toContain(SECRET);
    }
    expect(refusalOf(() => deliver())).toMatchObject({
      code: "INVALID_SIGNATURE",
      message: "Missing the signature header 'X-Honeycomb-Webhook-Token'",
    });
  });

  it("needs no token when the bot has no secret", () => {
    const outcome = runPipeline(plugin, { headers: { "content-type": "application/json" }, query: {}, body });
    expect(outcome.kind).toBe("messages");
  });
});
