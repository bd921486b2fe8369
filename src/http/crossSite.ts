// Cross-site request refusal (docs/security.md, "Cross-site requests"). A browser says where a request
// comes from: `Sec-Fetch-Site` (every current browser) and `Origin` (on every cross-origin POST). A
// state-changing request that a browser marks as coming from another site is refused before any
// credential is looked at, whatever it carries (a session cookie, or Basic credentials the browser
// cached). Scripts and the official clients send neither header and are unaffected.
import type { Context, Next } from "koa";
import type { AppDeps } from "../deps";
import { Errors } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const WEBHOOKS = "/api/v1/external/";

/** Why this request counts as cross-site, or undefined when it is same-origin or not from a browser. */
export function crossSiteReason(ctx: Context, externalUrl: string): string | undefined {
  const site = ctx.get("sec-fetch-site").toLowerCase();
  // "same-site" is refused too: another organization's subdomain is the same site but not this origin.
  if (site && site !== "same-origin" && site !== "none") return `the browser marked this request ${site}`;
  // Sec-Fetch-Site cannot be set by a page, so when present it decides: a same-origin form on a page
  // with `Referrer-Policy: no-referrer` is sent with `Origin: null`.
  if (site) return undefined;
  const origin = ctx.get("origin");
  if (origin) {
    const own = [`${ctx.protocol}://${ctx.host}`, new URL(externalUrl).origin];
    if (!own.includes(origin)) return `the request comes from ${origin.slice(0, 100)}, not from this server`;
  }
  return undefined;
}

export function refuseCrossSite(deps: Pick<AppDeps, "config">) {
  return async (ctx: Context, next: Next): Promise<void> => {
    // Webhook senders are servers; a webhook URL carries its own key. Only a webhook request that
    // carries browser-cached Basic credentials is checked there.
    const checked = !SAFE_METHODS.has(ctx.method) && (!ctx.path.startsWith(WEBHOOKS) || ctx.get("authorization"));
    if (checked) {
      const reason = crossSiteReason(ctx, deps.config.externalUrl);
      if (reason) throw Errors.csrfFailed(`cross-site request refused (${reason})`);
    }
    await next();
  };
}
