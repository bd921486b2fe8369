// Airbrake error titles: many messages already start with the error class ("Timeout::Error:
// execution expired"), so the class is only prefixed when it is not there. The location drops
// Airbrake's [PROJECT_ROOT]/ placeholder, and falls back to the top backtrace line.
import type { TransformContext } from "../../src/webhooks/plugin";

interface AirbrakeError {
  error_message?: string;
  error_class?: string | null;
  file?: string | null;
  line_number?: number | null;
  last_notice?: { backtrace?: string[] } | null;
}

export function errorTitle(error: AirbrakeError): string {
  const message = error.error_message || "(no message)";
  const cls = error.error_class;
  return cls && !message.startsWith(cls) ? `${cls}: ${message}` : message;
}

export function errorLocation(error: AirbrakeError): string | undefined {
  const where = error.file
    ? `${error.file}${error.line_number ? `:${error.line_number}` : ""}`
    : error.last_notice?.backtrace?.[0];
  return where?.replace(/^\[PROJECT_ROOT\]\//, "") || undefined;
}

export default function transform(payload: { error: AirbrakeError }, _context: TransformContext) {
  return { title: errorTitle(payload.error), location: errorLocation(payload.error) };
}
