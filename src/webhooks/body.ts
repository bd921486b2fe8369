// Webhook body → payload, as the manifest's contentType says. Senders are sloppy about
// Content-Type (JSON posted as form-encoded is common), so JSON is tried whenever it can be.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { ApiError, Errors } from "../errors";
import { JsonTooDeepError, parseJson as parseBoundedJson } from "../json";
import { decodeUtf8, parseUrlencoded } from "../formEncoding";
import { RESERVED_PARAMS, type Manifest } from "./manifest";

/** XML bodies larger or deeper than this are refused before parsing (no service sends more). */
export const MAX_XML_BYTES = 1024 * 1024;
export const MAX_XML_DEPTH = 64;

/** JSON with bounded nesting (a too-deep body is a 400 naming the limit); malformed → INVALID_JSON. */
function parseJson(text: string): unknown {
  try {
    return parseBoundedJson(text);
  } catch (err) {
    // Answered here rather than by the HTTP error handler: the pipeline runs on a render thread,
    // and only an ApiError keeps its meaning across.
    if (err instanceof JsonTooDeepError) throw Errors.jsonTooDeep(err);
    throw Errors.malformedJson();
  }
}

const isForm = (contentType: string) => contentType.startsWith("application/x-www-form-urlencoded");
const isJson = (contentType: string) => /^application\/([\w.+-]*\+)?json/.test(contentType);
const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  // Values stay strings: `<id type="integer">0042</id>` must not lose its zeros.
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: false,
  trimValues: true,
});

/** Deepest element nesting, counted on the raw text (conservative: tags inside CDATA count too). */
function xmlDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (const m of text.matchAll(/<(\/?)[A-Za-z_][^<>]*?(\/?)>/g)) {
    if (m[1]) depth--;
    else if (!m[2]) max = Math.max(max, ++depth);
  }
  return max;
}

export function parseXml(manifest: Manifest, text: string): unknown {
  const invalid = (why: string) =>
    new ApiError("INVALID_PAYLOAD", `Invalid ${manifest.displayName} payload: ${why}`, { pointers: ["/"] });
  if (Buffer.byteLength(text) > MAX_XML_BYTES) throw invalid(`XML bodies are limited to ${MAX_XML_BYTES} bytes`);
  // Document type declarations (and so entity expansion) are never needed by a webhook.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw invalid("XML document type declarations are not accepted");
  if (xmlDepth(text) > MAX_XML_DEPTH) throw invalid(`XML nested deeper than ${MAX_XML_DEPTH} elements`);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw invalid(`not valid XML (line ${valid.err.line}: ${valid.err.msg})`);
  try {
    return xmlParser.parse(text);
  } catch (err) {
    // What the validator lets through and the parser still refuses: element names such as
    // `__proto__`, `constructor` or `prototype`, which would reach the payload object's prototype.
    const why = err instanceof Error ? err.message.replace(/^\[SECURITY\]\s*/, "") : String(err);
    throw invalid(`not accepted as XML (${why})`);
  }
}

/** The URL query minus the framework's own parameters (contentType "query", e.g. Transifex). */
export function queryPayload(query: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([k]) => !RESERVED_PARAMS.includes(k)));
}

export function parseWebhookBody(
  manifest: Manifest,
  raw: Buffer,
  contentType: string,
  query: Record<string, string> = {},
): unknown {
  const mode = manifest.contentType ?? "json";
  if (mode === "query") return queryPayload(query);
  const type = contentType.toLowerCase();
  const text = decodeUtf8(raw);
  if (mode === "json") {
    if (isForm(type) && !looksLikeJson(text)) {
      const payload = parseUrlencoded(text).payload;
      if (payload !== undefined) return parseJson(payload);
    }
    return parseJson(text);
  }
  // JSON labelled as a form (`curl -d '{…}'` does that) is still JSON: form bodies never start with a raw { or [.
  if (isJson(type) || looksLikeJson(text)) return parseJson(text);
  if (mode === "xml") return parseXml(manifest, text);
  const form = parseUrlencoded(text);
  if (mode === "form") return form;
  const field = manifest.formField ?? "payload";
  if (!Object.prototype.hasOwnProperty.call(form, field))
    throw new ApiError("REQUEST_VARIABLE_MISSING", `Missing '${field}' argument`, { var_name: field });
  return parseJson(form[field]);
}
