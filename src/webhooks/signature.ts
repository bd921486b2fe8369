// Optional verification declared by a manifest: hex (or base64) HMAC of the raw body bytes (with
// the signing time, where the service signs one; or of a `signedText`: the URL posted to and the
// form fields, or payload fields), keyed with the bot's stored secret (or, for "token", the secret
// itself sent in a header), compared in constant time; or (ecdsa-p256-sha256) an ECDSA signature
// checked with the secret read as the service's public key. The secret never leaves this module.
import crypto from "node:crypto";
import { ApiError } from "../errors";
import type { SignatureHeaderParts, SignatureSpec, SignatureTimestampHeader, SignedTimestampSpec } from "./manifest";
import { decodeUtf8, parseUrlencoded } from "../formEncoding";
import { readPath } from "./paths";

export function expectedSignature(spec: SignatureSpec, secret: string, body: Buffer): string {
  // A shared-token scheme sends the secret itself, as set in the service, with nothing computed.
  if (spec.algorithm === "token") return (spec.prefix ?? "") + secret;
  if (spec.algorithm === ECDSA_P256_SHA256) throw new Error("An ECDSA signature is made with the sender's private key");
  return (
    (spec.prefix ?? "") +
    crypto
      .createHmac(spec.algorithm, secret)
      .update(body)
      .digest(spec.encoding ?? "hex")
  );
}

/** What a signed text may cover besides the raw body (manifest `signedText`). */
export interface SignatureContext {
  /** The URL the sender posted to, as it would have registered it (`{url}`). */
  url?: string;
  /** The parsed payload: a digest in the body (`field`) and the payload fields it signs. */
  payload?: unknown;
}

export const ECDSA_P256_SHA256 = "ecdsa-p256-sha256";

/** The placeholders a signed text reads from the request itself; any other `{…}` is a payload path (with `field`). */
export const REQUEST_PLACEHOLDERS = ["{timestamp}", "{body}", "{url}", "{formFields}"];

export function verifySignature(
  spec: SignatureSpec,
  secret: string,
  body: Buffer,
  received: string | undefined,
  receivedAtMs = Date.now(),
  /** The request's headers (lower-case names), for a signing time in a header of its own. */
  headers: Record<string, string | undefined> = {},
  context: SignatureContext = {},
): void {
  const where: Record<string, string> =
    spec.field !== undefined ? { field: spec.field } : { header: spec.header ?? "" };
  if (received === undefined || received.trim() === "") {
    if (spec.field !== undefined)
      throw new ApiError("INVALID_SIGNATURE", `Missing the signature field '${spec.field}'`, where);
    throw new ApiError("INVALID_SIGNATURE", `Missing the signature header '${spec.header}'`, where);
  }
  if (spec.headerParts && spec.algorithm !== "token" && spec.algorithm !== ECDSA_P256_SHA256) {
    verifyHeaderParts(spec, spec.algorithm, spec.headerParts, secret, body, received, receivedAtMs);
    return;
  }
  if (spec.timestampHeader && spec.algorithm !== "token") {
    const stamp = spec.timestampHeader;
    const signedAt = verifyTimestampHeader(spec, stamp, secret, body, received, headers);
    refuseStale(`'${stamp.header}'`, stamp.toleranceSeconds, signedAt, receivedAtMs, { header: stamp.header });
    return;
  }
  if (spec.signedText !== undefined || spec.algorithm === ECDSA_P256_SHA256) {
    const signed = signedPieces(spec.signedText ?? "{body}", { ...context, body }, spec.field !== undefined);
    if (!digestMatches(spec, secret, signed, received)) throw mismatch(spec);
    return;
  }
  const expected = Buffer.from(expectedSignature(spec, secret, body), "utf8");
  // Hex digests are compared case-insensitively; base64 is case-sensitive, so it is kept as sent.
  const trimmed = received.trim();
  const caseKept = spec.encoding === "base64" || spec.algorithm === "token";
  const given = Buffer.from(caseKept ? trimmed : trimmed.toLowerCase(), "utf8");
  // timingSafeEqual needs equal lengths; compare against itself to keep the timing uniform.
  const same =
    given.length === expected.length
      ? crypto.timingSafeEqual(given, expected)
      : !crypto.timingSafeEqual(expected, expected);
  if (!same && spec.algorithm === "token")
    throw new ApiError("INVALID_SIGNATURE", `The '${spec.header}' token does not match the bot's webhook secret`, {
      header: spec.header ?? "",
    });
  if (!same) throw mismatch(spec);
}

/** A digest that does not match, saying what it covers (never the URL: it may carry the bot's API key). */
function mismatch(spec: SignatureSpec): ApiError {
  if (spec.field !== undefined)
    return new ApiError(
      "INVALID_SIGNATURE",
      `The '${spec.field}' digest does not match the payload fields it signs (${spec.signedText})`,
      { field: spec.field },
    );
  const text = spec.signedText ?? spec.timestampHeader?.signedText ?? "{body}";
  const what = text.includes("{url}")
    ? "the URL posted to and the request body (the service signs the URL exactly as it was registered " +
      "with it: that must be the URL this server sees)"
    : "the request body";
  return new ApiError("INVALID_SIGNATURE", `The '${spec.header}' signature does not match ${what}`, {
    header: spec.header ?? "",
  });
}

type Signed = (string | Buffer)[];

/**
 * A signed text's pieces, in order: the text around the placeholders as written, `{body}` the raw
 * body, `{url}` the URL posted to, `{formFields}` the form body's fields sorted by name, each name
 * followed by its value (Mandrill's scheme), `{timestamp}` the signing time; with a digest in the
 * payload (`payloadPaths`), any other `{path}` is that payload field's text. The loader checked
 * which placeholders a manifest may use.
 */
function signedPieces(
  text: string,
  values: SignatureContext & { body: Buffer; timestamp?: string },
  payloadPaths: boolean,
): Signed {
  const out: Signed = [];
  for (const piece of text.split(/(\{[^{}]+\})/)) {
    if (piece === "") continue;
    else if (piece === "{body}") out.push(values.body);
    else if (piece === "{timestamp}") out.push(values.timestamp ?? "");
    else if (piece === "{url}") {
      // Only a delivery through the HTTP route knows its URL; anything else cannot prove this signature.
      if (values.url === undefined)
        throw new ApiError("INVALID_SIGNATURE", "The signature covers the URL posted to, which is not known here");
      out.push(values.url);
    } else if (piece === "{formFields}") out.push(sortedFormFields(values.body));
    else if (payloadPaths && /^\{[^{}]+\}$/.test(piece)) out.push(payloadText(values.payload, piece.slice(1, -1)));
    else out.push(piece);
  }
  return out;
}

/** A form body's fields sorted by name, each name followed by its value (a repeated name: its last value). */
function sortedFormFields(body: Buffer): string {
  const fields = parseUrlencoded(decodeUtf8(body));
  return Object.keys(fields)
    .sort()
    .map((name) => name + fields[name])
    .join("");
}

/** A signed payload field as text (numbers as written in JSON); a missing or non-scalar one cannot be signed. */
function payloadText(payload: unknown, field: string): string {
  const value = readPath(payload, field);
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new ApiError("INVALID_SIGNATURE", `The signed field '${field}' is missing from the payload`, { field });
}

/** The digest of the signed pieces against the one received: an HMAC with the secret, or an ECDSA signature checked with it as the public key. */
function digestMatches(spec: SignatureSpec, secret: string, signed: Signed, received: string): boolean {
  const trimmed = received.trim();
  if (spec.algorithm === ECDSA_P256_SHA256) return ecdsaVerifies(publicKeyOf(secret), signed, trimmed);
  if (spec.algorithm === "token") return false; // the loader keeps "token" away from signed texts
  const hmac = crypto.createHmac(spec.algorithm, secret);
  for (const piece of signed) hmac.update(piece);
  const expected = Buffer.from((spec.prefix ?? "") + hmac.digest(spec.encoding ?? "hex"), "utf8");
  return sameText(spec.encoding === "base64" ? trimmed : trimmed.toLowerCase(), expected);
}

/**
 * The bot's secret read as the service's public key: base64 SPKI DER (PEM armour on one line is
 * tolerated), on the P-256 curve. Anything else is refused without quoting it.
 */
function publicKeyOf(secret: string): crypto.KeyObject {
  const refuse = () =>
    new ApiError(
      "INVALID_SIGNATURE",
      "The bot's webhook secret is not an ECDSA P-256 public key in base64 (SPKI DER): " +
        "set the service's verification key as the bot's webhook secret",
      { reason: "secret is not a P-256 public key" },
    );
  const text = secret.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw refuse();
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey({ key: Buffer.from(text, "base64"), format: "der", type: "spki" });
  } catch {
    throw refuse();
  }
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") throw refuse();
  return key;
}

/** A base64 DER ECDSA signature over the pieces, hashed with SHA-256; anything malformed simply does not verify. */
function ecdsaVerifies(key: crypto.KeyObject, signed: Signed, received: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(received)) return false;
  const data = Buffer.concat(signed.map((piece) => (typeof piece === "string" ? Buffer.from(piece, "utf8") : piece)));
  try {
    return crypto.verify("sha256", data, { key, dsaEncoding: "der" }, Buffer.from(received, "base64"));
  } catch {
    return false;
  }
}

const sameText = (given: string, expected: Buffer): boolean => {
  const bytes = Buffer.from(given, "utf8");
  // timingSafeEqual needs equal lengths; compare against itself to keep the timing uniform.
  return bytes.length === expected.length
    ? crypto.timingSafeEqual(bytes, expected)
    : !crypto.timingSafeEqual(expected, expected);
};

/**
 * A header of `key=value` parts (Paddle: `ts=1767225600;h1=<hex>`): the HMAC covers the signed time,
 * the join text and the raw body; any of the signature parts may match (several during a secret
 * rotation), and a signed time outside the service's tolerance is a replay.
 */
function verifyHeaderParts(
  spec: SignatureSpec,
  algorithm: "sha256" | "sha1" | "sha512",
  parts: SignatureHeaderParts,
  secret: string,
  body: Buffer,
  received: string,
  receivedAtMs: number,
): void {
  const pairs = received.split(parts.separator).map((part) => {
    const at = part.indexOf("=");
    return at < 0 ? ["", ""] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const signedAt = pairs.find(([key]) => key === parts.timestamp)?.[1] ?? "";
  const given = pairs.filter(([key]) => key === parts.signature).map(([, value]) => value);
  if (!/^\d{1,12}$/.test(signedAt) || given.length === 0) {
    throw new ApiError(
      "INVALID_SIGNATURE",
      `The '${spec.header}' header must hold ${parts.timestamp}=<unix seconds> and ${parts.signature}=<digest>`,
      { header: spec.header },
    );
  }
  const digest = crypto
    .createHmac(algorithm, secret)
    .update(signedAt + parts.join)
    .update(body)
    .digest(spec.encoding ?? "hex");
  const expected = Buffer.from(digest, "utf8");
  const caseKept = spec.encoding === "base64";
  if (!given.some((value) => sameText(caseKept ? value : value.toLowerCase(), expected))) {
    throw new ApiError("INVALID_SIGNATURE", `The '${spec.header}' signature does not match the request body`, {
      header: spec.header,
    });
  }
  refuseStale(`'${parts.timestamp}' in '${spec.header}'`, parts.toleranceSeconds, signedAt, receivedAtMs, {
    field: parts.timestamp,
  });
}

/** A signing time (Unix seconds, already checked to be digits) outside the tolerance: a replay. */
function refuseStale(
  where: string,
  toleranceSeconds: number,
  signedAt: string,
  receivedAtMs: number,
  extra: Record<string, string>,
): void {
  const offsetSeconds = Math.round((receivedAtMs - Number(signedAt) * 1000) / 1000);
  if (Math.abs(offsetSeconds) <= toleranceSeconds) return;
  const when = offsetSeconds > 0 ? `${offsetSeconds} seconds old` : `dated ${-offsetSeconds} seconds ahead`;
  throw new ApiError(
    "STALE_SIGNATURE",
    `The signed delivery is ${when} (${where}): signed deliveries are accepted ` +
      `within ${toleranceSeconds} seconds of being signed, to refuse replays`,
    { ...extra, limit: toleranceSeconds },
  );
}

/**
 * The signing time in a header of its own, signed with the body (Slack: `X-Slack-Request-Timestamp`,
 * the HMAC of `v0:<time>:<raw body>` in `X-Slack-Signature: v0=<hex>`). Throws unless the time is
 * Unix seconds and the digest matches, and answers the time: its age is checked once the signature holds.
 */
function verifyTimestampHeader(
  spec: SignatureSpec,
  stamp: SignatureTimestampHeader,
  secret: string,
  body: Buffer,
  received: string,
  headers: Record<string, string | undefined>,
): string {
  const time = headers[stamp.header.toLowerCase()]?.trim() ?? "";
  if (!/^\d{1,12}$/.test(time)) {
    throw new ApiError(
      "INVALID_SIGNATURE",
      `The '${stamp.header}' header must hold the signing time in Unix seconds (it is part of the signed text)`,
      { header: stamp.header },
    );
  }
  // The loader made sure each placeholder is there once; the text around them is signed as written.
  if (!digestMatches(spec, secret, signedPieces(stamp.signedText, { body, timestamp: time }, false), received))
    throw mismatch(spec);
  return time;
}

/**
 * A signed delivery is a proof only of what was sent, not of when it arrives: anyone who saw it can
 * post it again, with any delivery id. Where the service signs the time it sent the delivery, one
 * older (or newer: clock skew) than its documented tolerance is refused.
 */
export function verifySignedTimestamp(
  spec: SignedTimestampSpec,
  displayName: string,
  payload: unknown,
  receivedAtMs: number,
): void {
  const value = readPath(payload, spec.field);
  const extra = { field: spec.field, limit: spec.toleranceSeconds };
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new ApiError("STALE_SIGNATURE", `The signed ${displayName} delivery has no timestamp '${spec.field}'`, extra);
  }
  const sentAtMs = spec.unit === "seconds" ? value * 1000 : value;
  const offsetSeconds = Math.round((receivedAtMs - sentAtMs) / 1000);
  if (Math.abs(receivedAtMs - sentAtMs) <= spec.toleranceSeconds * 1000) return;
  const when = offsetSeconds > 0 ? `${offsetSeconds} seconds old` : `dated ${-offsetSeconds} seconds ahead`;
  throw new ApiError(
    "STALE_SIGNATURE",
    `The signed ${displayName} delivery is ${when} ('${spec.field}'): signed deliveries are accepted within ` +
      `${spec.toleranceSeconds} seconds of being sent (${displayName}'s documented tolerance), to refuse replays`,
    extra,
  );
}
