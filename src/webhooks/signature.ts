// Optional HMAC verification declared by a manifest: hex digest of the raw body bytes, keyed
// with the bot's stored secret, compared in constant time. The secret never leaves this module.
import crypto from "node:crypto";
import { ApiError } from "../errors";
import type { SignatureSpec } from "./manifest";

export function expectedSignature(spec: SignatureSpec, secret: string, body: Buffer): string {
  return (spec.prefix ?? "") + crypto.createHmac(spec.algorithm, secret).update(body).digest("hex");
}

export function verifySignature(spec: SignatureSpec, secret: string, body: Buffer, received: string | undefined): void {
  if (received === undefined || received.trim() === "") {
    throw new ApiError("INVALID_SIGNATURE", `Missing the signature header '${spec.header}'`, { header: spec.header });
  }
  const expected = Buffer.from(expectedSignature(spec, secret, body), "utf8");
  const given = Buffer.from(received.trim().toLowerCase(), "utf8");
  // timingSafeEqual needs equal lengths; compare against itself to keep the timing uniform.
  const same =
    given.length === expected.length
      ? crypto.timingSafeEqual(given, expected)
      : !crypto.timingSafeEqual(expected, expected);
  if (!same)
    throw new ApiError("INVALID_SIGNATURE", `The '${spec.header}' signature does not match the request body`, {
      header: spec.header,
    });
}
