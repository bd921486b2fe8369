// Password hashing (scrypt, memory-hard), the strength rule, and sealing a user's API key under a key
// derived from their password. Passwords are never logged nor put in error messages.
//
// One scrypt run gives 64 bytes: the first 32 are the stored verifier, the last 32 the sealing key,
// which is never stored. So with the password the server can open the user's sealed API key
// (`fetch_api_key`), and without it the database holds nothing that authenticates.
import crypto from "node:crypto";
import { promisify } from "node:util";

/** Shortest password accepted (the strength rule, with the checks in checkPasswordStrength). */
export const PASSWORD_MIN_LENGTH = 10;
/** Longest password accepted, in characters (as the reference's `password_max_length` default). */
export const PASSWORD_MAX_LENGTH = 100;

/** Current scrypt cost: N = 2^15, r = 8 → 32 MiB and roughly 50–100 ms per hash on one core. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const DERIVED_BYTES = 64;
const VERIFIER_BYTES = 32;

type ScryptParams = { N: number; r: number; p: number };

// The async scrypt runs on libuv's thread pool: hashing never blocks the event loop.
const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // maxmem must exceed 128·N·r (the default 32 MiB is exactly the current cost).
  return scrypt(password.normalize("NFC"), salt, DERIVED_BYTES, {
    ...params,
    maxmem: 256 * params.N * params.r,
  });
}

/** `scrypt$N$r$p$salt$verifier` (base64url): the parameters travel with the hash so they can change. */
function encode(params: ScryptParams, salt: Buffer, verifier: Buffer): string {
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), verifier.toString("base64url")].join("$");
}

function decode(stored: string): { params: ScryptParams; salt: Buffer; verifier: Buffer } | undefined {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16) return undefined;
  return {
    params: { N, r, p },
    salt: Buffer.from(parts[4], "base64url"),
    verifier: Buffer.from(parts[5], "base64url"),
  };
}

/** A new hash of `password` with a fresh random salt, and the sealing key that goes with it. */
export async function hashPasswordWithKey(password: string): Promise<{ hash: string; sealingKey: Buffer }> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const derived = await derive(password, salt, SCRYPT_PARAMS);
  return {
    hash: encode(SCRYPT_PARAMS, salt, derived.subarray(0, VERIFIER_BYTES)),
    sealingKey: derived.subarray(VERIFIER_BYTES),
  };
}

export async function hashPassword(password: string): Promise<string> {
  return (await hashPasswordWithKey(password)).hash;
}

/** The sealing key when `password` matches `stored` (compared in constant time), else undefined. */
export async function verifyPasswordWithKey(password: string, stored: string): Promise<Buffer | undefined> {
  const decoded = decode(stored);
  if (!decoded) return undefined;
  // A stored value that scrypt refuses (damaged, hand-edited) verifies nothing: never a 500.
  const derived = await derive(password, decoded.salt, decoded.params).catch(() => undefined);
  if (!derived) return undefined;
  const verifier = derived.subarray(0, VERIFIER_BYTES);
  if (decoded.verifier.length !== verifier.length || !crypto.timingSafeEqual(decoded.verifier, verifier))
    return undefined;
  return derived.subarray(VERIFIER_BYTES);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await verifyPasswordWithKey(password, stored)) !== undefined;
}

// A hash of a random password: checking against it when a user has no password takes as long as a real check.
let dummyHash: Promise<string> | undefined;
/** Spends one verification's time, so "no such user" and "no password" answer as slowly as a wrong password. */
export async function verifyNothing(password: string): Promise<void> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  await verifyPasswordWithKey(password, await dummyHash);
}

/** AES-256-GCM: `v1$iv$ciphertext$tag` (base64url). */
export function sealApiKey(sealingKey: Buffer, apiKey: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", sealingKey, iv);
  const sealed = Buffer.concat([cipher.update(apiKey, "utf8"), cipher.final()]);
  return ["v1", iv, sealed, cipher.getAuthTag()]
    .map((x) => (typeof x === "string" ? x : x.toString("base64url")))
    .join("$");
}

/** The API key sealed in `sealed`, or undefined if it does not open with this key. */
export function openApiKey(sealingKey: Buffer, sealed: string): string | undefined {
  const parts = sealed.split("$");
  if (parts.length !== 4 || parts[0] !== "v1") return undefined;
  try {
    const [iv, data, tag] = parts.slice(1).map((p) => Buffer.from(p, "base64url"));
    const decipher = crypto.createDecipheriv("aes-256-gcm", sealingKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

// Passwords that meet the length rule and are still among the first any guesser tries.
const COMMON_PASSWORDS = new Set([
  "1234567890",
  "12345678910",
  "0123456789",
  "0987654321",
  "1qaz2wsx3edc",
  "password12",
  "password123",
  "password1234",
  "passw0rd123",
  "qwertyuiop",
  "qwerty1234",
  "qwerty12345",
  "qwerty123456",
  "1q2w3e4r5t",
  "asdfghjkl1",
  "iloveyou12",
  "letmein123",
  "welcome123",
  "abcdefghij",
  "abc1234567",
  "administrator",
  "changeme123",
  "football123",
  "switchboard",
  "switchboard1",
  "zulipzulip",
]);

/**
 * The strength rule: PASSWORD_MIN_LENGTH to PASSWORD_MAX_LENGTH characters, not one of the most common
 * passwords, not a single repeated character, and not the user's email address or name (nor their
 * parts). Returns what is wrong, or undefined when the password is acceptable.
 */
export function checkPasswordStrength(
  password: string,
  user: { email?: string; fullName?: string } = {},
): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    return `it must be at least ${PASSWORD_MIN_LENGTH} characters (PASSWORD_MIN_LENGTH)`;
  if (length > PASSWORD_MAX_LENGTH) return `it must be at most ${PASSWORD_MAX_LENGTH} characters (PASSWORD_MAX_LENGTH)`;
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return "it is one of the most common passwords";
  if (new Set(lower).size <= 2) return "it repeats one or two characters";
  const personal = [user.email, user.email?.split("@")[0], user.fullName, user.fullName?.replace(/\s+/g, "")]
    .filter((s): s is string => Boolean(s && s.length >= 3))
    .map((s) => s.toLowerCase());
  if (personal.some((s) => lower === s || (s.length >= PASSWORD_MIN_LENGTH - 2 && lower.includes(s))))
    return "it must not be your email address or name";
  return undefined;
}
