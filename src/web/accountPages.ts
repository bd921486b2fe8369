// /login/ (GET the form, POST email + password) and /logout/ (POST), server-rendered in the catalogue's
// style. A failed sign-in counts against the API's auth-failure budgets (http/passwordThrottle.ts).
// The form needs no script; cross-site posts are refused before they get here (http/crossSite.ts).
import { Router } from "@koa/router";
import type { Context } from "koa";
import type { AppDeps } from "../deps";
import { ApiError } from "../errors";
import { hostSubdomain, limitByIp } from "../http/auth";
import { throttledPasswordCheck } from "../http/passwordThrottle";
import { findRealm } from "../services/realms/realms";
import { checkPassword } from "../services/users/credentials";
import { catalogueAssets, formText, pageFormParser, sendPrivatePage } from "./pageResponse";
import { html } from "./html";
import { layout, type Assets } from "./pages";
import {
  checkCsrf,
  CSRF_FIELD,
  csrfField,
  currentSession,
  safeNext,
  signIn,
  signOut,
  type WebSession,
} from "./session";

interface LoginForm {
  email: string;
  next: string;
  error?: string;
}

function loginPage(assets: Assets, form: LoginForm): string {
  const main = html`<h1>Sign in</h1>
    <p class="lead">Sign in with your email address and password.</p>
    <form class="account-form" method="post" action="/login/">
      ${form.error ? html`<p class="error" id="login-error" role="alert">${form.error}</p>` : ""}
      <input type="hidden" name="next" value="${form.next}" />
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" value="${form.email}" required />
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
      </div>
      <div class="actions"><button type="submit" id="sign-in">Sign in</button></div>
    </form>`;
  return layout(assets, "Sign in", main, "login");
}

function signedInPage(ctx: Context, assets: Assets, session: WebSession, next: string): string {
  const main = html`<h1>Signed in</h1>
    <p class="lead">
      You are signed in as <strong id="signed-in-as">${session.user.full_name}</strong> (${session.user.delivery_email})
      in ${session.realm.name}.
    </p>
    <p><a href="${next}">Continue</a></p>
    <form class="account-form" method="post" action="/logout/">
      ${csrfField(ctx)}
      <div class="actions"><button type="submit" id="sign-out">Sign out</button></div>
    </form>`;
  return layout(assets, "Signed in", main, "signed-in", session);
}

/** What a refused sign-in says on the page (never whether the email exists). */
function signInProblem(err: ApiError): { message: string; status: number } {
  switch (err.code) {
    case "AUTHENTICATION_FAILED":
      return { message: "Wrong email or password.", status: 401 };
    case "USER_DEACTIVATED":
      return { message: "Your account is deactivated.", status: 401 };
    case "REALM_DEACTIVATED":
      return { message: "This organization is deactivated.", status: 401 };
    case "RATE_LIMIT_HIT":
      return {
        message: `Too many failed sign-ins. Try again in ${Math.ceil(Number(err.extra["retry-after"]))} seconds.`,
        status: 429,
      };
    default:
      return { message: err.message, status: err.status };
  }
}

export function accountPagesRouter(deps: AppDeps): Router {
  const router = new Router({ strict: true });
  const assets = catalogueAssets();
  const ip = limitByIp(deps);
  const parseBody = pageFormParser(deps.config);

  for (const bare of ["/login", "/logout"]) {
    router.get(bare, ip, (ctx) => {
      ctx.status = 301;
      ctx.redirect(`${bare}/${ctx.querystring ? `?${ctx.querystring}` : ""}`);
    });
  }

  router.get("/login/", ip, async (ctx) => {
    const next = safeNext(ctx.query.next);
    const session = await currentSession(ctx, deps);
    if (session) return sendPrivatePage(ctx, signedInPage(ctx, assets, session, next));
    sendPrivatePage(ctx, loginPage(assets, { email: "", next }));
  });

  router.post("/login/", ip, parseBody, async (ctx) => {
    const raw = (ctx.state.rawParams ?? {}) as Record<string, unknown>;
    const email = formText(raw.email).trim();
    const password = formText(raw.password);
    const next = safeNext(raw.next);
    const realm = await findRealm(deps.db, hostSubdomain(ctx.host, deps.config.rootDomain) ?? "");
    if (!realm)
      return sendPrivatePage(ctx, loginPage(assets, { email, next, error: "No organization at this address." }), 404);
    try {
      const match = await throttledPasswordCheck(deps, ctx, email, () =>
        checkPassword(deps.db, realm, email, password),
      );
      await signIn(ctx, deps, match.user, realm);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const problem = signInProblem(err);
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      return sendPrivatePage(ctx, loginPage(assets, { email, next, error: problem.message }), problem.status);
    }
    ctx.status = 303;
    ctx.redirect(next);
  });

  router.post("/logout/", ip, parseBody, async (ctx) => {
    const session = await currentSession(ctx, deps);
    if (session)
      checkCsrf(session, formText((ctx.state.rawParams as Record<string, unknown>)?.[CSRF_FIELD]) || undefined);
    await signOut(ctx, deps);
    ctx.status = 303;
    ctx.redirect("/login/");
  });

  return router;
}
