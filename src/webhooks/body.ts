// Webhook body → payload, as the manifest's contentType says. Senders are sloppy about
// Content-Type (JSON posted as form-encoded is common), so JSON is tried whenever it can be.
import { ApiError, Errors } from "../errors";
import { decodeUtf8, parseUrlencoded } from "../http/bodyParser";
import type { Manifest } from "./manifest";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw Errors.malformedJson();
  }
}

const isForm = (contentType: string) => contentType.startsWith("application/x-www-form-urlencoded");
const isJson = (contentType: string) => /^application\/([\w.+-]*\+)?json/.test(contentType);

export function parseWebhookBody(manifest: Manifest, raw: Buffer, contentType: string): unknown {
  const type = contentType.toLowerCase();
  const text = decodeUtf8(raw);
  const mode = manifest.contentType ?? "json";
  if (mode === "json") {
    if (isForm(type) && !/^\s*[[{]/.test(text)) {
      const payload = parseUrlencoded(text).payload;
      if (payload !== undefined) return parseJson(payload);
    }
    return parseJson(text);
  }
  // JSON labelled as a form (`curl -d '{…}'` does that) is still JSON: form bodies never start with a raw { or [.
  if (isJson(type) || /^\s*[[{]/.test(text)) return parseJson(text);
  const form = parseUrlencoded(text);
  if (mode === "form") return form;
  if (form.payload === undefined) throw new ApiError("REQUEST_VARIABLE_MISSING", "Missing 'payload' argument", { var_name: "payload" });
  return parseJson(form.payload);
}
