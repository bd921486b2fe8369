// Passwords, POST /fetch_api_key, PATCH /settings (password), /login/ and /logout/ sessions, CSRF and
// cross-site refusal (docs/accounts.md, docs/security.md), over real HTTP on the real database.
import { spawn } from "node:child_process";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { ApiClient } from "../support/client";
import { givePassword, PASSWORD, signInOverHttp, withCookie } from "../support/webSession";
import { setPassword } from "../../src/services/users/credentials";
import { checkPasswordStrength, hashPassword, verifyPassword } from "../../src/services/users/passwords";
import { SESSION_IDLE_SECONDS } from "../../src/services/users/sessions";

jest.setTimeout(60_000);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await givePassword(server, server.users.member);
  await givePassword(server, server.users.other);
});
afterAll(async () => {
  await server.close();
});

const fetchApiKey = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  server.anonymous().request("POST", "/fetch_api_key", params, { headers });

describe("password hashing", () => {
  it("stores scrypt parameters and a per-user salt with the hash, and verifies", async () => {
    const [a, b] = [await hashPassword(PASSWORD), await hashPassword(PASSWORD)];
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b); // a fresh salt each time
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword(PASSWORD + "x", a)).toBe(false);
    expect(await verifyPassword(PASSWORD, "scrypt$1$1$1$$")).toBe(false);
  });

  it("names what is wrong with a weak password", () => {
    expect(checkPasswordStrength("short1")).toMatch(/at least 10 characters/);
    expect(checkPasswordStrength("qwertyuiop")).toMatch(/most common/);
    expect(checkPasswordStrength("aaaaaaaaaaaa")).toMatch(/repeats/);
    expect(checkPasswordStrength("member@test.example", { email: "member@test.example" })).toMatch(/email/);
    expect(checkPasswordStrength("x".repeat(50) + "y".repeat(51))).toMatch(/at most 100/);
    expect(checkPasswordStrength(PASSWORD, { email: "member@test.example" })).toBeUndefined();
  });

  it("never leaves the password or its hash in a user's API object", async () => {
    const res = await server.as(server.users.member).get("/users/me");
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/);
  });
});

describe("POST /fetch_api_key", () => {
  it("answers the user's current API key, as the reference (form-encoded)", async () => {
    const res = await fetchApiKey({ username: "member@test.example", password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      api_key: server.users.member.apiKey,
      email: "member@test.example",
      user_id: server.users.member.id,
    });
    // The key works (the same one the user already had).
    const me = await new ApiClient(server.url, res.body.email, res.body.api_key).get("/users/me");
    expect(me.body.user_id).toBe(server.users.member.id);
  });

  it("accepts a JSON body and a differently cased email", async () => {
    const res = await server.anonymous().request(
      "POST",
      "/fetch_api_key",
      {},
      {
        headers: { "content-type": "application/json" },
        rawBody: JSON.stringify({ username: "Member@Test.Example", password: PASSWORD }),
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.api_key).toBe(server.users.member.apiKey);
  });

  it("refuses a wrong password or an unknown email alike: 401 AUTHENTICATION_FAILED", async () => {
    for (const params of [
      { username: "member@test.example", password: PASSWORD + "!" },
      { username: "nobody@test.example", password: PASSWORD },
      { username: "owner@test.example", password: PASSWORD }, // has no password at all
      { username: "generic-bot@test.example", password: PASSWORD }, // bots have none
    ]) {
      const res = await fetchApiKey(params);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        result: "error",
        msg: "Your username or password is incorrect",
        code: "AUTHENTICATION_FAILED",
      });
      expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    }
  });

  it("needs both parameters and an email address", async () => {
    expect((await fetchApiKey({ username: "member@test.example" })).body).toMatchObject({
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "password",
    });
    const bad = await fetchApiKey({ username: "member", password: PASSWORD });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "BAD_REQUEST", msg: "Enter a valid email address." });
  });

  it("refuses a deactivated user (after the right password only) and a deactivated organization", async () => {
    const { guest } = server.users;
    await givePassword(server, guest);
    await server.db("users").where({ id: guest.id }).update({ is_active: false });
    try {
      const right = await fetchApiKey({ username: guest.email, password: PASSWORD });
      expect(right.status).toBe(401);
      expect(right.body).toMatchObject({ code: "USER_DEACTIVATED", msg: "Account is deactivated" });
      const wrong = await fetchApiKey({ username: guest.email, password: "not the password" });
      expect(wrong.body.code).toBe("AUTHENTICATION_FAILED");
    } finally {
      await server.db("users").where({ id: guest.id }).update({ is_active: true });
    }
    await server.db("realms").where({ id: server.realm.id }).update({ deactivated: true });
    try {
      const res = await fetchApiKey({ username: "member@test.example", password: PASSWORD });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "REALM_DEACTIVATED" });
    } finally {
      await server.db("realms").where({ id: server.realm.id }).update({ deactivated: false });
    }
  });

  it("replaces a key it cannot recover (password set without it) once, then returns the same key", async () => {
    const { moderator } = server.users;
    await setPassword(server.db, moderator, PASSWORD); // as the CLI does: the key is not known
    const first = await fetchApiKey({ username: moderator.email, password: PASSWORD });
    expect(first.status).toBe(200);
    expect(first.body.api_key).not.toBe(moderator.apiKey);
    const second = await fetchApiKey({ username: moderator.email, password: PASSWORD });
    expect(second.body.api_key).toBe(first.body.api_key);
    const me = await new ApiClient(server.url, moderator.email, second.body.api_key).get("/users/me");
    expect(me.status).toBe(200);
  });

  it("is refused as cross-site when a browser posts it from another origin", async () => {
    const res = await fetchApiKey(
      { username: "member@test.example", password: PASSWORD },
      { origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("CSRF_FAILED");
  });
});

describe("failed passwords share the API's auth-failure budgets", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: "3" });
    await givePassword(limited, limited.users.member);
    await givePassword(limited, limited.users.other);
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("past the budget even the right password is refused (429), for fetch_api_key and /login/", async () => {
    const post = (params: Record<string, string>) => limited.anonymous().post("/fetch_api_key", params);
    for (let i = 0; i < 3; i++) {
      expect((await post({ username: "member@test.example", password: `wrong guess ${i}` })).status).toBe(401);
    }
    const right = await post({ username: "member@test.example", password: PASSWORD });
    expect(right.status).toBe(429);
    expect(right.body.code).toBe("RATE_LIMIT_HIT");
    const login = await fetch(`${limited.url}/login/`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "other@test.example", password: PASSWORD }).toString(),
    });
    expect(login.status).toBe(429); // the IP's budget is spent
    expect(await login.text()).toContain("Too many failed sign-ins");
    expect(login.headers.getSetCookie()).toEqual([]);
  });
});

describe("PATCH /settings (password)", () => {
  it("refuses a wrong old password and a weak new one, as the reference", async () => {
    const client = server.as(server.users.other);
    const wrong = await client.patch("/settings", {
      old_password: "not it at all",
      new_password: "another fine password",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: "BAD_REQUEST", msg: "Wrong password!" });
    const weak = await client.patch("/settings", { old_password: PASSWORD, new_password: "short" });
    expect(weak.status).toBe(400);
    expect(weak.body.msg).toMatch(/^New password is too weak: it must be at least 10 characters/);
    // Nothing changed.
    expect((await fetchApiKey({ username: "other@test.example", password: PASSWORD })).status).toBe(200);
  });

  it("changes the password, keeps the API key, and ends the user's other web sessions but not this one", async () => {
    const { other } = server.users;
    const here = await signInOverHttp(server, other.email);
    const elsewhere = await signInOverHttp(server, other.email);
    const changed = await withCookie(
      server,
      "PATCH",
      "/settings",
      here.cookie,
      { old_password: PASSWORD, new_password: "a brand new passphrase" },
      { "x-csrftoken": here.csrfToken },
    );
    expect(changed).toEqual({ status: 200, body: { result: "success", msg: "" } });
    expect((await withCookie(server, "GET", "/users/me", here.cookie)).status).toBe(200);
    const ended = await withCookie(server, "GET", "/users/me", elsewhere.cookie);
    expect(ended.status).toBe(401);
    expect((await fetchApiKey({ username: other.email, password: PASSWORD })).status).toBe(401);
    const key = await fetchApiKey({ username: other.email, password: "a brand new passphrase" });
    expect(key.body.api_key).toBe(other.apiKey);
    await givePassword(server, other); // back, for the other tests
  });

  it("reports unknown parameters as ignored (personal settings: test/api/people.test.ts)", async () => {
    const res = await server.as(server.users.member).patch("/settings", { no_such_setting: "true" });
    expect(res.body).toEqual({ result: "success", msg: "", ignored_parameters_unsupported: ["no_such_setting"] });
  });
});

describe("/login/ and sessions", () => {
  it("serves the sign-in form", async () => {
    const res = await fetch(`${server.url}/login/`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<form class="account-form" method="post" action="/login/">');
    expect(page).toContain('autocomplete="current-password"');
    expect(res.headers.get("content-security-policy")).toContain("form-action 'self'");
  });

  it("sets an HttpOnly, SameSite=Lax session cookie (Secure only over https) and redirects", async () => {
    const plain = await signInOverHttp(server, "member@test.example");
    expect(plain.setCookie).toMatch(/; path=\/;/);
    expect(plain.setCookie).toMatch(/; samesite=lax/);
    expect(plain.setCookie).toMatch(/; httponly/);
    expect(plain.setCookie).not.toMatch(/; secure/);
    // The session id in the cookie is not what the database keeps.
    const value = plain.cookie.split("=")[1];
    const rows = await server.db("sessions").where({ user_id: server.users.member.id });
    expect(rows.some((r) => r.id_hash === value)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.id_hash))).toBe(true);
  });

  it("marks the cookie Secure behind a trusted https proxy", async () => {
    const proxied = await startTestServer({ TRUST_PROXY: "true" });
    try {
      await givePassword(proxied, proxied.users.member);
      const res = await fetch(`${proxied.url}/login/`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-proto": "https" },
        body: new URLSearchParams({ email: "member@test.example", password: PASSWORD }).toString(),
      });
      expect(res.status).toBe(303);
      expect(res.headers.getSetCookie()[0]).toMatch(/; secure/);
    } finally {
      await proxied.close();
    }
  });

  it("says so on a wrong password, without a cookie", async () => {
    const res = await fetch(`${server.url}/login/`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "member@test.example", password: "nope nope nope" }).toString(),
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Wrong email or password.");
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("goes only to local pages after signing in", async () => {
    for (const [next, expected] of [
      ["/integrations/github", "/integrations/github"],
      ["https://evil.example/", "/integrations/"],
      ["//evil.example/", "/integrations/"],
    ]) {
      const res = await fetch(`${server.url}/login/`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: "member@test.example", password: PASSWORD, next }).toString(),
      });
      expect(res.headers.get("location")).toBe(expected);
    }
  });

  it("lets the session call the API: reads freely, changes only with the session's CSRF token", async () => {
    const s = await signInOverHttp(server, "member@test.example");
    const me = await withCookie(server, "GET", "/users/me", s.cookie);
    expect(me.body.user_id).toBe(server.users.member.id);
    const message = { type: "stream", to: "general", topic: "cookies", content: "sent with a session" };
    const missing = await withCookie(server, "POST", "/messages", s.cookie, message);
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({
      result: "error",
      code: "CSRF_FAILED",
      msg: "CSRF error: the CSRF token is missing",
    });
    const wrong = await withCookie(server, "POST", "/messages", s.cookie, message, { "x-csrftoken": "x".repeat(43) });
    expect(wrong.body).toMatchObject({ code: "CSRF_FAILED", msg: "CSRF error: the CSRF token is wrong" });
    const before = await server.db("messages").where({ topic: "cookies" }).count({ n: "*" });
    expect(Number(before[0].n)).toBe(0);
    const sent = await withCookie(server, "POST", "/messages", s.cookie, message, { "x-csrftoken": s.csrfToken });
    expect(sent.status).toBe(200);
    expect(sent.body.id).toEqual(expect.any(Number));
    // Another session's token is not this one's.
    const t = await signInOverHttp(server, "member@test.example");
    const crossed = await withCookie(server, "POST", "/messages", s.cookie, message, { "x-csrftoken": t.csrfToken });
    expect(crossed.body.code).toBe("CSRF_FAILED");
  });

  it("ends sessions at the idle and at the absolute expiry", async () => {
    const idle = await signInOverHttp(server, "member@test.example");
    const old = await signInOverHttp(server, "member@test.example");
    const now = Math.floor(Date.now() / 1000);
    const rows = await server.db("sessions").orderBy("id", "desc").limit(2);
    await server
      .db("sessions")
      .where({ id: rows[1].id })
      .update({ last_seen_at: now - SESSION_IDLE_SECONDS - 1 });
    await server
      .db("sessions")
      .where({ id: rows[0].id })
      .update({ expires_at: now - 1 });
    for (const s of [idle, old]) {
      const res = await withCookie(server, "GET", "/users/me", s.cookie);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("UNAUTHORIZED");
    }
    expect(await server.db("sessions").whereIn("id", [rows[0].id, rows[1].id])).toEqual([]);
  });

  it("signs out with the form's token; without it the session stays", async () => {
    const s = await signInOverHttp(server, "member@test.example");
    const post = (body: Record<string, string>) =>
      fetch(`${server.url}/logout/`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: s.cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body).toString(),
      });
    const refused = await post({});
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("CSRF_FAILED");
    expect((await withCookie(server, "GET", "/users/me", s.cookie)).status).toBe(200);
    const out = await post({ csrf_token: s.csrfToken });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/login/");
    expect(out.headers.getSetCookie()[0]).toMatch(/^switchboard_session=;/);
    expect((await withCookie(server, "GET", "/users/me", s.cookie)).status).toBe(401);
  });

  it("ends a user's sessions when the user is deactivated", async () => {
    const { member } = server.users;
    const s = await signInOverHttp(server, member.email);
    const res = await server.as(server.users.admin).delete(`/users/${member.id}`);
    if (res.status === 404 || res.status === 405) {
      // No deactivation endpoint in this build: the service the CLI uses.
      const { setUserActive } = await import("../../src/services/users/users");
      await setUserActive(server.db, member.id, false);
    }
    try {
      expect(await server.db("sessions").where({ user_id: member.id })).toEqual([]);
      expect((await withCookie(server, "GET", "/users/me", s.cookie)).status).toBe(401);
    } finally {
      await server.db("users").where({ id: member.id }).update({ is_active: true });
    }
  });
});

describe("cross-site requests (issue 23.3)", () => {
  const message = { type: "stream", to: "general", topic: "cross-site", content: "forged?" };
  const send = (headers: Record<string, string>) =>
    server.as(server.users.member).request("POST", "/messages", message, { headers });

  it("refuses a browser's cross-site change even with valid Basic credentials", async () => {
    const browsers: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "http://other.localhost:9991" },
    ];
    for (const headers of browsers) {
      const res = await send(headers);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("CSRF_FAILED");
      expect(res.body.msg).toMatch(/^CSRF error: cross-site request refused/);
    }
    const stored = await server.db("messages").where({ topic: "cross-site" }).count({ n: "*" });
    expect(Number(stored[0].n)).toBe(0);
  });

  it("lets same-origin browser requests and scripts (no Origin, no Sec-Fetch-Site) through", async () => {
    expect((await send({ origin: server.url, "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await send({ origin: "http://localhost:9991" })).status).toBe(200); // EXTERNAL_URL's origin
    // A page with Referrer-Policy: no-referrer posts with Origin: null; Sec-Fetch-Site says it is ours.
    expect((await send({ origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await send({})).status).toBe(200);
    // Reads are not changes: a cross-site GET is answered as before.
    const read = await server
      .as(server.users.member)
      .request("GET", "/users/me", {}, { headers: { "sec-fetch-site": "cross-site" } });
    expect(read.status).toBe(200);
  });

  it("leaves webhook deliveries with their key in the URL alone; refuses browser-cached Basic ones", async () => {
    const body = JSON.stringify({ featured_title: "T", featured_url: "https://example.com" });
    const url = `${server.url}/api/v1/external/helloworld?api_key=${server.users.bot.apiKey}&stream=general`;
    const keyed = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://some-saas.example" },
      body,
    });
    expect(keyed.status).toBe(200);
    const basic = await fetch(`${server.url}/api/v1/external/helloworld?stream=general`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "sec-fetch-site": "cross-site",
        authorization:
          "Basic " + Buffer.from(`${server.users.bot.email}:${server.users.bot.apiKey}`).toString("base64"),
      },
      body,
    });
    expect(basic.status).toBe(403);
    expect(((await basic.json()) as { code: string }).code).toBe("CSRF_FAILED");
  });

  it("no longer invites browsers to cache Basic credentials: a 401 names a Session challenge", async () => {
    const res = await server.anonymous().get("/users/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Session realm="zulip"');
    const file = await fetch(`${server.url}/user_uploads/${server.realm.id}/abcdefghijklmnopqrstuvwx/x.txt`);
    expect(file.status).toBe(401);
    expect(file.headers.get("www-authenticate")).not.toMatch(/basic/i);
  });

  it("sends a browser opening an upload link to sign in, and serves the file with the session", async () => {
    const up = await server.as(server.users.member).request(
      "POST",
      "/user_uploads",
      {},
      {
        headers: { "content-type": "multipart/form-data; boundary=XyZ" },
        rawBody:
          '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\nhello file\r\n--XyZ--\r\n',
      },
    );
    expect(up.status).toBe(200);
    const link = `${server.url}${up.body.url}`;
    const navigate = { "sec-fetch-mode": "navigate", accept: "text/html,*/*" };
    const signedOut = await fetch(link, { redirect: "manual", headers: navigate });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(`/login/?next=${encodeURIComponent(up.body.url)}`);
    const s = await signInOverHttp(server, "member@test.example");
    const opened = await fetch(link, { headers: { ...navigate, cookie: s.cookie } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toBe("hello file");
  });
});

describe("npm run cli -- set-password", () => {
  const cli = (stdin: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [require.resolve("tsx/cli"), "src/cli.ts", ...args], {
        cwd: path.join(__dirname, "..", ".."),
        env: {
          ...process.env,
          DATA_DIR: server.config.dataDir,
          EXTERNAL_URL: server.url,
          LOG_LEVEL: "silent",
          DATABASE_URL: server.config.databaseUrl ?? "",
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(stdin);
    });

  it("reads the password from stdin, refuses a weak one, and ends the user's sessions", async () => {
    jest.setTimeout(120_000);
    const weak = await cli("short\n", "set-password", "--realm", "", "--email", "admin@test.example");
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain("New password is too weak: it must be at least 10 characters");
    const s = await signInOverHttp(server, "member@test.example");
    const set = await cli("operator chose this one\n", "set-password", "--email", "member@test.example");
    expect(set.stderr).toBe("");
    expect(set.stdout).toContain("Password set for member@test.example");
    expect(set.stdout).not.toContain("operator chose this one");
    expect((await withCookie(server, "GET", "/users/me", s.cookie)).status).toBe(401);
    const key = await fetchApiKey({ username: "member@test.example", password: "operator chose this one" });
    expect(key.status).toBe(200);
    await givePassword(server, server.users.member);
  }, 120_000);
});
