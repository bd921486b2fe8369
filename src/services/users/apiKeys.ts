// API keys: 32 random alphanumeric characters, shown once, stored only as a SHA-256 hash
// (the key carries 190 bits of entropy, so a fast hash is enough and keeps lookups indexed).
import crypto from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const API_KEY_PATTERN = /^[A-Za-z0-9]{32}$/;

export function generateApiKey(): string {
  let key = "";
  while (key.length < 32) {
    for (const byte of crypto.randomBytes(48)) {
      if (byte < 248 && key.length < 32) key += ALPHABET[byte % 62]; // 248 = 4*62: no modulo bias
    }
  }
  return key;
}

export function hashApiKey(key: string): string {
  return crypto.createHash("sha256").update(key).digest("hex");
}
