// Signing in through /login/ over real HTTP and calling the server with the session cookie, as a browser does.
import type { TestServer, TestUser } from "./harness";
import { setPassword } from "../../src/services/users/credentials";

export const PASSWORD = "correct horse battery staple";

export async function givePassword(server: TestServer, user: TestUser, password = PASSWORD): Promise<void> {
  await setPassword(server.db, user, password, { apiKey: user.apiKey });
}

export interface SignedIn {
  cookie: string;
  /** The whole Set-Cookie line, for checking its attributes. */
  setCookie: string;
  csrfToken: string;
}

/** The CSRF token as the signed-in /login/ page renders it in its sign-out form. */
export async function csrfTokenOf(server: TestServer, cookie: string): Promise<string> {
  const page = await (await fetch(`${server.url}/login/`, { headers: { cookie } })).text();
  const match = /name="csrf_token" value="([^"]+)"/.exec(page);
  if (!match) throw new Error("no CSRF token on the signed-in page");
  return match[1];
}

export async function signInOverHttp(
  server: TestServer,
  email: string,
  password = PASSWORD,
  headers: Record<string, string> = {},
): Promise<SignedIn> {
  const res = await fetch(`${server.url}/login/`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ email, password, next: "/integrations/" }).toString(),
  });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("switchboard_session="))!;
  const cookie = setCookie.split(";")[0];
  return { cookie, setCookie, csrfToken: await csrfTokenOf(server, cookie) };
}

/** An /api/v1 request carrying a cookie (and whatever headers), form-encoded like the pages' scripts. */
export async function withCookie(
  server: TestServer,
  method: string,
  path: string,
  cookie: string,
  params: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, any> }> {
  const form = new URLSearchParams(params).toString();
  const get = method === "GET";
  const res = await fetch(`${server.url}/api/v1${path}${get && form ? `?${form}` : ""}`, {
    method,
    headers: { cookie, ...(get ? {} : { "content-type": "application/x-www-form-urlencoded" }), ...headers },
    body: get ? undefined : form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
