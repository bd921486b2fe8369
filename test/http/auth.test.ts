// HTTP Basic and webhook authentication (src/http/auth.ts) called directly with real Koa contexts on
// a real seeded database, with small rate-limit budgets of their own: who gets in, what a refusal
// says, and which budget each attempt spends.
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import Koa, { type Context } from "koa";
import type { AppDeps } from "../../src/deps";
import {
  authenticateCredentials,
  authenticateWebhook,
  hostSubdomain,
  limitByIp,
  parseBasicAuth,
  requireUser,
} from "../../src/http/auth";
import { createRateLimits } from "../../src/http/rateLimit";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { refusalOfAsync } from "../support/apiErrors";

describe("parseBasicAuth", () => {
  const basic = (text: string) => "Basic " + Buffer.from(text).toString("base64");

  it("splits email and key at the first colon", () => {
    expect(parseBasicAuth(basic("a@x:key"))).toEqual({ email: "a@x", key: "key" });
    expect(parseBasicAuth(basic("a@x:k:e:y"))).toEqual({ email: "a@x", key: "k:e:y" });
    expect(parseBasicAuth(basic(":key"))).toEqual({ email: "", key: "key" });
  });

  it("accepts any case of the scheme and surrounding space", () => {
    const encoded = Buffer.from("a@x:key").toString("base64");
    expect(parseBasicAuth(`  basic   ${encoded}  `)).toEqual({ email: "a@x", key: "key" });
    expect(parseBasicAuth(`BASIC ${encoded}`)).toEqual({ email: "a@x", key: "key" });
  });

  it("gives nothing for absent, other-scheme, empty or colon-less credentials", () => {
    expect(parseBasicAuth(undefined)).toBeUndefined();
    expect(parseBasicAuth("")).toBeUndefined();
    expect(parseBasicAuth("Bearer abc")).toBeUndefined();
    expect(parseBasicAuth("Basic")).toBeUndefined();
    expect(parseBasicAuth("xBasic " + Buffer.from("a:b").toString("base64"))).toBeUndefined();
    expect(parseBasicAuth(basic("no-colon"))).toBeUndefined();
  });
});

describe("hostSubdomain", () => {
  it("names the organization's subdomain of the root domain, ignoring port and case", () => {
    expect(hostSubdomain("acme.chat.example", "chat.example")).toBe("acme");
    expect(hostSubdomain("ACME.Chat.Example:8080", "chat.example")).toBe("acme");
    expect(hostSubdomain("a.b.chat.example", "chat.example")).toBe("a.b");
  });

  it("gives nothing for the root domain itself, other domains and bare IPs", () => {
    expect(hostSubdomain("chat.example", "chat.example")).toBeUndefined();
    expect(hostSubdomain("chat.example:443", "chat.example")).toBeUndefined();
    expect(hostSubdomain("evilchat.example", "chat.example")).toBeUndefined();
    expect(hostSubdomain("127.0.0.1:9991", "chat.example")).toBeUndefined();
  });
});

describe("authentication against the database", () => {
  let server: TestServer;
  let deps: AppDeps;
  const FAILURES = 3;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    // Fresh, small budgets for every test: what each attempt spends is then exact.
    deps = {
      ...server.deps,
      rateLimits: createRateLimits({
        enabled: true,
        userRequests: 50,
        ipRequests: 40,
        windowSeconds: 600,
        authFailures: FAILURES,
      }),
    };
  });

  /** A real Koa context for a request from `ip` with the given headers. */
  function context(headers: Record<string, string> = {}, ip = "10.0.0.1"): Context {
    const req = new IncomingMessage(new Socket());
    req.headers = { host: "127.0.0.1:9991", ...headers };
    req.method = "GET";
    req.url = "/api/v1/users/me";
    const ctx = new Koa().createContext(req, new ServerResponse(req));
    ctx.request.ip = ip;
    return ctx;
  }
  const basicFor = (email: string, key: string) => ({
    authorization: "Basic " + Buffer.from(`${email}:${key}`).toString("base64"),
  });
  const wrongKey = "w".repeat(32);

  async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; msg: string }> {
    const err = await refusalOfAsync(promise);
    return { status: err.status, code: err.code, msg: err.message };
  }
  const spent = async (limiter: keyof AppDeps["rateLimits"], key: string) => {
    const res = await (deps.rateLimits[limiter] as AppDeps["rateLimits"]["byIp"]).get(key);
    return res?.consumedPoints ?? 0;
  };

  describe("requireUser", () => {
    it("lets a user in, setting user and realm and spending one request of the user's budget", async () => {
      const { member } = server.users;
      const ctx = context(basicFor(member.email, member.apiKey));
      let reached = false;
      await requireUser(deps)(ctx, async () => {
        reached = true;
      });
      expect([reached, ctx.state.user.id, ctx.state.realm.id]).toEqual([true, member.id, server.realm.id]);
      expect(await spent("byUser", `user:${member.id}`)).toBe(1);
      expect(ctx.response.get("X-RateLimit-Limit")).toBe("50");
      expect(await spent("byIp", "10.0.0.1")).toBe(0);
    });

    it("refuses a request without credentials as not logged in, spending the IP's budget", async () => {
      const ctx = context();
      expect(await refusal(requireUser(deps)(ctx, async () => undefined))).toEqual({
        status: 401,
        code: "UNAUTHORIZED",
        msg: "Not logged in: API authentication or user session required",
      });
      expect(await spent("byIp", "10.0.0.1")).toBe(1);
      expect(ctx.state.user).toBeUndefined();
    });

    it("answers a wrong key as 401 UNAUTHORIZED on the REST API", async () => {
      const { member } = server.users;
      expect(
        await refusal(requireUser(deps)(context(basicFor(member.email, wrongKey)), async () => undefined)),
      ).toEqual({ status: 401, code: "UNAUTHORIZED", msg: "Invalid API key" });
      expect(await refusal(requireUser(deps)(context(basicFor(member.email, "short")), async () => undefined))).toEqual(
        {
          status: 401,
          code: "UNAUTHORIZED",
          msg: "Malformed API key",
        },
      );
    });

    it("keeps other refusals as they are", async () => {
      const ctx = context({
        ...basicFor(server.users.member.email, server.users.member.apiKey),
        host: "elsewhere.localhost:9991",
      });
      const refused = await refusal(
        requireUser({ ...deps, config: { ...deps.config, rootDomain: "localhost" } })(ctx, async () => undefined),
      );
      expect(refused).toEqual({
        status: 401,
        code: "UNAUTHORIZED",
        msg: "Account is not associated with this subdomain",
      });
    });

    it("keeps refusals other than a bad key under their own code", async () => {
      const { guest } = server.users;
      await server.db("users").where({ id: guest.id }).update({ is_active: false });
      try {
        expect(
          await refusal(requireUser(deps)(context(basicFor(guest.email, guest.apiKey)), async () => undefined)),
        ).toEqual({
          status: 401,
          code: "USER_DEACTIVATED",
          msg: "Account is deactivated",
        });
      } finally {
        await server.db("users").where({ id: guest.id }).update({ is_active: true });
      }
    });

    it("keeps incoming-webhook bots out unless the route allows them", async () => {
      const { bot } = server.users;
      const ctx = context(basicFor(bot.email, bot.apiKey));
      expect(await refusal(requireUser(deps)(ctx, async () => undefined))).toEqual({
        status: 400,
        code: "BAD_REQUEST",
        msg: "This API is not available to incoming webhook bots.",
      });
      expect(await spent("byUser", `user:${bot.id}`)).toBe(0);
      const allowed = context(basicFor(bot.email, bot.apiKey));
      await requireUser(deps, { allowWebhookBots: true })(allowed, async () => undefined);
      expect(allowed.state.user.id).toBe(bot.id);
      expect(await spent("byUser", `user:${bot.id}`)).toBe(1);
      const generic = context(basicFor(server.users.genericBot.email, server.users.genericBot.apiKey));
      await requireUser(deps)(generic, async () => undefined);
      expect(generic.state.user.id).toBe(server.users.genericBot.id);
    });
  });

  describe("failed-authentication budgets", () => {
    const tryKey = (user: Pick<TestUser, "email">, key: string, ip: string) =>
      authenticateCredentials(deps, context({}, ip), key, user.email);

    it("counts each wrong key once against the IP and once against the email (case-insensitively)", async () => {
      const { member } = server.users;
      await refusal(tryKey({ email: member.email.toUpperCase() }, wrongKey, "10.1.1.1"));
      expect(await spent("authFailuresByIp", "10.1.1.1")).toBe(1);
      expect(await spent("authFailuresByEmail", member.email.toLowerCase())).toBe(1);
      await refusal(tryKey(member, wrongKey, "10.1.1.1"));
      expect(await spent("authFailuresByIp", "10.1.1.1")).toBe(2);
      expect(await spent("authFailuresByEmail", member.email)).toBe(2);
    });

    it("counts a key used on another organization's host as a failed authentication", async () => {
      const { member } = server.users;
      const elsewhere = { ...deps, config: { ...deps.config, rootDomain: "localhost" } };
      const ctx = context({ host: "elsewhere.localhost" }, "10.9.9.9");
      expect((await refusal(authenticateCredentials(elsewhere, ctx, member.apiKey, member.email))).code).toBe(
        "UNAUTHORIZED",
      );
      expect(await spent("authFailuresByIp", "10.9.9.9")).toBe(1);
      expect(await spent("authFailuresByEmail", member.email)).toBe(1);
    });

    it("does not count a correct key, or refusals that are not about the credentials", async () => {
      const { member, guest } = server.users;
      await tryKey(member, member.apiKey, "10.2.2.2");
      await server.db("users").where({ id: guest.id }).update({ is_active: false });
      try {
        expect(await refusal(tryKey(guest, guest.apiKey, "10.2.2.2"))).toEqual({
          status: 401,
          code: "USER_DEACTIVATED",
          msg: "Account is deactivated",
        });
      } finally {
        await server.db("users").where({ id: guest.id }).update({ is_active: true });
      }
      expect(await spent("authFailuresByIp", "10.2.2.2")).toBe(0);
      expect(await spent("authFailuresByEmail", guest.email)).toBe(0);
    });

    it("answers further wrong keys from an IP past its budget with 429, while correct keys from it still work", async () => {
      const { member, other } = server.users;
      const ip = "10.3.3.3";
      for (let i = 0; i < FAILURES; i++)
        expect((await refusal(tryKey({ email: `nobody${i}@x` }, wrongKey, ip))).code).toBe("INVALID_API_KEY");
      expect(await refusal(tryKey({ email: "last@x" }, wrongKey, ip))).toEqual({
        status: 429,
        code: "RATE_LIMIT_HIT",
        msg: "API usage exceeded rate limit",
      });
      // A shared IP (a webhook sender's, a NAT's): other users' valid keys are not refused for its failures,
      // and a success does not give the IP its budget back.
      expect((await tryKey(member, member.apiKey, ip)).user.id).toBe(member.id);
      expect((await tryKey(other, other.apiKey, ip)).user.id).toBe(other.id);
      expect((await refusal(tryKey({ email: "again@x" }, wrongKey, ip))).code).toBe("RATE_LIMIT_HIT");
      expect(await spent("authFailuresByIp", ip)).toBe(FAILURES + 2);
    });

    it("answers further wrong keys for an email past its budget with 429, while its right key still works", async () => {
      const { other } = server.users;
      for (let i = 0; i < FAILURES; i++)
        expect((await refusal(tryKey(other, wrongKey, `10.4.4.${i}`))).code).toBe("INVALID_API_KEY");
      expect((await refusal(tryKey(other, wrongKey, "10.4.4.50"))).code).toBe("RATE_LIMIT_HIT");
      expect((await refusal(tryKey(other, wrongKey, "10.4.4.51"))).code).toBe("RATE_LIMIT_HIT");
      expect((await tryKey(other, other.apiKey, "10.4.4.52")).user.id).toBe(other.id);
    });

    it("spends no email budget for a key given without an email", async () => {
      await refusal(authenticateCredentials(deps, context({}, "10.5.5.5"), wrongKey, undefined));
      expect(await spent("authFailuresByIp", "10.5.5.5")).toBe(1);
      expect(await spent("authFailuresByEmail", "")).toBe(0);
      expect(await spent("authFailuresByEmail", "undefined")).toBe(0);
    });

    it("counts nothing when rate limiting is off", async () => {
      const off = { ...deps, rateLimits: { ...deps.rateLimits, enabled: false } };
      for (let i = 0; i < FAILURES + 2; i++)
        expect((await refusal(authenticateCredentials(off, context({}, "10.6.6.6"), wrongKey, "x@y"))).code).toBe(
          "INVALID_API_KEY",
        );
      expect(await spent("authFailuresByIp", "10.6.6.6")).toBe(0);
    });
  });

  describe("limitByIp", () => {
    it("spends one request of the IP's budget and goes on", async () => {
      const ctx = context({}, "10.7.7.7");
      let reached = false;
      await limitByIp(deps)(ctx, async () => {
        reached = true;
      });
      expect([reached, await spent("byIp", "10.7.7.7"), ctx.response.get("X-RateLimit-Limit")]).toEqual([
        true,
        1,
        "40",
      ]);
    });
  });

  describe("authenticateWebhook", () => {
    it("takes the bot's key from the URL, ignoring any Basic email", async () => {
      const { bot, member } = server.users;
      const ctx = context(basicFor(member.email, member.apiKey), "10.8.8.1");
      const actor = await authenticateWebhook(deps, ctx, { api_key: bot.apiKey });
      expect(actor.user.id).toBe(bot.id);
      expect(await spent("byUser", `user:${bot.id}`)).toBe(1);
    });

    it("takes Basic credentials when the URL has no key, checking their email", async () => {
      const { bot, member } = server.users;
      const actor = await authenticateWebhook(deps, context(basicFor(bot.email, bot.apiKey)), {});
      expect(actor.user.id).toBe(bot.id);
      expect(await refusal(authenticateWebhook(deps, context(basicFor(member.email, bot.apiKey)), {}))).toEqual({
        status: 401,
        code: "INVALID_API_KEY",
        msg: "Invalid API key",
      });
    });

    it("refuses a delivery without any key as a missing api_key, spending the IP's budget", async () => {
      expect(await refusal(authenticateWebhook(deps, context({}, "10.8.8.9"), {}))).toEqual({
        status: 400,
        code: "REQUEST_VARIABLE_MISSING",
        msg: "Missing 'api_key' argument",
      });
      expect(await spent("byIp", "10.8.8.9")).toBe(1);
    });
  });
});
