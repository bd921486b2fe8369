// POST /api/v1/external/<name>: unknown integration, authentication and rate limiting.
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const hello = JSON.stringify({
  featured_title: "Kelp forest",
  featured_url: "https://en.wikipedia.org/wiki/Kelp_forest",
});

describe("webhook authentication", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function expectError(
    res: Awaited<ReturnType<typeof postWebhook>>,
    status: number,
    code: string,
    msg: string,
    before: number,
  ) {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ result: "error", code, msg });
    expect(await messagesSince(server, before)).toEqual([]);
  }

  it("answers 404 for an integration that does not exist", async () => {
    const before = await latestMessageId(server);
    await expectError(
      await postWebhook(server, "nosuchthing", { body: hello }),
      404,
      "NOT_FOUND",
      "No integration named 'nosuchthing'",
      before,
    );
  });

  it("requires an api_key", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", { body: hello, apiKey: null, query: { stream: "general" } });
    await expectError(res, 400, "REQUEST_VARIABLE_MISSING", "Missing 'api_key' argument", before);
    expect(res.body.var_name).toBe("api_key");
  });

  it("rejects malformed and unknown keys", async () => {
    const before = await latestMessageId(server);
    await expectError(
      await postWebhook(server, "helloworld", { body: hello, apiKey: "short" }),
      401,
      "INVALID_API_KEY",
      "Malformed API key",
      before,
    );
    await expectError(
      await postWebhook(server, "helloworld", { body: hello, apiKey: "a".repeat(32) }),
      401,
      "INVALID_API_KEY",
      "Invalid API key",
      before,
    );
  });

  it("rejects a deactivated bot and a deactivated organization", async () => {
    const before = await latestMessageId(server);
    const bot = server.users.bot;
    await server.db("users").where("id", bot.id).update({ is_active: false });
    await expectError(
      await postWebhook(server, "helloworld", { body: hello }),
      401,
      "USER_DEACTIVATED",
      "Account is deactivated",
      before,
    );
    await server.db("users").where("id", bot.id).update({ is_active: true });
    await server.db("realms").where("id", server.realm.id).update({ deactivated: true });
    await expectError(
      await postWebhook(server, "helloworld", { body: hello }),
      401,
      "REALM_DEACTIVATED",
      "This organization has been deactivated",
      before,
    );
    await server.db("realms").where("id", server.realm.id).update({ deactivated: false });
  });

  it("accepts HTTP Basic auth instead of api_key", async () => {
    const before = await latestMessageId(server);
    const bot = server.users.bot;
    const res = await postWebhook(server, "helloworld", {
      body: hello,
      apiKey: null,
      query: { stream: "general" },
      headers: { authorization: "Basic " + Buffer.from(`${bot.email}:${bot.apiKey}`).toString("base64") },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await messagesSince(server, before, bot.id)).toHaveLength(1);
  });

  it("rejects Basic auth whose email does not match the key", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "helloworld", {
      body: hello,
      apiKey: null,
      headers: {
        authorization:
          "Basic " + Buffer.from(`${server.users.member.email}:${server.users.bot.apiKey}`).toString("base64"),
      },
    });
    await expectError(res, 401, "INVALID_API_KEY", "Invalid API key", before);
  });
});

describe("webhook limits", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_USER_REQUESTS: "3", MAX_WEBHOOK_BODY_BYTES: "200" });
  });
  afterAll(() => server.close());

  it("refuses a body over the webhook size limit with 413", async () => {
    const before = await latestMessageId(server);
    const body = JSON.stringify({ featured_title: "x".repeat(300), featured_url: "https://example.org/" });
    const res = await postWebhook(server, "helloworld", { body, query: { stream: "general" } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      result: "error",
      code: "REQUEST_TOO_LARGE",
      msg: "Request body is too large: the limit is 200 bytes",
    });
    expect(await messagesSince(server, before)).toEqual([]);
  });
});

// Its own server, so nothing else has counted against the limit: each delivery counts exactly once.
describe("webhook rate limit", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_USER_REQUESTS: "3" });
  });
  afterAll(() => server.close());

  it("allows exactly the configured number of deliveries, then answers 429 with Retry-After", async () => {
    const before = await latestMessageId(server);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof postWebhook>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await postWebhook(server, "helloworld", { body: hello, query: { stream: "general" } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.body).toMatchObject({ result: "error", code: "RATE_LIMIT_HIT", msg: "API usage exceeded rate limit" });
    expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await messagesSince(server, before)).toHaveLength(3);
  });
});

// Senders such as GitHub deliver for many customers from the same IPs: one customer's wrong key must
// not lock the others out. Its own server, so only these attempts count against the IP's budget.
describe("webhook failed-authentication budget", () => {
  const BUDGET = 5;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { RATE_LIMIT_AUTH_FAILURES: String(BUDGET), RATE_LIMIT_WINDOW_SECONDS: "600" },
      { integrations: ["helloworld"] },
    );
  });
  afterAll(() => server.close());

  it("past the IP's budget wrong keys get 429, and a valid key from the same IP is still delivered", async () => {
    const before = await latestMessageId(server);
    const wrong = () => postWebhook(server, "helloworld", { body: hello, apiKey: "w".repeat(32) });
    for (let i = 0; i < BUDGET; i++) expect((await wrong()).status).toBe(401);
    const refused = await wrong();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ result: "error", code: "RATE_LIMIT_HIT" });
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);

    const valid = await postWebhook(server, "helloworld", { body: hello, query: { stream: "general" } });
    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({ result: "success", msg: "" });
    expect(await messagesSince(server, before, server.users.bot.id)).toHaveLength(1);
    // The success gives the guesser nothing back: the next wrong key is still refused.
    expect((await wrong()).status).toBe(429);
  });
});
