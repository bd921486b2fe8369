// What every server-rendered page answers with: one content security policy, and for pages that
// carry a session's CSRF token, a key shown once or an invitation's form token, headers that keep
// them out of caches and frames.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Context, Middleware } from "koa";
import type { Config } from "../config";
import { bodyParser } from "../http/bodyParser";
import { BASE, type Assets } from "./pages";

/** Only this server's own files: no inline script or style, no framing, no foreign connections. */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** A page that must never be cached or framed. Referrer-Policy same-origin (not no-referrer):
 * browsers without Sec-Fetch-Site then send a real Origin with the page's forms. */
export function sendPrivatePage(ctx: Context, body: string, status = 200): void {
  ctx.set("Content-Security-Policy", PAGE_CSP);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Referrer-Policy", "same-origin");
  ctx.set("X-Frame-Options", "DENY");
  ctx.set("Cache-Control", "no-store");
  ctx.status = status;
  ctx.type = "text/html; charset=utf-8";
  ctx.body = body;
}

/** The catalogue's stylesheet, script and icon, under the content hashes its router serves them with. */
export function catalogueAssets(): Assets {
  const url = (name: string) => {
    const body = fs.readFileSync(path.join(__dirname, "static", name));
    return `${BASE}/static/${name}?v=${crypto.createHash("sha256").update(body).digest("hex").slice(0, 16)}`;
  };
  return { css: url("catalogue.css"), js: url("catalogue.js"), icon: url("favicon.svg") };
}

/** The body parser of the pages' forms: url-encoded fields within the body limit, never a file. */
export function pageFormParser(config: Pick<Config, "limits" | "uploadsDir">): Middleware {
  return bodyParser({ maxBodyBytes: config.limits.maxBodyBytes, maxUploadBytes: 0, uploadDir: config.uploadsDir });
}

/** A form field's text; "" when it is absent or not a string. */
export const formText = (value: unknown): string => (typeof value === "string" ? value : "");
