// Outgoing-webhook bots (bot_type 3) through the real app: created with POST /bots (payload_url,
// interface_type), managed by their owner and administrators only; a mention in a channel or a
// direct message is POSTed to a real HTTP receiver on loopback in the generic or Slack format, the
// answer posted back as the bot; response_not_required, timeouts with retries and the owner's
// notice, redirects not followed, answers over the size cap, the delivery log, and exactly one
// delivery when two server processes share Redis.
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  startSecondServer,
  startTestServer,
  type SecondServer,
  type TestServer,
  type TestUser,
} from "../support/harness";
import { DEFAULT_OUTGOING_SETTINGS } from "../../src/services/webhooks/outgoing";

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback: records every request and answers by path. */
class Receiver {
  readonly received: Received[] = [];
  private readonly held: http.ServerResponse[] = [];
  private readonly waiters: (() => void)[] = [];
  private server!: http.Server;
  url = "";

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() });
        this.waiters.splice(0).forEach((w) => w());
        this.answer(req.url ?? "", res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private answer(path: string, res: http.ServerResponse): void {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (path.startsWith("/echo")) {
      const body = JSON.parse(this.received.at(-1)!.body) as { data: string };
      return json(200, { content: `echo: ${body.data}` });
    }
    if (path === "/slack") {
      const form = new URLSearchParams(this.received.at(-1)!.body);
      return json(200, { text: `slack saw: ${form.get("text")}` });
    }
    if (path === "/silent") return json(200, { response_not_required: true, content: "must not be posted" });
    if (path === "/hang") return void this.held.push(res); // never answered (until the receiver stops)
    if (path === "/redirect") {
      res.writeHead(302, { location: `${this.url}/target` });
      return void res.end();
    }
    if (path === "/target") return json(200, { content: "followed the redirect" });
    if (path === "/big") return json(200, { content: "x".repeat(5000) });
    if (path.startsWith("/error")) return json(500, { msg: "boom" });
    json(404, {});
  }

  /** Resolves once at least `n` requests have arrived at `path`. */
  async waitFor(path: string, n: number): Promise<void> {
    while (this.at(path).length < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let server: TestServer;
const receiver = new Receiver();
beforeAll(async () => {
  server = await startTestServer();
  await receiver.start();
});
afterAll(async () => {
  await server.close();
  await receiver.stop();
});
afterEach(() => {
  server.deps.webhookOps.outgoing.settings = { ...DEFAULT_OUTGOING_SETTINGS };
});

const outgoing = () => server.deps.webhookOps.outgoing;
let counter = 0;

async function createOutgoingBot(
  user: TestUser,
  path: string,
  params: Record<string, unknown> = {},
): Promise<{ id: number; name: string; email: string; token: string; apiKey: string }> {
  const short = `out${++counter}`;
  const name = `Out Bot ${counter}`;
  const res = await server.as(user).post("/bots", {
    full_name: name,
    short_name: short,
    bot_type: 3,
    // JSON-encoded, as the reference's clients send it.
    payload_url: JSON.stringify(`${receiver.url}${path}`),
    ...params,
  });
  expect(res.status).toBe(200);
  const state = await server.as(user).post("/register", { fetch_event_types: ["realm_bot"] });
  const bot = state.body.realm_bots.find((b: { user_id: number }) => b.user_id === res.body.user_id);
  return {
    id: res.body.user_id,
    name,
    email: `${short}-bot@localhost`,
    token: bot.services[0].token,
    apiKey: res.body.api_key,
  };
}

async function send(user: TestUser, content: string, topic = "bots") {
  const res = await server.as(user).post("/messages", { type: "stream", to: "general", topic, content });
  expect(res.status).toBe(200);
  await outgoing().idle();
  return res.body.id as number;
}

async function dm(user: TestUser, to: number[], content: string) {
  const res = await server.as(user).post("/messages", { type: "direct", to: JSON.stringify(to), content });
  expect(res.status).toBe(200);
  await outgoing().idle();
  return res.body.id as number;
}

const messagesFrom = (senderId: number) => server.db("messages").where({ sender_id: senderId }).orderBy("id");

async function ownerNotices(ownerId: number): Promise<string[]> {
  const rows = await server
    .db("messages")
    .where({ sender_id: server.realm.notification_bot_id!, type: "private" })
    .andWhere("dm_key", "like", `%${ownerId}%`)
    .orderBy("id");
  return rows.map((r: { content: string }) => r.content);
}

describe("creating and managing outgoing-webhook bots", () => {
  it("stores the service: realm_bots shows its URL, interface and token", async () => {
    const { member } = server.users;
    const bot = await createOutgoingBot(member, "/echo", { interface_type: 2 });
    const state = await server.as(member).post("/register", { fetch_event_types: ["realm_bot"] });
    const dict = state.body.realm_bots.find((b: { user_id: number }) => b.user_id === bot.id);
    expect(dict.services).toEqual([{ base_url: `${receiver.url}/echo`, interface: 2, token: bot.token }]);
    expect(bot.token).toMatch(/^[A-Za-z0-9]{32}$/);
    const row = await server.db("users").where({ id: bot.id }).first();
    expect(row).toMatchObject({ bot_type: 3, bot_owner_id: member.id });
  });

  it("refuses bad payload URLs and interface types, writing nothing", async () => {
    const { member } = server.users;
    const before = {
      users: await server.db("users").count("* as n"),
      services: await server.db("bot_services").count("* as n"),
    };
    const cases: [Record<string, unknown>, string][] = [
      [{}, "payload_url is required for outgoing webhook bots"],
      [{ payload_url: JSON.stringify("") }, "payload_url is required for outgoing webhook bots"],
      [{ payload_url: "not a url" }, "payload_url is not a URL"],
      [{ payload_url: "ftp://127.0.0.1/bot" }, "payload_url must be an http:// or https:// URL"],
      [{ payload_url: "file:///etc/passwd" }, "payload_url must be an http:// or https:// URL"],
      [{ payload_url: "http://user:secret@127.0.0.1/" }, "payload_url must not contain a user name or password"],
      [{ payload_url: `http://127.0.0.1/${"a".repeat(2000)}` }, "payload_url is too long (limit: 2000 characters)"],
      [{ payload_url: "http://127.0.0.1/", interface_type: 3 }, "Invalid interface type"],
    ];
    for (const [params, msg] of cases) {
      const res = await server
        .as(member)
        .post("/bots", { full_name: "Bad Out", short_name: "badout", bot_type: 3, ...params });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg });
    }
    expect({
      users: await server.db("users").count("* as n"),
      services: await server.db("bot_services").count("* as n"),
    }).toEqual(before);
  });

  it("lets only the bot's owner and administrators change its URL", async () => {
    const { member, other, admin, guest } = server.users;
    const bot = await createOutgoingBot(member, "/echo");
    const url = `${receiver.url}/slack`;
    const refused = await server.as(other).patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(url) });
    expect(refused.body).toMatchObject({ result: "error", msg: "Insufficient permission" });
    const byGuest = await server.as(guest).patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(url) });
    expect(byGuest.body).toMatchObject({ result: "error", msg: "Not allowed for guest users" });
    expect(await server.db("bot_services").where({ bot_id: bot.id }).first()).toMatchObject({
      base_url: `${receiver.url}/echo`,
    });
    const bad = await server.as(member).patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify("gopher://x") });
    expect(bad.body).toMatchObject({ result: "error", msg: "payload_url must be an http:// or https:// URL" });

    const byOwner = await server.as(member).patch(`/bots/${bot.id}`, {
      service_payload_url: JSON.stringify(url),
      service_interface: 2,
    });
    expect(byOwner.body).toMatchObject({ result: "success", service_payload_url: url, service_interface: 2 });
    const byAdmin = await server.as(admin).patch(`/bots/${bot.id}`, { service_payload_url: `${receiver.url}/echo` });
    expect(byAdmin.body).toMatchObject({ result: "success", service_interface: 1 });
    expect(await server.db("bot_services").where({ bot_id: bot.id }).first()).toMatchObject({
      base_url: `${receiver.url}/echo`,
      interface: 1,
    });
    const guestCreates = await server.as(guest).post("/bots", {
      full_name: "Guest Out",
      short_name: "guestout",
      bot_type: 3,
      payload_url: `${receiver.url}/echo`,
    });
    expect(guestCreates.body).toMatchObject({ result: "error", msg: "Not allowed for guest users" });
  });
});

describe("deliveries", () => {
  it("posts a channel mention in the generic format and posts the answer back as the bot", async () => {
    const { member } = server.users;
    const bot = await createOutgoingBot(member, "/echo-generic");
    const content = `@**${bot.name}** what time is it?`;
    const id = await send(member, content, "clock");
    const [request] = receiver.at("/echo-generic");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toMatch(/^ZulipOutgoingWebhook\//);
    const payload = JSON.parse(request.body);
    expect(Object.keys(payload).sort()).toEqual(["bot_email", "bot_full_name", "data", "message", "token", "trigger"]);
    expect(payload).toMatchObject({
      bot_email: bot.email,
      bot_full_name: bot.name,
      data: content,
      token: bot.token,
      trigger: "mention",
      message: {
        id,
        type: "stream",
        content,
        display_recipient: "general",
        stream_id: server.general.id,
        subject: "clock",
        sender_id: member.id,
        sender_email: member.email,
        sender_full_name: member.full_name,
        client: "API",
        reactions: [],
        submessages: [],
      },
    });
    expect(payload.message.rendered_content).toContain(`data-user-id="${bot.id}"`);
    expect(payload.message.flags).toBeUndefined();
    const [reply] = await messagesFrom(bot.id);
    expect(reply).toMatchObject({
      type: "stream",
      stream_id: server.general.id,
      topic: "clock",
      content: `echo: ${content}`,
      client: "OutgoingWebhookResponse",
    });
  });

  it("replies into a private channel that mentioned it though it is not subscribed there", async () => {
    const { member } = server.users;
    const bot = await createOutgoingBot(member, "/echo-private");
    const created = await server.as(member).post("/users/me/subscriptions", {
      subscriptions: JSON.stringify([{ name: "hideout" }]),
      invite_only: true,
    });
    expect(created.status).toBe(200);
    const res = await server.as(member).post("/messages", {
      type: "stream",
      to: "hideout",
      topic: "plans",
      content: `@**${bot.name}** ping`,
    });
    expect(res.status).toBe(200);
    await outgoing().idle();
    const [reply] = await messagesFrom(bot.id);
    expect(reply).toMatchObject({ type: "stream", topic: "plans", content: `echo: @**${bot.name}** ping` });
    const hideout = await server.db("streams").where({ realm_id: server.realm.id, name: "hideout" }).first();
    expect(reply.stream_id).toBe(hideout.id);
    expect(await server.db("subscriptions").where({ user_id: bot.id, stream_id: hideout.id })).toEqual([]);
    // Only the reply to the triggering conversation: the bot still may not post there itself.
    const botUser: TestUser = { ...(await server.db("users").where({ id: bot.id }).first()), apiKey: bot.apiKey };
    const direct = await server
      .as(botUser)
      .post("/messages", { type: "stream", to: "hideout", topic: "plans", content: "uninvited" });
    expect(direct.status).toBe(400);
    expect(direct.body.msg).toBe("Not authorized to send to channel 'hideout'");
  });

  it("marks the triggering message read for the bot after a successful delivery only", async () => {
    const { member } = server.users;
    const answering = await createOutgoingBot(member, "/echo-read");
    const failing = await createOutgoingBot(member, "/error-read");
    const readFlag = async (botId: number, messageId: number) => {
      const row = await server.db("user_messages").where({ user_id: botId, message_id: messageId }).first();
      return (Number(row.flags) & 1) !== 0;
    };
    const answered = await dm(member, [answering.id], "are you there?");
    expect(await messagesFrom(answering.id)).toHaveLength(1);
    expect(await readFlag(answering.id, answered)).toBe(true);
    const failed = await dm(member, [failing.id], "are you there?");
    expect(await readFlag(failing.id, failed)).toBe(false);
  });

  it("is triggered only by a real mention or a direct message, never by a bot", async () => {
    const { member, genericBot } = server.users;
    const bot = await createOutgoingBot(member, "/echo-triggers");
    await send(member, `no mention of ${bot.name} here`);
    await send(member, `\`\`\`\n@**${bot.name}** in a code block\n\`\`\``);
    await send(genericBot, `@**${bot.name}** from another bot`);
    await send(member, `@_**${bot.name}** silently`);
    expect(receiver.at("/echo-triggers")).toHaveLength(0);

    await dm(member, [bot.id], "hello in private");
    const [request] = receiver.at("/echo-triggers");
    const payload = JSON.parse(request.body);
    expect(payload).toMatchObject({
      trigger: "direct_message",
      data: "hello in private",
      message: { type: "private" },
    });
    expect(
      payload.message.display_recipient.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b),
    ).toEqual([member.id, bot.id].sort((a, b) => a - b));
    const [reply] = await messagesFrom(bot.id);
    expect(reply).toMatchObject({ type: "private", content: "echo: hello in private" });
    expect(reply.dm_key).toBe([member.id, bot.id].sort((a, b) => a - b).join(","));
  });

  it("posts nothing when the answer says response_not_required", async () => {
    const { member } = server.users;
    const bot = await createOutgoingBot(member, "/silent");
    const before = receiver.at("/silent").length;
    await send(member, `@**${bot.name}** shh`);
    expect(receiver.at("/silent")).toHaveLength(before + 1);
    expect(await messagesFrom(bot.id)).toEqual([]);
    const log = await server.db("webhook_deliveries").where({ bot_id: bot.id });
    expect(log).toMatchObject([{ direction: "outgoing", outcome: "ignored", status: 200 }]);
  });

  it("speaks the Slack-compatible format (form fields, `text` answer) and refuses its direct messages", async () => {
    const { member } = server.users;
    const bot = await createOutgoingBot(member, "/slack", { interface_type: 2 });
    const id = await send(member, `@**${bot.name}** slack me`, "slacky");
    const [request] = receiver.at("/slack");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const form = Object.fromEntries(new URLSearchParams(request.body));
    const sent = await server.db("messages").where({ id }).first();
    expect(form).toEqual({
      token: bot.token,
      team_id: `T${server.realm.id}`,
      team_domain: "localhost:9991",
      channel_id: `C${server.general.id}`,
      channel_name: "general",
      thread_ts: String(sent.date_sent),
      timestamp: String(sent.date_sent),
      user_id: `U${member.id}`,
      user_name: member.full_name,
      text: `@**${bot.name}** slack me`,
      trigger_word: "mention",
      service_id: String(bot.id),
    });
    expect((await messagesFrom(bot.id)).map((m: { content: string; topic: string }) => [m.topic, m.content])).toEqual([
      ["slacky", `slack saw: @**${bot.name}** slack me`],
    ]);

    await dm(member, [bot.id], "private to slack");
    expect(receiver.at("/slack")).toHaveLength(1);
    const replies = await messagesFrom(bot.id);
    expect(replies.at(-1)).toMatchObject({
      type: "private",
      content: "Failure! Slack outgoing webhooks don't support direct messages.",
    });
  });

  it("times out, retries with backoff, then says so and tells the owner; sends never wait for it", async () => {
    const { member, owner } = server.users;
    outgoing().settings = { ...DEFAULT_OUTGOING_SETTINGS, timeoutMs: 300, backoffMs: 10, maxRetries: 3 };
    const bot = await createOutgoingBot(member, "/hang");
    const res = await server.as(owner).post("/messages", {
      type: "stream",
      to: "general",
      topic: "slow",
      content: `@**${bot.name}** are you there?`,
    });
    expect(res.status).toBe(200);
    // The bot's server holds the request; the next send is answered all the same.
    await receiver.waitFor("/hang", 1);
    const next = await server
      .as(owner)
      .post("/messages", { type: "stream", to: "general", topic: "slow", content: "meanwhile" });
    expect(next.status).toBe(200);
    await outgoing().idle();

    expect(receiver.at("/hang")).toHaveLength(4); // the first try and 3 retries
    const replies = await messagesFrom(bot.id);
    expect(replies).toMatchObject([{ topic: "slow", content: "Failure! Bot is unavailable" }]);
    const notice = (await ownerNotices(member.id)).at(-1)!;
    expect(notice).toContain(
      `[A message](http://localhost:9991/#narrow/channel/${server.general.id}-general/topic/slow/near/${res.body.id})`,
    );
    expect(notice).toContain(`to your bot @_**${bot.name}** triggered an outgoing webhook.`);
    expect(notice).toContain("Request timed out after 0.3 seconds.");
    const log = await server.db("webhook_deliveries").where({ bot_id: bot.id }).orderBy("id");
    expect(log.map((r: { code: string; direction: string }) => [r.direction, r.code])).toEqual(
      Array(4).fill(["outgoing", "TIMEOUT"]),
    );
    expect(log[0].error).toBe("Request timed out after 0.3 seconds. Retry 1 of 3 in 10 ms.");
    expect(log[2].error).toBe("Request timed out after 0.3 seconds. Retry 3 of 3 in 40 ms.");
    for (const row of log) expect(Buffer.from(row.body).toString()).not.toContain(bot.token);
  });

  it("retries a refused connection and tells the owner the bot server seems down", async () => {
    const { member } = server.users;
    outgoing().settings = { ...DEFAULT_OUTGOING_SETTINGS, backoffMs: 1, maxRetries: 2 };
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const bot = await createOutgoingBot(member, "/unused", { payload_url: `http://127.0.0.1:${port}/bot` });
    await send(member, `@**${bot.name}** hello?`);
    const log = await server.db("webhook_deliveries").where({ bot_id: bot.id });
    expect(log.map((r: { code: string }) => r.code)).toEqual([
      "CONNECTION_ERROR",
      "CONNECTION_ERROR",
      "CONNECTION_ERROR",
    ]);
    expect(await messagesFrom(bot.id)).toMatchObject([{ content: "Failure! Bot is unavailable" }]);
    expect((await ownerNotices(member.id)).at(-1)).toContain("A connection error occurred. Is my bot server down?");
  });

  it("does not follow redirects", async () => {
    const { member } = server.users;
    const bot = await createOutgoingBot(member, "/redirect");
    await send(member, `@**${bot.name}** go elsewhere`);
    expect(receiver.at("/redirect")).toHaveLength(1);
    expect(receiver.at("/target")).toHaveLength(0);
    expect(await messagesFrom(bot.id)).toMatchObject([{ content: "Failure! Third party responded with 302" }]);
    expect((await ownerNotices(member.id)).at(-1)).toContain("The webhook got a response with status code *302*.");
    expect(await server.db("webhook_deliveries").where({ bot_id: bot.id })).toMatchObject([
      { status: 302, code: "HTTP_ERROR", error: "Third party responded with 302 (redirects are not followed)" },
    ]);
  });

  it("reports an error status with the answer's payload, without retrying", async () => {
    const { member } = server.users;
    const bot = await createOutgoingBot(member, "/error");
    await send(member, `@**${bot.name}** break`);
    expect(receiver.at("/error")).toHaveLength(1);
    expect(await messagesFrom(bot.id)).toMatchObject([{ content: "Failure! Third party responded with 500" }]);
    const notice = (await ownerNotices(member.id)).at(-1)!;
    expect(notice).toContain("The webhook got a response with status code *500*.");
    expect(notice).toContain('The response contains the following payload:\n```\n{"msg":"boom"}\n```');
  });

  it("caps the answer's size: a bigger one is a failure, not a reply", async () => {
    const { member } = server.users;
    outgoing().settings = { ...DEFAULT_OUTGOING_SETTINGS, maxResponseBytes: 1000 };
    const bot = await createOutgoingBot(member, "/big");
    await send(member, `@**${bot.name}** say a lot`);
    const text = "The bot's response is larger than the limit (OUTGOING_WEBHOOK_MAX_RESPONSE_BYTES, 1000 bytes).";
    expect(await messagesFrom(bot.id)).toMatchObject([{ content: `Failure! ${text}` }]);
    expect(await server.db("webhook_deliveries").where({ bot_id: bot.id })).toMatchObject([
      { status: 200, code: "RESPONSE_TOO_LARGE", error: text },
    ]);
  });

  it("shows outgoing deliveries in the delivery log, without the token, and does not replay them", async () => {
    const { member, other } = server.users;
    const bot = await createOutgoingBot(member, "/echo-log");
    const id = await send(member, `@**${bot.name}** log me`);
    const list = await server.as(member).get("/webhooks/deliveries", { bot_id: bot.id });
    expect(list.body.deliveries).toMatchObject([
      {
        bot_id: bot.id,
        direction: "outgoing",
        integration: "outgoing-webhook",
        event: "mention",
        delivery_id: String(id),
        status: 200,
        outcome: "message",
      },
    ]);
    const [entry] = list.body.deliveries;
    const [reply] = await messagesFrom(bot.id);
    expect(entry.message_ids).toEqual([reply.id]);
    const detail = await server.as(member).get(`/webhooks/deliveries/${entry.id}`);
    expect(detail.body.delivery.body).toContain('"data":"@**');
    expect(detail.body.delivery.body).not.toContain(bot.token);
    expect(JSON.stringify(detail.body)).not.toContain(bot.token);
    const replay = await server.as(member).post(`/webhooks/deliveries/${entry.id}/replay`);
    expect(replay.status).toBe(400);
    expect(replay.body.msg).toBe(
      "This is a delivery to an outgoing-webhook bot: only received deliveries can be replayed",
    );
    // Another member sees nothing of it.
    expect((await server.as(other).get("/webhooks/deliveries", { bot_id: bot.id })).body.deliveries).toEqual([]);
  });
});

describe("several server processes", () => {
  let first: TestServer;
  let second: SecondServer;
  beforeAll(async () => {
    first = await startTestServer({ REDIS_URL: "redis://127.0.0.1:6379" });
    second = await startSecondServer(first);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("delivers each message exactly once: from the process that committed it", async () => {
    const { member } = first.users;
    const res = await first.as(member).post("/bots", {
      full_name: "Shared Bot",
      short_name: "shared",
      bot_type: 3,
      payload_url: `${receiver.url}/echo-shared`,
    });
    expect(res.status).toBe(200);
    const viaSecond = await second.as(member).post("/messages", {
      type: "stream",
      to: "general",
      topic: "shared",
      content: "@**Shared Bot** from the second process",
    });
    const viaFirst = await first.as(member).post("/messages", {
      type: "stream",
      to: "general",
      topic: "shared",
      content: "@**Shared Bot** from the first process",
    });
    await Promise.all([first.deps.webhookOps.outgoing.idle(), second.deps.webhookOps.outgoing.idle()]);
    const ids = receiver.at("/echo-shared").map((r) => JSON.parse(r.body).message.id);
    expect(ids.sort()).toEqual([viaSecond.body.id, viaFirst.body.id].sort());
    const replies = await first.db("messages").where({ sender_id: res.body.user_id });
    expect(replies).toHaveLength(2);
  });
});
