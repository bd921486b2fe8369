// Typeform signs with a base64 (not hex) HMAC-SHA256 of the raw body: a bot with a secret accepts
// exactly that, and refuses the hex digest, a forged value and an unsigned delivery.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { loadIntegrationFolder } from "../../src/webhooks/loader";
import { runPipeline } from "../../src/webhooks/pipeline";
import { refusalOf } from "../support/apiErrors";

const PLUGIN_DIR = path.join(__dirname, "..", "..", "integrations", "typeform");
const plugin = loadIntegrationFolder(PLUGIN_DIR);
const body = fs.readFileSync(path.join(PLUGIN_DIR, "fixtures", "form_response.json"));
const SECRET = "garden-secret";
const digest = (encoding: "base64" | "hex") => crypto.createHmac("sha256", SECRET).update(body).digest(encoding);

const deliver = (signature?: string) =>
  runPipeline(plugin, {
    headers: { "content-type": "application/json", ...(signature ? { "typeform-signature": signature } : {}) },
    query: {},
    body,
    secret: SECRET,
  });

describe("Typeform-Signature", () => {
  it("accepts the base64 HMAC of the body", () => {
    const outcome = deliver(`sha256=${digest("base64")}`);
    expect(outcome.kind).toBe("messages");
    expect(outcome.kind === "messages" && outcome.deliveryId).toBe("01HQ7ZK3M9W2");
  });

  it("refuses the hex digest, a forged value and a missing header", () => {
    expect(refusalOf(() => deliver(`sha256=${digest("hex")}`))).toMatchObject({ code: "INVALID_SIGNATURE" });
    expect(refusalOf(() => deliver(`sha256=${digest("base64").toLowerCase()}`))).toMatchObject({
      code: "INVALID_SIGNATURE",
    });
    expect(refusalOf(() => deliver())).toMatchObject({
      code: "INVALID_SIGNATURE",
      message: "Missing the signature header 'Typeform-Signature'",
    });
  });
});
