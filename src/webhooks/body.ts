// Webhook body → payload, as the manifest's contentType says. Senders are sloppy about
// Content-Type (JSON posted as form-encoded is common), so JSON is tried whenever it can be.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { ApiError, Errors } from "../errors";
import { JsonTooDeepError, parseJson as parseBoundedJson } from "../json";
import { decodeUtf8, parseUrlencoded } from "../formEncoding";
import { MAX_WEBHOOK_MULTIPART_PARTS } from "../limits";
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
const isMultipart = (contentType: string) => contentType.startsWith("multipart/form-data");
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

/**
 * A multipart/form-data body's text parts by name (file parts, those with a filename, are left
 * out: a webhook renders what its text says). Strict: no boundary, an unterminated body or more
 * than MAX_WEBHOOK_MULTIPART_PARTS parts is a 400.
 */
export function parseMultipart(raw: Buffer, contentType: string): Record<string, string> {
  const bad = (why: string) => new ApiError("BAD_REQUEST", `Malformed multipart body: ${why}`);
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw bad("the Content-Type has no boundary");
  const delimiter = Buffer.from(`--${boundary}`);
  const fields = Object.create(null) as Record<string, string>;
  let at = raw.indexOf(delimiter);
  if (at < 0) throw bad("no part starts with the boundary");
  for (let parts = 0; ; parts++) {
    at += delimiter.length;
    if (raw.subarray(at, at + 2).toString() === "--") return fields;
    if (parts >= MAX_WEBHOOK_MULTIPART_PARTS) throw bad(`more than ${MAX_WEBHOOK_MULTIPART_PARTS} parts`);
    const next = raw.indexOf(delimiter, at);
    if (next < 0) throw bad("the closing boundary is missing");
    // The part runs from after its line break to before the CRLF that precedes the next delimiter.
    const part = raw.subarray(at, next);
    // Lines end in CRLF (RFC 7578); a body saved as a text file has bare LF (Jotform's published
    // samples): the part's first line break says which.
    const eol = part.subarray(0, 2).toString() === "\r\n" ? "\r\n" : "\n";
    const headEnd = part.indexOf(eol + eol);
    if (headEnd < 0) throw bad("a part has no header section");
    const head = part.subarray(0, headEnd).toString("latin1");
    const disposition = /^content-disposition:[^\r\n]*$/im.exec(head)?.[0] ?? "";
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    const trailing = part.subarray(-eol.length).toString() === eol ? eol.length : 0;
    const body = part.subarray(headEnd + 2 * eol.length, part.length - trailing);
    if (name !== undefined && !/;\s*filename\*?=/i.test(disposition)) fields[name] = decodeUtf8(body);
    at = next;
  }
}

/** Trailing commas (`[1,]`, `{"a":1,}`) removed outside strings, for senders whose examples carry them. */
export function withoutTrailingCommas(text: string): string {
  const out: string[] = [];
  let inString = false;
  let pendingComma = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    out.push(c);
    if (inString) {
      if (c === "\\") out.push(text[++i] ?? "");
      else if (c === '"') inString = false;
    } else if (c === ",") pendingComma = out.length - 1;
    else if (c === "}" || c === "]") {
      if (pendingComma >= 0) out[pendingComma] = "";
      pendingComma = -1;
    } else if (c !== " " && c !== "\n" && c !== "\r" && c !== "\t") {
      pendingComma = -1;
      if (c === '"') inString = true;
    }
  }
  return out.join("");
}

/** Headers that carry credentials: never read into a payload (a template could show them). */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "x-api-key"]);

/** Payload fields read from request headers (manifest headerFields), where the body has none of its own. */
function withHeaderFields(manifest: Manifest, payload: unknown, headers: Record<string, string | undefined>): unknown {
  if (!manifest.headerFields || payload === null || typeof payload !== "object" || Array.isArray(payload))
    return payload;
  const out = payload as Record<string, unknown>;
  for (const [field, names] of Object.entries(manifest.headerFields)) {
    if (out[field] !== undefined && out[field] !== null) continue;
    const value = names
      .map((n) => n.toLowerCase())
      .filter((n) => !SECRET_HEADERS.has(n))
      .map((n) => headers[n])
      .find((v) => v !== undefined && v.trim() !== "");
    if (value !== undefined) out[field] = value.trim();
  }
  return out;
}

export function parseWebhookBody(
  manifest: Manifest,
  raw: Buffer,
  contentType: string,
  query: Record<string, string> = {},
  headers: Record<string, string | undefined> = {},
): unknown {
  return withHeaderFields(manifest, parseBody(manifest, raw, contentType, query), headers);
}

function parseBody(manifest: Manifest, raw: Buffer, contentType: string, query: Record<string, string>): unknown {
  const mode = manifest.contentType ?? "json";
  if (mode === "query") return queryPayload(query);
  const type = contentType.toLowerCase();
  const json = (text: string) => (manifest.lenientJson ? parseLenientJson(text) : parseJson(text));
  if (isMultipart(type) && (mode === "form" || mode === "form-json")) {
    const fields = parseMultipart(raw, contentType);
    const field = manifest.formField ?? "payload";
    if (Object.prototype.hasOwnProperty.call(fields, field)) return json(fields[field]);
    if (mode === "form") return fields;
    throw new ApiError("REQUEST_VARIABLE_MISSING", `Missing '${field}' argument`, { var_name: field });
  }
  const text = decodeUtf8(raw);
  if (mode === "json") {
    if (isForm(type) && !looksLikeJson(text)) {
      const payload = parseUrlencoded(text).payload;
      if (payload !== undefined) return json(payload);
    }
    return json(text);
  }
  // JSON labelled as a form (`curl -d '{…}'` does that) is still JSON: form bodies never start with a raw { or [.
  if (isJson(type) || looksLikeJson(text)) return json(text);
  if (mode === "xml") return parseXml(manifest, text);
  // Plain text (ntfy): the whole body is one field; metadata comes from headerFields.
  if (mode === "text") return { [manifest.textField ?? "body"]: text };
  const form = parseUrlencoded(text);
  const field = manifest.formField ?? "payload";
  const hasField = Object.prototype.hasOwnProperty.call(form, field);
  // A form plugin that declares formField also takes the JSON in that field (Slack-style `payload=`).
  if (mode === "form") return manifest.formField && hasField ? json(form[field]) : form;
  if (!hasField) throw new ApiError("REQUEST_VARIABLE_MISSING", `Missing '${field}' argument`, { var_name: field });
  return json(form[field]);
}

/** JSON, or (manifest lenientJson) JSON with trailing commas, which .NET-style receivers accept. */
function parseLenientJson(text: string): unknown {
  try {
    return parseJson(text);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "INVALID_JSON") throw err;
    return parseJson(withoutTrailingCommas(text));
  }
}
