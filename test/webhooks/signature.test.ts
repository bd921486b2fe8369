// Manifest-declared HMAC verification (pure functions, no server): the expected header value,
// and which received values are accepted or refused with which error; signed timestamps' tolerance.
import crypto from "node:crypto";
import { expectedSignature, verifySignature, verifySignedTimestamp } from "../../src/webhooks/signature";
import type { SignatureSpec, SignedTimestampSpec } from "../../src/webhooks/manifest";
import { apiErrorOf } from "../support/apiErrors";

const BODY = Buffer.from('{"action":"opened"}');
const SECRET = "s3cret";
const hmac = (algorithm: string) => crypto.createHmac(algorithm, SECRET).update(BODY).digest("hex");

const SHA256: SignatureSpec = { header: "X-Hub-Signature-256", algorithm: "sha256", prefix: "sha256=" };
const SHA1: SignatureSpec = { header: "X-Signature", algorithm: "sha1" };

function outcome(spec: SignatureSpec, received: string | undefined): string {
  const err = apiErrorOf(() => verifySignature(spec, SECRET, BODY, received));
  return err ? `${err.status} ${err.code}: ${err.message} ${JSON.stringify(err.extra)}` : "accepted";
}

describe("expectedSignature", () => {
  it("is the prefix followed by the lower-case hex HMAC of the body", () => {
    expect(expectedSignature(SHA256, SECRET, BODY)).toBe(`sha256=${hmac("sha256")}`);
  });

  it("is the bare hex digest when the manifest declares no prefix", () => {
    expect(expectedSignature(SHA1, SECRET, BODY)).toBe(hmac("sha1"));
  });
});

describe("verifySignature", () => {
  it("accepts the exact expected value", () => {
    expect(outcome(SHA256, `sha256=${hmac("sha256")}`)).toBe("accepted");
    expect(outcome(SHA1, hmac("sha1"))).toBe("accepted");
  });

  it("accepts surrounding whitespace and an upper-case digest", () => {
    expect(outcome(SHA1, `  ${hmac("sha1").toUpperCase()}\t`)).toBe("accepted");
  });

  it("refuses a missing or blank header, naming the header", () => {
    const missing = '401 INVALID_SIGNATURE: Missing the signature header \'X-Signature\' {"header":"X-Signature"}';
    expect(outcome(SHA1, undefined)).toBe(missing);
    expect(outcome(SHA1, "")).toBe(missing);
    expect(outcome(SHA1, "   ")).toBe(missing);
  });

  it("refuses a digest of the same length that differs", () => {
    const wrong = hmac("sha1").replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect(outcome(SHA1, wrong)).toBe(
      '401 INVALID_SIGNATURE: The \'X-Signature\' signature does not match the request body {"header":"X-Signature"}',
    );
  });

  it("refuses a value of another length (a truncated digest, a missing prefix)", () => {
    const mismatch =
      '401 INVALID_SIGNATURE: The \'X-Hub-Signature-256\' signature does not match the request body {"header":"X-Hub-Signature-256"}';
    expect(outcome(SHA256, hmac("sha256"))).toBe(mismatch);
    expect(outcome(SHA256, `sha256=${hmac("sha256").slice(0, -1)}`)).toBe(mismatch);
  });

  it("refuses a digest made with another secret", () => {
    const other = crypto.createHmac("sha1", "other").update(BODY).digest("hex");
    expect(outcome(SHA1, other)).toBe(
      '401 INVALID_SIGNATURE: The \'X-Signature\' signature does not match the request body {"header":"X-Signature"}',
    );
  });
});

describe("base64 digests (Typeform)", () => {
  const BASE64: SignatureSpec = {
    header: "Typeform-Signature",
    algorithm: "sha256",
    prefix: "sha256=",
    encoding: "base64",
  };
  const digest = crypto.createHmac("sha256", SECRET).update(BODY).digest("base64");

  it("is the prefix followed by the base64 HMAC of the body", () => {
    expect(expectedSignature(BASE64, SECRET, BODY)).toBe(`sha256=${digest}`);
  });

  it("accepts the exact value and refuses it with its case changed (base64 is case-sensitive)", () => {
    expect(outcome(BASE64, `sha256=${digest}`)).toBe("accepted");
    expect(outcome(BASE64, `sha256=${digest.toLowerCase()}`)).toBe(
      '401 INVALID_SIGNATURE: The \'Typeform-Signature\' signature does not match the request body {"header":"Typeform-Signature"}',
    );
  });

  it("refuses the hex digest of the same body", () => {
    expect(outcome(BASE64, `sha256=${hmac("sha256")}`)).toMatch(/^401 INVALID_SIGNATURE/);
  });
});

describe("verifySignedTimestamp", () => {
  // An explicit test clock: the time the delivery is taken to have arrived.
  const TEST_CLOCK_MS = Date.UTC(2026, 0, 1, 12, 0, 0);
  const MS: SignedTimestampSpec = { field: "webhookTimestamp", unit: "milliseconds", toleranceSeconds: 60 };
  const SECONDS: SignedTimestampSpec = { field: "meta.sent", unit: "seconds", toleranceSeconds: 300 };
  const check = (spec: SignedTimestampSpec, payload: unknown) => {
    const err = apiErrorOf(() => verifySignedTimestamp(spec, "Svc", payload, TEST_CLOCK_MS));
    return err ? `${err.status} ${err.code}: ${err.message} ${JSON.stringify(err.extra)}` : "accepted";
  };

  it("accepts a timestamp within the tolerance either side of the clock", () => {
    expect(check(MS, { webhookTimestamp: TEST_CLOCK_MS })).toBe("accepted");
    expect(check(MS, { webhookTimestamp: TEST_CLOCK_MS - 60_000 })).toBe("accepted");
    expect(check(MS, { webhookTimestamp: TEST_CLOCK_MS + 60_000 })).toBe("accepted");
    expect(check(SECONDS, { meta: { sent: TEST_CLOCK_MS / 1000 - 299 } })).toBe("accepted");
  });

  it("refuses one past it, naming the field, the age and the tolerance", () => {
    expect(check(MS, { webhookTimestamp: TEST_CLOCK_MS - 61_000 })).toBe(
      "401 STALE_SIGNATURE: The signed Svc delivery is 61 seconds old ('webhookTimestamp'): signed deliveries are " +
        "accepted within 60 seconds of being sent (Svc's documented tolerance), to refuse replays " +
        '{"field":"webhookTimestamp","limit":60}',
    );
    expect(check(SECONDS, { meta: { sent: TEST_CLOCK_MS / 1000 + 400 } })).toMatch(
      /^401 STALE_SIGNATURE: The signed Svc delivery is dated 400 seconds ahead \('meta.sent'\)/,
    );
  });

  it("refuses a missing or non-numeric timestamp", () => {
    const missing = `401 STALE_SIGNATURE: The signed Svc delivery has no timestamp 'webhookTimestamp' {"field":"webhookTimestamp","limit":60}`;
    expect(check(MS, {})).toBe(missing);
    expect(check(MS, { webhookTimestamp: "1741942800000" })).toBe(missing);
    expect(check(MS, { webhookTimestamp: null })).toBe(missing);
  });
});

describe("verifySignature with header parts (Paddle's ts=…;h1=…)", () => {
  const PARTS: SignatureSpec = {
    header: "Paddle-Signature",
    algorithm: "sha256",
    headerParts: { separator: ";", timestamp: "ts", signature: "h1", join: ":", toleranceSeconds: 5 },
  };
  const SIGNED_AT = 1767225600;
  const digest = (ts: number | string, secret = SECRET) =>
    crypto.createHmac("sha256", secret).update(`${ts}:`).update(BODY).digest("hex");
  const check = (received: string | undefined, nowSeconds = SIGNED_AT + 2) => {
    const err = apiErrorOf(() => verifySignature(PARTS, SECRET, BODY, received, nowSeconds * 1000));
    return err ? `${err.status} ${err.code}: ${err.message}` : "accepted";
  };

  it("accepts the HMAC of '<ts>:<body>', also among several h1 parts (secret rotation)", () => {
    expect(check(`ts=${SIGNED_AT};h1=${digest(SIGNED_AT)}`)).toBe("accepted");
    expect(check(`ts=${SIGNED_AT};h1=${digest(SIGNED_AT, "old")};h1=${digest(SIGNED_AT).toUpperCase()}`)).toBe(
      "accepted",
    );
  });

  it("refuses another secret, a changed time, and a header without both parts", () => {
    const mismatch = "401 INVALID_SIGNATURE: The 'Paddle-Signature' signature does not match the request body";
    expect(check(`ts=${SIGNED_AT};h1=${digest(SIGNED_AT, "other")}`)).toBe(mismatch);
    expect(check(`ts=${SIGNED_AT + 1};h1=${digest(SIGNED_AT)}`)).toBe(mismatch);
    const malformed =
      "401 INVALID_SIGNATURE: The 'Paddle-Signature' header must hold ts=<unix seconds> and h1=<digest>";
    expect(check(`h1=${digest(SIGNED_AT)}`)).toBe(malformed);
    expect(check(`ts=${SIGNED_AT}`)).toBe(malformed);
    expect(check(digest(SIGNED_AT))).toBe(malformed);
  });

  it("refuses a correctly signed delivery outside the tolerance as a replay", () => {
    const header = `ts=${SIGNED_AT};h1=${digest(SIGNED_AT)}`;
    expect(check(header, SIGNED_AT + 5)).toBe("accepted");
    expect(check(header, SIGNED_AT + 6)).toMatch(/^401 STALE_SIGNATURE: The signed delivery is 6 seconds old/);
    expect(check(header, SIGNED_AT - 60)).toMatch(/dated 60 seconds ahead/);
  });
});

describe("verifySignature with the signing time in its own header (Slack's v0 scheme)", () => {
  const STAMPED: SignatureSpec = {
    header: "X-Slack-Signature",
    algorithm: "sha256",
    prefix: "v0=",
    timestampHeader: {
      header: "X-Slack-Request-Timestamp",
      signedText: "v0:{timestamp}:{body}",
      toleranceSeconds: 300,
    },
  };
  const SIGNED_AT = 1767225600;
  const sign = (ts: number | string, secret = SECRET, body = BODY) =>
    `v0=${crypto.createHmac("sha256", secret).update(`v0:${ts}:`).update(body).digest("hex")}`;
  const check = (received: string | undefined, stamp: string | undefined, nowSeconds = SIGNED_AT + 2) => {
    const headers = { "x-slack-request-timestamp": stamp };
    const err = apiErrorOf(() => verifySignature(STAMPED, SECRET, BODY, received, nowSeconds * 1000, headers));
    return err ? `${err.status} ${err.code}: ${err.message} ${JSON.stringify(err.extra)}` : "accepted";
  };
  const mismatch =
    '401 INVALID_SIGNATURE: The \'X-Slack-Signature\' signature does not match the request body {"header":"X-Slack-Signature"}';

  it("accepts v0= and the HMAC of 'v0:<time>:<body>', also in upper case", () => {
    expect(check(sign(SIGNED_AT), `${SIGNED_AT}`)).toBe("accepted");
    expect(check(` ${sign(SIGNED_AT).toUpperCase().replace("V0=", "v0=")} `, ` ${SIGNED_AT} `)).toBe("accepted");
  });

  it("refuses another secret, another time, another body, the bare digest, and the body's HMAC alone", () => {
    expect(check(sign(SIGNED_AT, "other"), `${SIGNED_AT}`)).toBe(mismatch);
    expect(check(sign(SIGNED_AT), `${SIGNED_AT + 1}`)).toBe(mismatch);
    expect(check(sign(SIGNED_AT, SECRET, Buffer.from('{"action":"closed"}')), `${SIGNED_AT}`)).toBe(mismatch);
    expect(check(sign(SIGNED_AT).slice(3), `${SIGNED_AT}`)).toBe(mismatch);
    expect(check(`v0=${hmac("sha256")}`, `${SIGNED_AT}`)).toBe(mismatch);
  });

  it("refuses a missing or non-numeric time header as invalid, naming it", () => {
    const noTime =
      "401 INVALID_SIGNATURE: The 'X-Slack-Request-Timestamp' header must hold the signing time in Unix seconds " +
      '(it is part of the signed text) {"header":"X-Slack-Request-Timestamp"}';
    expect(check(sign(SIGNED_AT), undefined)).toBe(noTime);
    expect(check(sign("soon"), "soon")).toBe(noTime);
    expect(check(sign("-5"), "-5")).toBe(noTime);
    expect(check(undefined, `${SIGNED_AT}`)).toMatch(
      /^401 INVALID_SIGNATURE: Missing the signature header 'X-Slack-Signature'/,
    );
  });

  it("refuses a correctly signed delivery more than 5 minutes old or ahead as stale", () => {
    const header = sign(SIGNED_AT);
    expect(check(header, `${SIGNED_AT}`, SIGNED_AT + 300)).toBe("accepted");
    expect(check(header, `${SIGNED_AT}`, SIGNED_AT - 300)).toBe("accepted");
    expect(check(header, `${SIGNED_AT}`, SIGNED_AT + 301)).toBe(
      "401 STALE_SIGNATURE: The signed delivery is 301 seconds old ('X-Slack-Request-Timestamp'): signed deliveries " +
        'are accepted within 300 seconds of being signed, to refuse replays {"header":"X-Slack-Request-Timestamp","limit":300}',
    );
    expect(check(header, `${SIGNED_AT}`, SIGNED_AT - 3600)).toMatch(
      /^401 STALE_SIGNATURE: .* dated 3600 seconds ahead/,
    );
    // A stale time with a wrong digest is a wrong signature: the age of an unproven time means nothing.
    expect(check(sign(SIGNED_AT, "other"), `${SIGNED_AT}`, SIGNED_AT + 3600)).toBe(mismatch);
  });
});
