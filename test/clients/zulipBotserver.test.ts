// zulip_botserver, unmodified (python-zulip-api's Flask server for outgoing webhooks), running the
// helloworld bot on a loopback port: an outgoing-webhook bot created with POST /bots points at it;
// a mention in a channel and a direct message reach it in the reference's payload (it checks the
// bot's email and token), and its replies ("beep boop", posted with the bot's API key) and its
// reaction appear. The bot server answers response_not_required, so nothing else is posted.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import {
  describeWithClients,
  extractClients,
  pollFor,
  start,
  PYTHON,
  type ClientTree,
  type LongRunning,
} from "../support/realClients";

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describeWithClients("zulip_botserver", {}, () => {
  let server: TestServer;
  let clients: ClientTree;
  let botserver: LongRunning;
  let bot: { id: number; email: string };

  beforeAll(async () => {
    server = await startTestServer();
    clients = extractClients();
    const port = await freePort();
    const member = server.as(server.users.member);
    const created = await member.post("/bots", {
      full_name: "Hello Bot",
      short_name: "hello",
      bot_type: 3,
      payload_url: JSON.stringify(`http://127.0.0.1:${port}/`),
      interface_type: 1,
    });
    expect(created.status).toBe(200);
    bot = { id: created.body.user_id, email: "hello-bot@localhost" };
    const state = await member.post("/register", { fetch_event_types: ["realm_bot"] });
    const { token } = state.body.realm_bots.find((b: { user_id: number }) => b.user_id === bot.id).services[0];
    const rc = path.join(clients.dir, "botserverrc");
    fs.writeFileSync(
      rc,
      `[helloworld]\nemail=${bot.email}\nkey=${created.body.api_key}\nsite=${server.url}\ntoken=${token}\n`,
    );
    botserver = start(
      PYTHON,
      [
        path.join(clients.pythonZulipApi, "zulip_botserver", "zulip_botserver", "server.py"),
        "--config-file",
        rc,
        "--hostname",
        "127.0.0.1",
        "--port",
        String(port),
      ],
      { env: clients.env, cwd: clients.dir },
    );
    // Flask prints its address once it listens.
    await pollFor(
      () => (botserver.output().includes("Running on") ? true : undefined),
      () => `the bot server never started:\n${botserver.output()}`,
    );
  });

  afterAll(async () => {
    await botserver?.stop();
    clients?.remove();
    await server?.close();
  });

  const fromBot = () => server.db("messages").where({ sender_id: bot.id }).orderBy("id");

  it("answers a mention in a channel: beep boop in the same topic, and a wave", async () => {
    const sent = await server.as(server.users.member).post("/messages", {
      type: "stream",
      to: "general",
      topic: "robots",
      content: "@**Hello Bot** hello there",
    });
    expect(sent.status).toBe(200);
    // The bot server posts its reply (with the bot's key) before it answers our delivery.
    await server.deps.webhookOps.outgoing.idle();
    expect(await fromBot()).toMatchObject([
      { type: "stream", stream_id: server.general.id, topic: "robots", content: "beep boop" },
    ]);
    const reactions = await server.db("reactions").where({ message_id: sent.body.id, user_id: bot.id });
    expect(reactions).toMatchObject([{ emoji_name: "wave" }]);
    expect(await server.db("webhook_deliveries").where({ bot_id: bot.id })).toMatchObject([
      { direction: "outgoing", status: 200, outcome: "ignored" },
    ]);
  });

  it("answers a direct message with a direct message", async () => {
    const { member } = server.users;
    const sent = await server.as(member).post("/messages", {
      type: "direct",
      to: JSON.stringify([bot.id]),
      content: "hi bot",
    });
    expect(sent.status).toBe(200);
    await server.deps.webhookOps.outgoing.idle();
    const replies = await fromBot();
    expect(replies.at(-1)).toMatchObject({
      type: "private",
      content: "beep boop",
      dm_key: [member.id, bot.id].sort((a, b) => a - b).join(","),
    });
    expect(botserver.output()).not.toMatch(/Traceback/);
  });
});
