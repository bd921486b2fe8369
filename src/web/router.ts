// The integrations catalogue web page, served at /integrations/: server-rendered HTML, a stylesheet
// and a script served from src/web/static (no build step), and the fixtures the page sends as tests.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Router } from "@koa/router";
import type { Context } from "koa";
import type { AppDeps } from "../deps";
import { ApiError, Errors } from "../errors";
import { limitByIp } from "../http/auth";
import { deliveryBots, ownedBots, subscribedChannelNames, withPostedMessages } from "../services/webhooks/ownerView";
import { isAdmin } from "../services/users/users";
import { createCatalogue } from "./catalogue";
import {
  BASE,
  deliveriesPage,
  integrationPage,
  listPage,
  notFoundPage,
  signedInDeliveriesPage,
  type Assets,
} from "./pages";
import { PAGE_CSP, formText, pageFormParser } from "./pageResponse";
import { checkCsrf, CSRF_FIELD, loadSession, loginUrl, type WebSession } from "./session";

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
  ctx.set("Content-Security-Policy", PAGE_CSP);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Referrer-Policy", "no-referrer");
  ctx.set("X-Frame-Options", "DENY");
}

function sendHtml(ctx: Context, body: string, status = 200): void {
  pageHeaders(ctx);
  ctx.status = status;
  ctx.type = "text/html; charset=utf-8";
  // Pages are cheap to render and change with the plugins: always revalidate. A signed-in page carries
  // the session's name and CSRF token: never stored.
  ctx.set("Cache-Control", ctx.state.webSession ? "no-store" : "no-cache");
  ctx.body = body;
}

/** An optional positive integer query parameter; undefined when absent, null when malformed. */
function queryId(value: unknown): number | undefined | null {
  if (value === undefined || value === "") return undefined;
  return typeof value === "string" && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

/** Deliveries the signed-in page shows (the newest). */
const DELIVERIES_SHOWN = 50;

export function webRouter(deps: AppDeps): Router {
  // strict: `/integrations` (redirected) and `/integrations/` are different routes.
  const router = new Router({ strict: true });
  const files = loadStatic();
  const asset = (name: string): string => `${BASE}/static/${name}?v=${files.get(name)!.hash}`;
  const assets: Assets = { css: asset("catalogue.css"), js: asset("catalogue.js"), icon: asset("favicon.svg") };
  const catalogue = createCatalogue(deps.integrations, deps.config.externalUrl);
  const ip = limitByIp(deps);
  // Every page names the signed-in user in its header (pages.ts layout).
  const session = loadSession(deps);
  const signedIn = (ctx: Context) => ctx.state.webSession as WebSession | undefined;
  const parseBody = pageFormParser(deps.config);

  /** The signed-in deliveries page: the log read with the session user's rights, messages included. */
  async function showDeliveries(
    ctx: Context,
    who: WebSession,
    filter: { botId?: number; integration: string },
    messages: { notice?: string; error?: string; status?: number } = {},
  ): Promise<void> {
    const { realm, user } = who;
    const { deliveries } = await deps.webhookOps.deliveries.list(realm, user, {
      botId: filter.botId,
      integration: filter.integration || undefined,
      limit: DELIVERIES_SHOWN,
    });
    const view = {
      bots: await deliveryBots(deps.db, realm, user),
      filter,
      deliveries: await withPostedMessages(deps.db, realm, user, deliveries),
      seesAllBots: isAdmin(user),
      ...messages,
    };
    sendHtml(ctx, signedInDeliveriesPage(assets, catalogue, who, view), messages.status ?? 200);
  }

  router.get(BASE, ip, (ctx) => {
    ctx.status = 301;
    ctx.redirect(`${BASE}/${ctx.querystring ? `?${ctx.querystring}` : ""}`);
  });

  router.get(`${BASE}/`, ip, session, (ctx) => {
    const query = { q: formText(ctx.query.q), category: formText(ctx.query.category) };
    sendHtml(ctx, listPage(assets, catalogue, query, signedIn(ctx)));
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

  router.get(`${BASE}/deliveries`, ip, session, async (ctx) => {
    const who = signedIn(ctx);
    // Signed out, the page's script reads the log with an email and API key (scripts, shared machines).
    if (!who) return sendHtml(ctx, deliveriesPage(assets, catalogue));
    const botId = queryId(ctx.query.bot_id);
    const integration = formText(ctx.query.integration);
    if (botId === null || (integration && !catalogue.get(integration)))
      return showDeliveries(
        ctx,
        who,
        { integration: "" },
        {
          error: botId === null ? "Invalid bot: pick one from the list." : `No integration called '${integration}'.`,
          status: 400,
        },
      );
    await showDeliveries(ctx, who, { botId, integration });
  });

  // Replay from the signed-in page: a form post with the session's CSRF token.
  router.post(`${BASE}/deliveries/:id/replay`, ip, session, parseBody, async (ctx) => {
    const who = signedIn(ctx);
    if (!who) {
      ctx.status = 303;
      return ctx.redirect(loginUrl(`${BASE}/deliveries`));
    }
    checkCsrf(who, formText((ctx.state.rawParams as Record<string, unknown> | undefined)?.[CSRF_FIELD]) || undefined);
    const id = queryId(ctx.params.id);
    try {
      if (!id) throw Errors.notFound("Delivery not found");
      const replayed = await deps.webhookOps.deliveries.replay(who.realm, who.user, id);
      await showDeliveries(ctx, who, { integration: "" }, { notice: `Replayed delivery ${id}: ${replayed.outcome}.` });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      await showDeliveries(
        ctx,
        who,
        { integration: "" },
        { error: `Replay failed: ${err.message}`, status: err.status },
      );
    }
  });

  // `/integrations/github/` (a trailing slash, as people type and some tools add): the canonical page.
  router.get(`${BASE}/:name/`, ip, (ctx) => {
    ctx.status = 301;
    ctx.redirect(`${BASE}/${encodeURIComponent(ctx.params.name)}${ctx.querystring ? `?${ctx.querystring}` : ""}`);
  });

  router.get(`${BASE}/:name`, ip, session, async (ctx) => {
    const item = catalogue.get(ctx.params.name);
    const who = signedIn(ctx);
    if (!item) return sendHtml(ctx, notFoundPage(assets, ctx.params.name, who), 404);
    const owner = who && {
      bots: await ownedBots(deps.db, who.realm, who.user),
      channels: await subscribedChannelNames(deps.db, who.realm, who.user),
    };
    sendHtml(
      ctx,
      integrationPage(assets, catalogue, item, deps.config.externalUrl, who && owner && { session: who, owner }),
    );
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
