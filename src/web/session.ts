// Web sign-in on a Koa ctx: the session cookie, the session user for pages and for the REST API, and
// the CSRF token (a hidden form field on pages, the X-CSRFToken header for the API). The rules are in
// docs/security.md ("Cross-site requests") and docs/accounts.md.
import type { Context, Next } from "koa";
import type { AppDeps } from "../deps";
import type { RealmRow, UserRow } from "../db/rows";
import { Errors } from "../errors";
import { hostSubdomain } from "../http/auth";
import {
  createSession,
  csrfTokenMatches,
  endSession,
  findSession,
  type ActiveSession,
  type NewSession,
} from "../services/users/sessions";
import { html, type Html } from "./html";

export const SESSION_COOKIE = "switchboard_session";
/** The hidden form field that carries the session's CSRF token. */
export const CSRF_FIELD = "csrf_token";
/** The header a signed-in page's script sends its CSRF token in (the reference's name). */
export const CSRF_HEADER = "x-csrftoken";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method);

/** What a request's session resolved to, kept on ctx.state so it is looked up once per request. */
export interface WebSession {
  sessionId: string;
  csrfToken: string;
  user: UserRow;
  realm: RealmRow;
}

function setCookie(ctx: Context, value: string | null, expiresAt?: number): void {
  ctx.cookies.set(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: "lax",
    // ctx.secure is true for https, and for X-Forwarded-Proto: https when TRUST_PROXY is on.
    secure: ctx.secure,
    path: "/",
    overwrite: true,
    ...(expiresAt ? { expires: new Date(expiresAt * 1000) } : {}),
  });
}

/** Signs `user` in: a new session and its cookie. The user must already be authenticated. */
export async function signIn(
  ctx: Context,
  deps: Pick<AppDeps, "db">,
  user: UserRow,
  realm: RealmRow,
): Promise<NewSession> {
  const created = await createSession(deps.db, user);
  setCookie(ctx, created.sessionId, created.expiresAt);
  ctx.state.webSession = {
    sessionId: created.sessionId,
    csrfToken: created.csrfToken,
    user,
    realm,
  } satisfies WebSession;
  return created;
}

/** Ends the request's session (if any) and clears its cookie. */
export async function signOut(ctx: Context, deps: Pick<AppDeps, "db">): Promise<void> {
  const value = ctx.cookies.get(SESSION_COOKIE);
  if (value) await endSession(deps.db, value);
  setCookie(ctx, null);
  ctx.state.webSession = undefined;
}

/**
 * The request's live session, or undefined. A session only counts on the host of its organization
 * (the cookie is host-only anyway). Looked up once per request.
 */
export async function currentSession(
  ctx: Context,
  deps: Pick<AppDeps, "db" | "config">,
): Promise<WebSession | undefined> {
  if ("webSession" in ctx.state) return ctx.state.webSession as WebSession | undefined;
  const value = ctx.cookies.get(SESSION_COOKIE);
  let found: ActiveSession | undefined;
  if (value) found = await findSession(deps.db, value);
  if (found && found.realm.string_id !== (hostSubdomain(ctx.host, deps.config.rootDomain) ?? "")) found = undefined;
  const session: WebSession | undefined = found && {
    sessionId: value!,
    csrfToken: found.session.csrf_token,
    user: found.user,
    realm: found.realm,
  };
  ctx.state.webSession = session;
  return session;
}

/** Throws CSRF_FAILED unless `given` is the session's CSRF token. */
export function checkCsrf(session: WebSession, given: string | undefined): void {
  if (!given) throw Errors.csrfFailed("the CSRF token is missing");
  if (!csrfTokenMatches({ csrf_token: session.csrfToken }, given)) throw Errors.csrfFailed("the CSRF token is wrong");
}

/**
 * For the REST API: the session user of a request without Basic credentials. A state-changing
 * request must carry the session's token in X-CSRFToken (the body is not read before authentication).
 */
export async function sessionActorForApi(
  ctx: Context,
  deps: Pick<AppDeps, "db" | "config">,
): Promise<WebSession | undefined> {
  const session = await currentSession(ctx, deps);
  if (session && !isSafeMethod(ctx.method)) checkCsrf(session, ctx.get(CSRF_HEADER) || undefined);
  return session;
}

/** Page middleware: puts the session (if any) on ctx.state.webSession; never refuses. */
export function loadSession(deps: Pick<AppDeps, "db" | "config">) {
  return async (ctx: Context, next: Next): Promise<void> => {
    await currentSession(ctx, deps);
    await next();
  };
}

/** Page middleware: a visitor who is not signed in is sent to /login/ and brought back afterwards. */
export function requireSignedIn(deps: Pick<AppDeps, "db" | "config">) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!(await currentSession(ctx, deps))) {
      ctx.redirect(loginUrl(ctx.originalUrl));
      return;
    }
    await next();
  };
}

export const loginUrl = (next?: string): string =>
  next && next !== "/" ? `/login/?next=${encodeURIComponent(next)}` : "/login/";

/** A local path to go to after signing in; anything else (another site, `//host`) becomes the default. */
export function safeNext(next: unknown, fallback = "/integrations/"): string {
  if (typeof next !== "string" || !next.startsWith("/") || next.startsWith("//") || next.includes("\\"))
    return fallback;
  return /^[\x21-\x7e]*$/.test(next) ? next : fallback;
}

/** The hidden field a page's form posts its CSRF token in (empty when not signed in). */
export function csrfField(ctx: Context): Html {
  const session = ctx.state.webSession as WebSession | undefined;
  return session ? html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}" />` : html``;
}

/** `<meta name="csrf-token">` for a page's script, which sends it as X-CSRFToken on API calls. */
export function csrfMeta(ctx: Context): Html {
  const session = ctx.state.webSession as WebSession | undefined;
  return session ? html`<meta name="csrf-token" content="${session.csrfToken}" />` : html``;
}
