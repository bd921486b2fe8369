// Signed deliveries (manifest `signature`) and PATCH /bots/{bot_id}/webhook_secret.
import crypto from "node:crypto";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const body = JSON.stringify({
  action: "opened",
  issue: { number: 3, title: "t", url: "https://git.example/i/3" },
  repository: { name: "engine" },
  sender: "cy",
});
const sign = (secret: string, text: string) =>
  "sha256=" + crypto.createHmac("sha256", secret).update(text).digest("hex");

describe("webhook signatures and the bot secret endpoint", () => {
  let server: TestServer;
  const secretOf = async (id: number) =>
    (await server.db("users").where("id", id).first("webhook_secret")).webhook_secret;
  const send = (headers: Record<string, string> = {}) =>
    postWebhook(server, "testgit", {
      body,
      query: { stream: "general" },
      headers: { "X-Test-Event": "issue", ...headers },
    });

  beforeAll(async () => {
    server = await startTestServer({ INTEGRATIONS_DIR: path.join(__dirname, "plugins") }, { integrations: "all" });
  });
  afterAll(() => server.close());

  it("lets the bot's owner set a secret; the response never contains it", async () => {
    const res = await server
      .as(server.users.owner)
      .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "s3cr3t-value" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", has_webhook_secret: true });
    expect(JSON.stringify(res.body)).not.toContain("s3cr3t-value");
    expect(await secretOf(server.users.bot.id)).toBe("s3cr3t-value");
  });

  it("accepts a delivery signed with the secret", async () => {
    const before = await latestMessageId(server);
    const res = await send({ "X-Test-Signature": sign("s3cr3t-value", body) });
    expect(res.status).toBe(200);
    expect(await messagesSince(server, before)).toHaveLength(1);
  });

  it("refuses a wrong or missing signature with 401 INVALID_SIGNATURE", async () => {
    const before = await latestMessageId(server);
    const wrong = await send({ "X-Test-Signature": sign("another-secret", body) });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      result: "error",
      code: "INVALID_SIGNATURE",
      msg: "The 'X-Test-Signature' signature does not match the request body",
      header: "X-Test-Signature",
    });
    const truncated = await send({ "X-Test-Signature": sign("s3cr3t-value", body).slice(0, 20) });
    expect(truncated.status).toBe(401);
    const missing = await send();
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      result: "error",
      code: "INVALID_SIGNATURE",
      msg: "Missing the signature header 'X-Test-Signature'",
      header: "X-Test-Signature",
    });
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("lets an administrator clear the secret; unsigned deliveries then pass", async () => {
    const res = await server
      .as(server.users.admin)
      .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "" });
    expect(res.body).toEqual({ result: "success", msg: "", has_webhook_secret: false });
    expect(await secretOf(server.users.bot.id)).toBeNull();
    expect((await send()).status).toBe(200);
  });

  it("refuses other members, non-bots, unknown ids and over-long secrets", async () => {
    const bot = server.users.bot;
    const other = await server.as(server.users.member).patch(`/bots/${bot.id}/webhook_secret`, { secret: "x1" });
    expect([other.status, other.body.code, other.body.msg]).toEqual([400, "BAD_REQUEST", "Insufficient permission"]);
    const human = await server
      .as(server.users.owner)
      .patch(`/bots/${server.users.member.id}/webhook_secret`, { secret: "x1" });
    expect([human.status, human.body.code, human.body.msg]).toEqual([400, "BAD_REQUEST", "No such bot"]);
    const unknown = await server.as(server.users.owner).patch(`/bots/999999/webhook_secret`, { secret: "x1" });
    expect([unknown.status, unknown.body.msg]).toEqual([400, "No such bot"]);
    const long = await server
      .as(server.users.owner)
      .patch(`/bots/${bot.id}/webhook_secret`, { secret: "x".repeat(201) });
    expect([long.status, long.body.code, long.body.msg]).toEqual([
      400,
      "BAD_REQUEST",
      "secret is too long (limit: 200 characters)",
    ]);
    const none = await server.as(server.users.owner).patch(`/bots/${bot.id}/webhook_secret`, {});
    expect([none.status, none.body.code, none.body.msg]).toEqual([
      400,
      "REQUEST_VARIABLE_MISSING",
      "Missing 'secret' argument",
    ]);
    expect(await secretOf(bot.id)).toBeNull();
  });
});

describe("a bot with a secret and an integration that cannot sign", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const hello = () =>
    postWebhook(server, "helloworld", {
      query: { stream: "general" },
      body: JSON.stringify({ featured_title: "Webhooks", featured_url: "https://example.com/w" }),
    });

  it("without a secret, unsigned deliveries are accepted", async () => {
    expect((await hello()).status).toBe(200);
  });

  it("with a secret, the same key can no longer post unsigned deliveries", async () => {
    await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "k3y" });
    const before = await latestMessageId(server);
    const res = await hello();
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      result: "error",
      code: "INVALID_SIGNATURE",
      msg: "This bot has a webhook secret, but Hello World deliveries cannot be signed: use a bot without a secret for this integration",
      integration: "helloworld",
    });
    expect(await messagesSince(server, before)).toHaveLength(0);
  });
});
