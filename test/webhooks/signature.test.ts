// Manifest-declared HMAC verification (pure functions, no server): the expected header value,
// and which received values are accepted or refused with which error; signed timestamps' tolerance.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
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

describe("verifySignature over the URL posted to and the sorted form fields (Mandrill's scheme)", () => {
  const SPEC: SignatureSpec = {
    header: "X-Mandrill-Signature",
    algorithm: "sha1",
    encoding: "base64",
    signedText: "{url}{formFields}",
  };
  const URL = "https://chat.example.org/api/v1/external/mandrill?api_key=k3y&stream=email";
  // Two fields, out of order, with a + and a %-escape: the signed text has them decoded and sorted.
  const FORM = Buffer.from("mandrill_events=%5B%7B%22event%22%3A%22send%22%7D%5D&b_note=hello+there%21");
  const sign = (text: string, key = SECRET) => crypto.createHmac("sha1", key).update(text).digest("base64");
  const GOOD = sign(`${URL}b_notehello there!mandrill_events[{"event":"send"}]`);
  // url null: a delivery whose URL is not known (not through the HTTP route).
  const check = (received: string | undefined, url: string | null = URL, body = FORM) => {
    const err = apiErrorOf(() =>
      verifySignature(SPEC, SECRET, body, received, Date.now(), {}, { url: url ?? undefined }),
    );
    return err ? `${err.status} ${err.code}: ${err.message} ${JSON.stringify(err.extra)}` : "accepted";
  };
  const mismatch =
    "401 INVALID_SIGNATURE: The 'X-Mandrill-Signature' signature does not match the URL posted to and the request " +
    "body (the service signs the URL exactly as it was registered with it: that must be the URL this server sees) " +
    '{"header":"X-Mandrill-Signature"}';

  it("accepts the base64 HMAC-SHA1 of the URL followed by each field's name and value, sorted by name", () => {
    expect(check(GOOD)).toBe("accepted");
    expect(check(` ${GOOD} `)).toBe("accepted");
  });

  it("refuses another key, another URL (a proxy's, another query order), a changed field, and the fields unsorted", () => {
    expect(check(sign(`${URL}b_notehello there!mandrill_events[{"event":"send"}]`, "other"))).toBe(mismatch);
    expect(check(GOOD, "http://10.0.0.5:9991/api/v1/external/mandrill?api_key=k3y&stream=email")).toBe(mismatch);
    expect(check(GOOD, "https://chat.example.org/api/v1/external/mandrill?stream=email&api_key=k3y")).toBe(mismatch);
    expect(check(GOOD, URL, Buffer.from(FORM.toString().replace("send", "open")))).toBe(mismatch);
    expect(check(sign(`${URL}mandrill_events[{"event":"send"}]b_notehello there!`))).toBe(mismatch);
    // Base64 is case-sensitive: the digest is compared as sent.
    expect(check(GOOD.toLowerCase())).toBe(mismatch);
    // The message never quotes the URL: it carries the bot's API key.
    expect(check(GOOD, "https://x.example/?api_key=k3y")).not.toContain("k3y");
  });

  it("refuses a missing header, and cannot verify without knowing the URL", () => {
    expect(check(undefined)).toMatch(/^401 INVALID_SIGNATURE: Missing the signature header 'X-Mandrill-Signature'/);
    expect(check(GOOD, null)).toBe(
      "401 INVALID_SIGNATURE: The signature covers the URL posted to, which is not known here {}",
    );
  });

  it("answers a body that is not a well-formed form with a 400", () => {
    expect(check(GOOD, URL, Buffer.from("mandrill_events=%E0%A4%A"))).toMatch(/^400 BAD_REQUEST/);
  });
});

describe("verifySignature with ECDSA P-256 (SendGrid's signed Event Webhook)", () => {
  const SPEC: SignatureSpec = {
    header: "X-Twilio-Email-Event-Webhook-Signature",
    algorithm: "ecdsa-p256-sha256",
    timestampHeader: {
      header: "X-Twilio-Email-Event-Webhook-Timestamp",
      signedText: "{timestamp}{body}",
      toleranceSeconds: 86400,
    },
  };
  const pair = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const other = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const publicKey = (key: crypto.KeyObject) => key.export({ format: "der", type: "spki" }).toString("base64");
  const PUBLIC = publicKey(pair.publicKey);
  const SIGNED_AT = 1767225600;
  const EVENTS = Buffer.from('[{"email":"ada@example.org","event":"delivered","sg_event_id":"ev-1"}]\r\n');
  const sign = (ts: number, body = EVENTS, key = pair.privateKey) =>
    crypto.sign("sha256", Buffer.concat([Buffer.from(String(ts)), body]), key).toString("base64");
  const check = (
    received: string | undefined,
    stamp: string | undefined = String(SIGNED_AT),
    secret = PUBLIC,
    nowSeconds = SIGNED_AT + 30,
    body = EVENTS,
  ) => {
    const headers = { "x-twilio-email-event-webhook-timestamp": stamp };
    const err = apiErrorOf(() => verifySignature(SPEC, secret, body, received, nowSeconds * 1000, headers));
    return err ? `${err.status} ${err.code}: ${err.message} ${JSON.stringify(err.extra)}` : "accepted";
  };
  const mismatch =
    "401 INVALID_SIGNATURE: The 'X-Twilio-Email-Event-Webhook-Signature' signature does not match the request body " +
    '{"header":"X-Twilio-Email-Event-Webhook-Signature"}';

  it("accepts a DER signature of '<timestamp><raw body>' checked with the secret as the public key", () => {
    expect(check(sign(SIGNED_AT))).toBe("accepted");
    // The key pasted with its PEM armour on one line is the same key.
    expect(check(sign(SIGNED_AT), undefined, `-----BEGIN PUBLIC KEY-----${PUBLIC}-----END PUBLIC KEY-----`)).toBe(
      "accepted",
    );
  });

  it("refuses another key pair, another time, a changed body, a mangled signature", () => {
    expect(check(sign(SIGNED_AT, EVENTS, other.privateKey))).toBe(mismatch);
    expect(check(sign(SIGNED_AT), undefined, publicKey(other.publicKey))).toBe(mismatch);
    expect(check(sign(SIGNED_AT), String(SIGNED_AT + 1))).toBe(mismatch);
    expect(check(sign(SIGNED_AT), undefined, PUBLIC, SIGNED_AT, Buffer.from(EVENTS.toString().trim()))).toBe(mismatch);
    expect(check("not base64!")).toBe(mismatch);
    expect(check(Buffer.from("garbage that is no DER").toString("base64"))).toBe(mismatch);
  });

  it("refuses a secret that is no P-256 public key, without quoting it", () => {
    const rsa = crypto.generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey;
    const p384 = crypto.generateKeyPairSync("ec", { namedCurve: "secp384r1" }).publicKey;
    const refused =
      "401 INVALID_SIGNATURE: The bot's webhook secret is not an ECDSA P-256 public key in base64 (SPKI DER): " +
      'set the service\'s verification key as the bot\'s webhook secret {"reason":"secret is not a P-256 public key"}';
    for (const secret of ["an-hmac-secret!", "c2hvcnQ=", publicKey(rsa), publicKey(p384)]) {
      const answer = check(sign(SIGNED_AT), undefined, secret);
      expect(answer).toBe(refused);
      expect(answer).not.toContain(secret);
    }
  });

  it("refuses a missing signature or time, and a signed time more than 24 hours away as stale", () => {
    expect(check(undefined)).toMatch(/^401 INVALID_SIGNATURE: Missing the signature header/);
    expect(check(sign(SIGNED_AT), "")).toMatch(
      /^401 INVALID_SIGNATURE: The 'X-Twilio-Email-Event-Webhook-Timestamp' header must hold the signing time/,
    );
    expect(check(sign(SIGNED_AT), undefined, PUBLIC, SIGNED_AT + 86400)).toBe("accepted");
    expect(check(sign(SIGNED_AT), undefined, PUBLIC, SIGNED_AT + 86401)).toMatch(
      /^401 STALE_SIGNATURE: The signed delivery is 86401 seconds old/,
    );
  });

  // SendGrid's own test vector (its SDK's), kept in the shared corpus: skipped where it is absent.
  const shared = path.join(__dirname, "..", "..", "..", "shared", "fixtures", "sendgrid");
  (fs.existsSync(path.join(shared, "index.json")) ? it : it.skip)("verifies SendGrid's published signed sample", () => {
    const cases = JSON.parse(fs.readFileSync(path.join(shared, "index.json"), "utf8")) as {
      fixture: string;
      headers: Record<string, string>;
      note?: string;
    }[];
    const signed = cases.find((c) => c.headers["X-Twilio-Email-Event-Webhook-Signature"])!;
    const key = /public key (\S+) verifies/.exec(signed.note ?? "")![1];
    const body = fs.readFileSync(path.join(shared, signed.fixture));
    const ts = Number(signed.headers["X-Twilio-Email-Event-Webhook-Timestamp"]);
    const signature = signed.headers["X-Twilio-Email-Event-Webhook-Signature"];
    expect(check(signature, String(ts), key, ts + 5, body)).toBe("accepted");
    expect(check(signature, String(ts), key, ts + 5, Buffer.concat([body, Buffer.from(" ")]))).toBe(mismatch);
  });
});

describe("verifySignature with the digest in the payload (HelloSign's event_hash)", () => {
  const SPEC: SignatureSpec = {
    field: "event.event_hash",
    algorithm: "sha256",
    signedText: "{event.event_time}{event.event_type}",
  };
  const API_KEY = "c0ffee11c0ffee22c0ffee33c0ffee44c0ffee55c0ffee66c0ffee77c0ffee88";
  const payload = (time: unknown = "1767225600", type: unknown = "signature_request_signed") => ({
    event: { event_time: time, event_type: type },
  });
  const hash = (text: string, key = API_KEY) => crypto.createHmac("sha256", key).update(text).digest("hex");
  const GOOD = hash("1767225600signature_request_signed");
  const check = (received: string | undefined, p: unknown = payload(), key = API_KEY) => {
    const err = apiErrorOf(() => verifySignature(SPEC, key, Buffer.from("ignored"), received, 0, {}, { payload: p }));
    return err ? `${err.status} ${err.code}: ${err.message} ${JSON.stringify(err.extra)}` : "accepted";
  };
  const mismatch =
    "401 INVALID_SIGNATURE: The 'event.event_hash' digest does not match the payload fields it signs " +
    '({event.event_time}{event.event_type}) {"field":"event.event_hash"}';

  it("accepts the hex HMAC-SHA256 of the event time followed by the event type, in either case", () => {
    expect(check(GOOD)).toBe("accepted");
    expect(check(GOOD.toUpperCase())).toBe("accepted");
    // A time written as a JSON number is signed as its digits.
    expect(check(GOOD, payload(1767225600))).toBe("accepted");
  });

  it("refuses another API key, another time or type, and a missing digest or signed field", () => {
    expect(check(hash("1767225600signature_request_signed", "other"))).toBe(mismatch);
    expect(check(GOOD, payload("1767225601"))).toBe(mismatch);
    expect(check(GOOD, payload(undefined, "signature_request_declined"))).toBe(mismatch);
    expect(check(undefined)).toBe(
      '401 INVALID_SIGNATURE: Missing the signature field \'event.event_hash\' {"field":"event.event_hash"}',
    );
    expect(check(GOOD, payload(null))).toBe(
      "401 INVALID_SIGNATURE: The signed field 'event.event_time' is missing from the payload " +
        '{"field":"event.event_time"}',
    );
    expect(check(GOOD, payload(undefined, { nested: true }))).toMatch(/'event.event_type' is missing/);
  });
});
