// HookPress posts plain form fields; values may carry stray whitespace (a trailing newline
// after the last field), which would end up inside links and topics. Trim what we show.
import { nonEmptyText, type TransformContext } from "../../src/webhooks/plugin";

const KEYS = ["post_title", "post_url", "post_type", "display_name", "user_login", "user_email", "topic"] as const;

export default function transform(payload: Record<string, unknown>, _context: TransformContext) {
  const wp: Partial<Record<(typeof KEYS)[number], string>> = {};
  for (const key of KEYS) {
    const value = nonEmptyText(payload[key]);
    if (value !== undefined) wp[key] = value;
  }
  return { wp };
}
