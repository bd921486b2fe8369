// pino, with secrets redacted from everything logged (API keys, auth headers, webhook secrets).
import pino, { type Logger } from "pino";

export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-hub-signature-256"]',
  'req.headers["x-hub-signature"]',
  "req.query.api_key",
  "api_key",
  "*.api_key",
  "secret",
  "*.secret",
  "webhook_secret",
  "*.webhook_secret",
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: "[redacted]" } };
  return destination ? pino(options, destination) : pino(options);
}

/** Removes secret query parameters from a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:api_key|secret|key|[a-z_]*token)=)[^&]*/gi, "$1[redacted]");
}
