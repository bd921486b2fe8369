// Amazon SNS deliveries in tests. The aws_sns plugin verifies every message with Amazon's
// certificate (manifest `verification`), so a fixture posted through the real app must carry a real
// signature: a test server trusts one generated key for HARNESS_SNS_CERT_URL, the certificate URL
// our aws_sns fixtures name (put in the server's certificate cache, so it is never fetched), and
// postWebhook signs aws_sns bodies with it. A fixture body posted some other way (the fuzz suites)
// is then refused 401 for its placeholder signature, without any request. Tests of the
// verification itself opt out (`snsSign: false`) and sign with their own certificate.
import crypto from "node:crypto";
import { snsStringToSign } from "../../src/services/webhooks/awsSns";

export const HARNESS_SNS_CERT_URL = "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0000.pem";

let keys: crypto.KeyPairKeyObjectResult | undefined;
/**
 * One RSA key pair per test file (Jest loads this module afresh for each), made on first use.
 * 1024 bits: a test key, made in a tenth of the time of a 2048-bit one (about 0.3 s of CPU, in
 * every file that loads the aws_sns plugin); the verification reads any RSA key the same way.
 */
export function harnessSnsKeys(): crypto.KeyPairKeyObjectResult {
  keys ??= crypto.generateKeyPairSync("rsa", { modulusLength: 1024 });
  return keys;
}

/** SNS's signature of a message (version 1: RSA-SHA1, 2: RSA-SHA256), base64. */
export function snsSignature(
  message: Record<string, unknown>,
  privateKey: crypto.KeyObject,
  version: "1" | "2",
): string {
  const signed = snsStringToSign(message);
  if ("problem" in signed) throw new Error(`cannot sign this SNS message: ${signed.problem}`);
  return crypto
    .sign(version === "1" ? "sha1" : "sha256", Buffer.from(signed.text, "utf8"), privateKey)
    .toString("base64");
}

/**
 * The body signed with the harness key, as SNS would send it; unchanged when it is not an SNS
 * message that can be signed (not JSON, an unknown Type, a signed field missing): the server then
 * refuses it as it would a real one.
 */
export function harnessSignedBody(body: string | Buffer): string | Buffer {
  let message: unknown;
  try {
    message = JSON.parse(body.toString());
  } catch {
    return body;
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) return body;
  const record = message as Record<string, unknown>;
  if ("problem" in snsStringToSign(record)) return body;
  const version = record.SignatureVersion === "2" ? "2" : "1";
  const signed = { ...record, SignatureVersion: version, SigningCertURL: HARNESS_SNS_CERT_URL };
  return JSON.stringify({ ...signed, Signature: snsSignature(signed, harnessSnsKeys().privateKey, version) });
}
