// The integrations catalogue web page, served at /integrations/: server-rendered HTML, a stylesheet
// and a script served from src/web/static (no build step), and the fixtures the page sends as tests.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Router } from "@koa/router";
import type { Context } from "koa";
import type { AppDeps } from "../deps";
import { Errors } from "../errors";
import { limitByIp } from "../http/auth";
import { createCatalogue } from "./catalogue";
import { BASE, deliveriesPage, integrationPage, listPage, notFoundPage, type Assets } from "./pages";

// Only this server's own files: no inline script or style, no framing, no foreign connections.
const CSP = [
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

const STATIC_TYPES: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
};

interface StaticFile {
  body: Buffer;
  type: string;
  hash: string;
}

function loadStatic(): Map<string, StaticFile> {
  const dir = path.join(__dirname, "static");
  const files = new Map<string, StaticFile>();
  for (const name of fs.readdirSync(dir)) {
    const type = STATIC_TYPES[path.extname(name)];
    if (!type) continue;
    const body = fs.readFileSync(path.join(dir, name));
    files.set(name, { body, type, hash: crypto.createHash("sha256").update(body).digest("hex").slice(0, 16) });
  }
  return files;
}

function pageHeaders(ctx: Context): void {
  ctx.set("Content-Security-Policy", CSP);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Referrer-Policy", "no-referrer");
  ctx.set("X-Frame-Options", "DENY");
}

function sendHtml(ctx: Context, body: string, status = 200): void {
  pageHeaders(ctx);
  ctx.status = status;
  ctx.type = "text/html; charset=utf-8";
  // Pages are cheap to render and change with the plugins: always revalidate.
  ctx.set("Cache-Control", "no-cache");
  ctx.body = body;
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

export function webRouter(deps: AppDeps): Router {
  // strict: `/integrations` (redirected) and `/integrations/` are different routes.
  const router = new Router({ strict: true });
  const files = loadStatic();
  const asset = (name: string): string => `${BASE}/static/${name}?v=${files.get(name)!.hash}`;
  const assets: Assets = { css: asset("catalogue.css"), js: asset("catalogue.js"), icon: asset("favicon.svg") };
  const catalogue = createCatalogue(deps.integrations, deps.config.externalUrl);
  const ip = limitByIp(deps);

  router.get(BASE, ip, (ctx) => {
    ctx.status = 301;
    ctx.redirect(`${BASE}/${ctx.querystring ? `?${ctx.querystring}` : ""}`);
  });

  router.get(`${BASE}/`, ip, (ctx) => {
    sendHtml(ctx, listPage(assets, catalogue, { q: text(ctx.query.q), category: text(ctx.query.category) }));
  });

  router.get(`${BASE}/static/:file`, ip, (ctx) => {
    const file = files.get(ctx.params.file);
    if (!file) throw Errors.notFound("File not found");
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.type = file.type;
    // A URL carrying the current content hash never changes; anything else must revalidate.
    const current = ctx.query.v === file.hash;
    ctx.set("Cache-Control", current ? "public, max-age=31536000, immutable" : "no-cache");
    ctx.set("ETag", `"${file.hash}"`);
    if (ctx.get("if-none-match") === `"${file.hash}"`) {
      ctx.status = 304;
      return;
    }
    ctx.body = file.body;
  });

  router.get(`${BASE}/deliveries`, ip, (ctx) => {
    sendHtml(ctx, deliveriesPage(assets, catalogue));
  });

  router.get(`${BASE}/:name`, ip, (ctx) => {
    const item = catalogue.get(ctx.params.name);
    if (!item) return sendHtml(ctx, notFoundPage(assets, ctx.params.name), 404);
    sendHtml(ctx, integrationPage(assets, catalogue, item, deps.config.externalUrl));
  });

  // The sample payloads (repository fixtures, public anyway) the page sends to the preview endpoint.
  router.get(`${BASE}/:name/fixtures/:fixture`, ip, (ctx) => {
    const item = catalogue.get(ctx.params.name);
    const fixture = item && catalogue.fixture(item, ctx.params.fixture);
    if (!fixture) throw Errors.notFound("Fixture not found");
    ctx.set("Cache-Control", "no-cache");
    ctx.body = { result: "success", msg: "", fixture };
  });

  return router;
}
