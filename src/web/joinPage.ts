// /join/<key>/: the page an invitation link opens. GET shows the form (name, password, and the email
// address for a reusable link); POST creates the account (services/invitations/accept.ts) and signs
// the new user in. Links that cannot be used get a page saying why (404/410), never a 500.
// The invitee has no session, so the form is protected from cross-site posts by itself: the browser's
// Origin / Sec-Fetch-Site must say same-origin, and a form token must match a cookie set with the
// form (SameSite=Strict, so another site's post never carries it).
import crypto from "node:crypto";
import { Router } from "@koa/router";
import type { Context } from "koa";
import type { AppDeps } from "../deps";
import { ApiError } from "../errors";
import { hostSubdomain, limitByIp } from "../http/auth";
import {
  acceptInvitation,
  InvitationUnusable,
  usableInvitation,
  type UsableInvitation,
} from "../services/invitations/accept";
import { PASSWORD_MIN_LENGTH } from "../services/users/passwords";
import { catalogueAssets, formText, pageFormParser, sendPrivatePage } from "./pageResponse";
import { html } from "./html";
import { layout, type Assets } from "./pages";
import { signIn } from "./session";

export const JOIN_FORM_COOKIE = "switchboard_join";
export const JOIN_FORM_FIELD = "form_token";

interface JoinForm {
  fullName: string;
  email: string;
  token: string;
  error?: string;
}

function joinPage(assets: Assets, found: UsableInvitation, key: string, form: JoinForm): string {
  const { invitation, realm, inviter } = found;
  const multiuse = Boolean(invitation.is_multiuse);
  const main = html`<h1>Join ${realm.name}</h1>
    <p class="lead">
      ${inviter ? html`${inviter.full_name} invited you to ${realm.name}.` : html`You are invited to ${realm.name}.`}
      Choose your name and a password; you are signed in as soon as the account exists.
    </p>
    <form class="account-form" method="post" action="/join/${key}/">
      ${form.error ? html`<p class="error" id="join-error" role="alert">${form.error}</p>` : ""}
      <input type="hidden" name="${JOIN_FORM_FIELD}" value="${form.token}" />
      <div class="field">
        <label for="email">Email</label>
        ${
          multiuse
            ? html`<input id="email" name="email" type="email" autocomplete="email" value="${form.email}" required />`
            : html`<input id="email" type="email" value="${invitation.email ?? ""}" readonly />`
        }
      </div>
      <div class="field">
        <label for="full_name">Your name</label>
        <input id="full_name" name="full_name" type="text" autocomplete="name" value="${form.fullName}" required />
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          minlength="${PASSWORD_MIN_LENGTH}"
          required
        />
      </div>
      <div class="actions"><button type="submit" id="join">Create account</button></div>
    </form>`;
  return layout(assets, `Join ${realm.name}`, main, "join");
}

function unusablePage(assets: Assets, message: string): string {
  const main = html`<h1>This invitation cannot be used</h1>
    <p class="lead" id="join-problem">${message}</p>
    <p><a href="/login/">Sign in</a> if you already have an account.</p>`;
  return layout(assets, "Invitation", main, "join-unusable");
}

/** Why a POST counts as cross-site, from what the browser says about it; undefined when it does not. */
function crossSite(ctx: Context, externalUrl: string): string | undefined {
  const site = ctx.get("sec-fetch-site").toLowerCase();
  if (site && site !== "same-origin" && site !== "none") return `the browser marked it ${site}`;
  // Sec-Fetch-Site cannot be set by a page, so when present it decides: this page's Referrer-Policy
  // (no-referrer) makes the browser send its same-origin form with `Origin: null`.
  if (site) return undefined;
  const origin = ctx.get("origin");
  if (origin && ![`${ctx.protocol}://${ctx.host}`, new URL(externalUrl).origin].includes(origin))
    return "it came from another site";
  return undefined;
}

function tokensMatch(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}

export function joinPageRouter(deps: AppDeps): Router {
  const router = new Router({ strict: true });
  const assets = catalogueAssets();
  const ip = limitByIp(deps);
  const parseBody = pageFormParser(deps.config);
  const subdomain = (ctx: Context) => hostSubdomain(ctx.host, deps.config.rootDomain) ?? "";

  /** A fresh form token, also set as a cookie only this page's form posts carry back. */
  function newFormToken(ctx: Context): string {
    const token = crypto.randomBytes(24).toString("hex");
    ctx.cookies.set(JOIN_FORM_COOKIE, token, {
      httpOnly: true,
      sameSite: "strict",
      secure: ctx.secure,
      path: "/join/",
      overwrite: true,
    });
    return token;
  }

  router.get("/join/:key", ip, (ctx) => {
    ctx.status = 301;
    ctx.redirect(`/join/${encodeURIComponent(ctx.params.key)}/`);
  });

  router.get("/join/:key/", ip, async (ctx) => {
    try {
      const found = await usableInvitation(deps.db, ctx.params.key, subdomain(ctx));
      sendPrivatePage(
        ctx,
        joinPage(assets, found, ctx.params.key, { fullName: "", email: "", token: newFormToken(ctx) }),
      );
    } catch (err) {
      if (!(err instanceof InvitationUnusable)) throw err;
      sendPrivatePage(ctx, unusablePage(assets, err.message), err.status);
    }
  });

  router.post("/join/:key/", ip, parseBody, async (ctx) => {
    const key = ctx.params.key;
    const raw = (ctx.state.rawParams ?? {}) as Record<string, unknown>;
    const form = { fullName: formText(raw.full_name), email: formText(raw.email).trim() };
    let found: UsableInvitation;
    try {
      found = await usableInvitation(deps.db, key, subdomain(ctx));
    } catch (err) {
      if (!(err instanceof InvitationUnusable)) throw err;
      return sendPrivatePage(ctx, unusablePage(assets, err.message), err.status);
    }
    const refuse = (error: string, status: number) =>
      sendPrivatePage(ctx, joinPage(assets, found, key, { ...form, token: newFormToken(ctx), error }), status);
    const reason = crossSite(ctx, deps.config.externalUrl);
    if (reason) return refuse(`This form was not sent from this page (${reason}). Please try again.`, 403);
    if (!tokensMatch(formText(raw[JOIN_FORM_FIELD]), ctx.cookies.get(JOIN_FORM_COOKIE) ?? ""))
      return refuse("This form has expired or was not sent from this page. Please try again.", 403);
    try {
      const joined = await acceptInvitation(deps.db, {
        key,
        hostSubdomain: subdomain(ctx),
        fullName: form.fullName,
        password: formText(raw.password),
        email: form.email,
      });
      await deps.bus.publish(joined.notifications);
      await signIn(ctx, deps, joined.user, joined.realm);
    } catch (err) {
      if (err instanceof InvitationUnusable) return sendPrivatePage(ctx, unusablePage(assets, err.message), err.status);
      if (err instanceof ApiError && err.status < 500) return refuse(err.message, err.status);
      throw err;
    }
    ctx.cookies.set(JOIN_FORM_COOKIE, null, { path: "/join/" });
    ctx.status = 303;
    ctx.redirect("/integrations/");
  });

  return router;
}
