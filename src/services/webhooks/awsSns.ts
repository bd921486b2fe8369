// Amazon SNS's own message signatures and subscription confirmations (manifest
// `"verification": "aws-sns"`). SNS signs every message with a key of its own (no shared secret):
// RSA-SHA1 (SignatureVersion 1) or RSA-SHA256 (2) over `key\nvalue\n` pairs of fixed keys, with the
// certificate at the message's SigningCertURL. Outbound requests go only to https
// sns.<region>.amazonaws.com(.cn) hosts, follow no redirect, stop after a time limit and read a
// bounded answer; a URL on any other host is refused without a request. Certificates are cached
// by URL (bounded). A certificate that cannot be fetched refuses the delivery with a 503 (SNS
// retries it later) rather than post what nobody verified: a SigningCertURL on a region host that
// does not resolve would otherwise be a way around the check. Runs outside the pure pipeline:
// after it has read the delivery, before anything is posted.
import crypto from "node:crypto";
import { ApiError } from "../../errors";
import { parseWebhookBody } from "../../webhooks/body";
import type { PipelineResult, WebhookRequest } from "../../webhooks/pipeline";
import type { Integration } from "../../webhooks/registry";
import {
  SNS_CERT_CACHE_MAX_ENTRIES,
  SNS_CERT_MAX_BYTES,
  SNS_CERT_TIMEOUT_MS,
  SNS_CONFIRM_MAX_RESPONSE_BYTES,
  SNS_CONFIRM_TIMEOUT_MS,
} from "../../limits";

type Json = Record<string, unknown>;

/** The keys each message type signs, in the order SNS writes them (Subject only when present). */
const SIGNED_KEYS: Record<string, readonly string[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};
const OPTIONAL_KEYS = new Set(["Subject"]);

/** sns.<region>.amazonaws.com, or .amazonaws.com.cn for the China regions (us-gov-west-1, cn-north-1…). */
const SNS_HOST = /^sns\.[a-z]{2}(?:-[a-z]+)+-\d{1,2}\.amazonaws\.com(?:\.cn)?$/;

/**
 * The text SNS signed, or why there is none. Every signed key must be text: a message without one
 * could move another field's text into its neighbour and keep the same string to sign.
 */
export function snsStringToSign(message: Json): { text: string } | { problem: string } {
  const type = message.Type;
  const keys = typeof type === "string" ? SIGNED_KEYS[type] : undefined;
  if (!keys) return { problem: `its Type is not one Amazon SNS signs (${Object.keys(SIGNED_KEYS).join(", ")})` };
  let text = "";
  for (const key of keys) {
    const value = message[key];
    if (OPTIONAL_KEYS.has(key) && (value === undefined || value === null)) continue;
    if (typeof value !== "string") return { problem: `its signed field '${key}' is missing or not text` };
    text += `${key}\n${value}\n`;
  }
  return { text };
}

/** The URL when it is https on an SNS host (default port, no user info), else undefined. */
export function snsHostUrl(raw: unknown): URL | undefined {
  if (typeof raw !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const plain = url.protocol === "https:" && url.port === "" && url.username === "" && url.password === "";
  return plain && SNS_HOST.test(url.hostname) ? url : undefined;
}

const refused = (reason: string) =>
  new ApiError("INVALID_SIGNATURE", `Amazon SNS signature refused: ${reason}`, { verification: "aws-sns" });

/** The certificate could not be had for now: SNS retries a 5xx, by when it may be reachable. */
const unverifiable = (host: string, why: string) =>
  new ApiError(
    "SERVICE_UNAVAILABLE",
    `The Amazon SNS signing certificate could not be fetched from ${host} (${why}): the signature cannot be ` +
      "verified, so the delivery is refused for now (Amazon SNS retries it)",
    { verification: "aws-sns" },
    { headers: { "Retry-After": "60" } },
  );

/** An answer's body, read up to `limit` bytes; undefined when it is longer (the rest is not read). */
async function readCapped(res: Response, limit: number): Promise<Buffer | undefined> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(Buffer.from(value));
  }
}

/**
 * One GET to an SNS host: no redirect followed, the whole exchange within `timeoutMs`, a 200's body
 * read up to `maxBytes` (`body` undefined when longer). Throws an Error saying what went wrong.
 */
async function getFromSns(url: URL, timeoutMs: number, maxBytes: number): Promise<{ status: number; body?: Buffer }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const res = await fetch(url, { redirect: "manual", signal: controller.signal });
    if (res.status !== 200) {
      await res.body?.cancel();
      return { status: res.status };
    }
    return { status: 200, body: await readCapped(res, maxBytes) };
  } catch {
    throw new Error(timedOut ? `no answer within ${timeoutMs / 1000} s` : "connection failed");
  } finally {
    clearTimeout(timer);
  }
}

const answered = (status: number) =>
  status >= 300 && status < 400 ? "a redirect, which is not followed" : String(status);

interface CachedKey {
  key: crypto.KeyObject;
  validFrom: number;
  validTo: number;
}

export type SnsConfirmation = { confirmation: "confirmed" } | { confirmation: "failed"; confirmationError: string };

/** One per server process: the certificate cache and the two kinds of request SNS needs. */
export class SnsVerifier {
  private readonly keys = new Map<string, CachedKey>();
  /** Fetches in flight, so a burst of deliveries after a start fetches a certificate once. */
  private readonly pending = new Map<string, Promise<CachedKey>>();

  /** Caches a certificate's key for its URL (the oldest entry goes when the cache is full). */
  remember(url: string, key: crypto.KeyObject, validity?: { validFrom: number; validTo: number }): void {
    this.keys.delete(url);
    while (this.keys.size >= SNS_CERT_CACHE_MAX_ENTRIES) this.keys.delete(this.keys.keys().next().value as string);
    this.keys.set(url, { key, validFrom: validity?.validFrom ?? 0, validTo: validity?.validTo ?? Infinity });
  }

  /** How many certificates are cached (at most SNS_CERT_CACHE_MAX_ENTRIES). */
  get cachedCertificates(): number {
    return this.keys.size;
  }

  /** Throws 401 INVALID_SIGNATURE (no request made unless the certificate URL is allowed) or 503. */
  async verify(message: Json, now = Date.now()): Promise<void> {
    const version = message.SignatureVersion;
    if (version !== "1" && version !== "2") throw refused("its SignatureVersion is not 1 (RSA-SHA1) or 2 (RSA-SHA256)");
    const signature = typeof message.Signature === "string" ? message.Signature.trim() : "";
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) throw refused("its Signature is missing or not base64");
    const signed = snsStringToSign(message);
    if ("problem" in signed) throw refused(signed.problem);
    const certUrl = snsHostUrl(message.SigningCertURL);
    if (!certUrl || !certUrl.pathname.endsWith(".pem"))
      throw refused(
        "its SigningCertURL is not an https .pem URL on an sns.<region>.amazonaws.com host (nothing was fetched)",
      );
    const cached = await this.certificate(certUrl);
    if (now < cached.validFrom || now > cached.validTo) throw refused("the signing certificate is not valid now");
    const algorithm = version === "1" ? "sha1" : "sha256";
    let ok = false;
    try {
      ok = crypto.verify(algorithm, Buffer.from(signed.text, "utf8"), cached.key, Buffer.from(signature, "base64"));
    } catch {
      // A key this scheme cannot use (not RSA): no signature of it verifies.
    }
    if (!ok) throw refused(`the Signature (version ${version}) does not match the message`);
  }

  private certificate(url: URL): Promise<CachedKey> {
    const known = this.keys.get(url.href);
    if (known) return Promise.resolve(known);
    let fetching = this.pending.get(url.href);
    if (!fetching) {
      fetching = this.fetchCertificate(url).finally(() => this.pending.delete(url.href));
      this.pending.set(url.href, fetching);
    }
    return fetching;
  }

  private async fetchCertificate(url: URL): Promise<CachedKey> {
    let answer: { status: number; body?: Buffer };
    try {
      answer = await getFromSns(url, SNS_CERT_TIMEOUT_MS, SNS_CERT_MAX_BYTES);
    } catch (err) {
      throw unverifiable(url.hostname, (err as Error).message);
    }
    // Throttled or failing for now: worth a retry. Any other non-200 (a redirect, a 404) is final.
    if (answer.status === 429 || answer.status >= 500) throw unverifiable(url.hostname, `it answered ${answer.status}`);
    if (answer.status !== 200)
      throw refused(`the SigningCertURL answered ${answered(answer.status)}, not a certificate`);
    if (!answer.body)
      throw refused(`the SigningCertURL answered more than ${SNS_CERT_MAX_BYTES} bytes, not a certificate`);
    let cert: crypto.X509Certificate;
    try {
      cert = new crypto.X509Certificate(answer.body);
    } catch {
      throw refused("the SigningCertURL did not answer a PEM X.509 certificate");
    }
    const entry = { key: cert.publicKey, validFrom: Date.parse(cert.validFrom), validTo: Date.parse(cert.validTo) };
    this.remember(url.href, entry.key, entry);
    return entry;
  }

  /**
   * GETs a (verified) SubscriptionConfirmation's SubscribeURL, only when it is an https
   * ConfirmSubscription URL on an SNS host. Never throws: a failure is said in the message.
   */
  async confirm(subscribeUrl: unknown): Promise<SnsConfirmation> {
    const url = snsHostUrl(subscribeUrl);
    if (!url || url.searchParams.get("Action") !== "ConfirmSubscription")
      return {
        confirmation: "failed",
        confirmationError:
          "its SubscribeURL is not an https ConfirmSubscription URL on an Amazon SNS host (sns.REGION.amazonaws.com), so it was not opened",
      };
    try {
      // The answer (an XML ConfirmSubscriptionResult) says nothing its status does not.
      const { status } = await getFromSns(url, SNS_CONFIRM_TIMEOUT_MS, SNS_CONFIRM_MAX_RESPONSE_BYTES);
      if (status === 200) return { confirmation: "confirmed" };
      return { confirmation: "failed", confirmationError: `Amazon SNS answered ${answered(status)}` };
    } catch (err) {
      return { confirmation: "failed", confirmationError: (err as Error).message };
    }
  }
}

/** `auto_confirm=true` (also `1`, `yes`, `on`): the bot owner opted in to confirming by itself. */
export const autoConfirmWanted = (query: Record<string, string>): boolean =>
  ["true", "1", "yes", "on"].includes((query.auto_confirm ?? "").trim().toLowerCase());

/**
 * The ingest step's hook: a delivery of a plugin with `"verification": "aws-sns"` that the pipeline
 * would post is verified first (a refusal is thrown); a verified SubscriptionConfirmation is then
 * confirmed when the URL opts in, and rendered again saying how that went (`verification.*` in
 * templates). Errors, filtered and unsupported deliveries post nothing and pass unchanged. A replay
 * is verified as the delivery was (its certificate cached, or fetched from the same host) but never
 * confirms again.
 */
export async function verifyDelivery(
  sns: SnsVerifier,
  d: {
    integration: Integration;
    request: WebhookRequest;
    replay?: boolean;
    result: PipelineResult;
    render: (request: WebhookRequest) => Promise<PipelineResult>;
  },
): Promise<PipelineResult> {
  const { integration, request, result } = d;
  if (integration.manifest.verification !== "aws-sns") return result;
  if (!("outcome" in result) || result.outcome.kind !== "messages") return result;
  const payload = parseWebhookBody(
    integration.manifest,
    request.body,
    request.headers["content-type"] ?? "",
    request.query,
    request.headers,
  ) as Json; // the pipeline has read it as an object already
  await sns.verify(payload);
  if (d.replay || payload.Type !== "SubscriptionConfirmation" || !autoConfirmWanted(request.query)) return result;
  return d.render({ ...request, verification: await sns.confirm(payload.SubscribeURL) });
}
