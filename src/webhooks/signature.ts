// Optional verification declared by a manifest: hex (or base64) HMAC of the raw body bytes (with
// the signing time, where the service signs one), keyed with the bot's stored secret (or, for
// "token", the secret itself sent in a header), compared in constant time. The secret never leaves
// this module.
import crypto from "node:crypto";
import { ApiError } from "../errors";
import type { SignatureHeaderParts, SignatureSpec, SignatureTimestampHeader, SignedTimestampSpec } from "./manifest";
import { readPath } from "./paths";

export function expectedSignature(spec: SignatureSpec, secret: string, body: Buffer): string {
  // A shared-token scheme sends the secret itself, as set in the service, with nothing computed.
  if (spec.algorithm === "token") return (spec.prefix ?? "") + secret;
  return (
    (spec.prefix ?? "") +
    crypto
      .createHmac(spec.algorithm, secret)
      .update(body)
      .digest(spec.encoding ?? "hex")
  );
}

export function verifySignature(
  spec: SignatureSpec,
  secret: string,
  body: Buffer,
  received: string | undefined,
  receivedAtMs = Date.now(),
  /** The request's headers (lower-case names), for a signing time in a header of its own. */
  headers: Record<string, string | undefined> = {},
): void {
  if (received === undefined || received.trim() === "") {
    throw new ApiError("INVALID_SIGNATURE", `Missing the signature header '${spec.header}'`, { header: spec.header });
  }
  if (spec.headerParts && spec.algorithm !== "token") {
    verifyHeaderParts(spec, spec.algorithm, spec.headerParts, secret, body, received, receivedAtMs);
    return;
  }
  if (spec.timestampHeader && spec.algorithm !== "token") {
    const stamp = spec.timestampHeader;
    const signedAt = verifyTimestampHeader(spec, spec.algorithm, stamp, secret, body, received, headers);
    refuseStale(`'${stamp.header}'`, stamp.toleranceSeconds, signedAt, receivedAtMs, { header: stamp.header });
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
      header: spec.header,
    });
  if (!same)
    throw new ApiError("INVALID_SIGNATURE", `The '${spec.header}' signature does not match the request body`, {
      header: spec.header,
    });
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
  algorithm: "sha256" | "sha1" | "sha512",
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
  const hmac = crypto.createHmac(algorithm, secret);
  // The loader made sure each placeholder is there once; the text around them is signed as written.
  for (const piece of stamp.signedText.split(/(\{timestamp\}|\{body\})/)) {
    if (piece === "{timestamp}") hmac.update(time);
    else if (piece === "{body}") hmac.update(body);
    else if (piece !== "") hmac.update(piece, "utf8");
  }
  const expected = Buffer.from((spec.prefix ?? "") + hmac.digest(spec.encoding ?? "hex"), "utf8");
  const trimmed = received.trim();
  if (!sameText(spec.encoding === "base64" ? trimmed : trimmed.toLowerCase(), expected)) {
    throw new ApiError("INVALID_SIGNATURE", `The '${spec.header}' signature does not match the request body`, {
      header: spec.header,
    });
  }
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
