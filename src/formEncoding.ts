// Decoding request bytes: strict UTF-8 and application/x-www-form-urlencoded. A leaf module shared
// by the HTTP body parser and the webhook pipeline (which must not import http/).
import { ApiError } from "./errors";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Bytes → text; invalid UTF-8 is a 400, never silently replaced. */
export function decodeUtf8(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError("BAD_REQUEST", "Request body is not valid UTF-8");
  }
}

/**
 * application/x-www-form-urlencoded → object; a malformed %-sequence or invalid UTF-8 is a 400. The
 * object has no prototype, so that every name is a parameter of its own: `__proto__=x` is kept (and
 * reported as ignored) rather than dropped, and `toString` is never found as given when it was not.
 */
export function parseUrlencoded(text: string, what = "Request body"): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (!text) return out;
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? "" : pair.slice(eq + 1);
    try {
      out[decodeURIComponent(rawKey.replace(/\+/g, " "))] = decodeURIComponent(rawValue.replace(/\+/g, " "));
    } catch {
      throw new ApiError("BAD_REQUEST", `${what} is not valid: bad percent-encoding or invalid UTF-8`);
    }
  }
  return out;
}
