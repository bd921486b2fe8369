// Slack through the real app and database: the Events API's url_verification answer, names from
// Slack's users.info and conversations.info with the app token (stubbed with nock from the
// plugin's own api_responses/, and the shared corpus' when present), Slack's `{"ok": false}`
// answers, a channel per Slack channel, the legacy outgoing webhook's form body, and bots left out.
import fs from "node:fs";
import path from "node:path";
import nock from "nock";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const PLUGIN = path.join(__dirname, "..", "..", "integrations", "slack");
const read = (...parts: string[]) => fs.readFileSync(path.join(PLUGIN, ...parts), "utf8");
const json = (...parts: string[]) => JSON.parse(read(...parts));
const TOKEN = "xoxb-4471205-ORCHARDTOKEN";
const SLACK = "https://slack.com";
const FORM = "application/x-www-form-urlencoded";

/** Our message.json with another text. */
function eventWith(text: string, event: Record<string, unknown> = {}): string {
  const body = json("fixtures", "message.json");
  return JSON.stringify({
    ...body,
    event_id: `Ev${Math.random().toString(36).slice(2, 12)}`,
    event: { ...body.event, text, ...event },
  });
}

describe("Slack", () => {
  let server: TestServer;
  const logLines: string[] = [];
  const post = (body: string, query: Record<string, string> = {}, contentType = "application/json") =>
    postWebhook(server, "slack", { body, contentType, query: { stream: "general", ...query } });
  const posted = async (body: string, query: Record<string, string> = {}, contentType?: string) => {
    const before = await latestMessageId(server);
    const res = await post(body, query, contentType);
    expect([res.status, res.body.result]).toEqual([200, "success"]);
    return messagesSince(server, before, server.users.bot.id);
  };
  const stubNames = (user = json("api_responses", "users.info.json")) => {
    const headers = { reqheaders: { authorization: `Bearer ${TOKEN}` } };
    return [
      nock(SLACK, headers).get("/api/users.info").query({ user: "U0MIREILLE" }).reply(200, user),
      nock(SLACK, headers)
        .get("/api/conversations.info")
        .query({ channel: "C0HARVEST1" })
        .reply(200, json("api_responses", "conversations.info.json")),
    ];
  };
  const channelId = async (name: string) => (await server.db("streams").where({ name }).first())?.id as number;

  beforeAll(async () => {
    server = await startTestServer(
      { LOG_LEVEL: "debug" },
      { integrations: ["slack"], logDestination: { write: (line: string) => logLines.push(line) } },
    );
    const res = await server
      .as(server.users.owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "harvest" }, { name: "Slack general" }] });
    expect(res.status).toBe(200);
  });
  afterAll(() => server.close());
  afterEach(() => nock.cleanAll());

  it("answers url_verification with the challenge and posts nothing", async () => {
    const body = read("fixtures", "ignore__url_verification.json");
    const before = await latestMessageId(server);
    const res = await post(body);
    expect([res.status, res.body]).toEqual([
      200,
      { result: "success", msg: "", challenge: "kP3xR8vN2qL7wZ5tY9mB4cH6jD1fG0sA" },
    ]);
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("names the sender, the channel and their mentions from Slack's API, sending the token only there", async () => {
    const scopes = stubNames();
    const text = "<@U0MIREILLE> asks <@U0TOMASZ01> to keep <#C0HARVEST1> for *picking*; <!here>";
    const stored = await posted(eventWith(text), { slack_app_token: TOKEN, channels_map_to_topics: "1" });
    expect(scopes.every((s) => s.isDone())).toBe(true);
    expect(stored.map((m) => [m.topic, m.content, m.stream_id])).toEqual([
      [
        "channel: harvest",
        "**Mireille Okafor**: @Mireille Okafor asks @U0TOMASZ01 to keep #harvest for **picking**; @here",
        server.general.id,
      ],
    ]);
    // Nobody is notified: a broadcast and a Slack name are text, not mentions.
    const row = await server.db("messages").where({ id: stored[0].id }).first();
    expect(row.rendered_content).not.toContain("mention");
    expect(logLines.join("\n")).not.toContain(TOKEN);
    await server.deps.webhookOps.log.idle();
    expect(JSON.stringify(await server.db("webhook_deliveries").select())).not.toContain(TOKEN);
  });

  describe("other people and channels the text mentions (per-id lookups)", () => {
    const auth = { reqheaders: { authorization: `Bearer ${TOKEN}` } };
    const person = (id: string, realName: string) => ({
      ok: true,
      user: { id, name: realName.split(" ")[0].toLowerCase(), real_name: realName, profile: { real_name: realName } },
    });
    const room = (id: string, name: string) => ({ ok: true, channel: { id, name, is_channel: true } });
    /** Slack's users.info and conversations.info, answering from `people` / `rooms`; returns the ids asked about. */
    const slackApi = (people: Record<string, object>, rooms: Record<string, object>) => {
      const asked: string[] = [];
      const answer = (param: string, known: Record<string, object>, missing: object) => (uri: string) => {
        const id = new URL(uri, SLACK).searchParams.get(param) ?? "";
        asked.push(id);
        return [200, known[id] ?? missing] as [number, object];
      };
      nock(SLACK, auth)
        .persist()
        .get("/api/users.info")
        .query(true)
        .reply(answer("user", people, json("api_responses", "user_not_found.json")));
      nock(SLACK, auth)
        .persist()
        .get("/api/conversations.info")
        .query(true)
        .reply(answer("channel", rooms, { ok: false, error: "channel_not_found" }));
      return asked;
    };
    const sender = { U0MIREILLE: json("api_responses", "users.info.json") };
    const harvest = { C0HARVEST1: json("api_responses", "conversations.info.json") };

    it("names each mentioned person and channel, asking Slack once per id; an unknown one stays its id", async () => {
      const asked = slackApi(
        {
          ...sender,
          U0TOMASZ01: person("U0TOMASZ01", "Tomasz Wierzba"),
          W0INES0001: person("W0INES0001", "Inês Carvalho"),
        },
        { ...harvest, C0PRESS001: room("C0PRESS001", "cider-press") },
      );
      // A link's URL is text, never requested: the token goes to slack.com only.
      const elsewhere = nock("https://orchard.example").get(/.*/).reply(200, { ok: true });
      const text =
        "<@U0TOMASZ01> and <@W0INES0001> will press; <@U0TOMASZ01> brings crates, <@U0NOBODY01> too. " +
        "Notes in <#C0PRESS001> (not <#C0GONE0001>), <https://orchard.example/api/users.info?user=U0TOMASZ01|the list>, " +
        "thanks <@U0MIREILLE> in <#C0HARVEST1>";
      const stored = await posted(eventWith(text), { slack_app_token: TOKEN });
      expect(stored.map((m) => m.content)).toEqual([
        "**Mireille Okafor**: @Tomasz Wierzba and @Inês Carvalho will press; @Tomasz Wierzba brings crates, " +
          "@U0NOBODY01 too. Notes in #cider-press (not #C0GONE0001), " +
          "[the list](https://orchard.example/api/users.info?user=U0TOMASZ01), thanks @Mireille Okafor in #harvest",
      ]);
      // Each id once: the repeated mention, and the sender and channel also mentioned, share one request.
      expect([...asked].sort()).toEqual([
        "C0GONE0001",
        "C0HARVEST1",
        "C0PRESS001",
        "U0MIREILLE",
        "U0NOBODY01",
        "U0TOMASZ01",
        "W0INES0001",
      ]);
      expect(elsewhere.isDone()).toBe(false);
      expect(logLines.join("\n")).not.toContain(TOKEN);
      await server.deps.webhookOps.log.idle();
      expect(JSON.stringify(await server.db("webhook_deliveries").select())).not.toContain(TOKEN);
    });

    it("asks about at most the lookup's max people (10); later ones stay ids", async () => {
      const ids = Array.from({ length: 12 }, (_, i) => `U0PICKER${String(i + 1).padStart(2, "0")}`);
      const asked = slackApi(
        { ...sender, ...Object.fromEntries(ids.map((id, i) => [id, person(id, `Picker ${i + 1}`)])) },
        harvest,
      );
      const stored = await posted(eventWith(ids.map((id) => `<@${id}>`).join(" ")), { slack_app_token: TOKEN });
      const named = ids.slice(0, 10).map((_, i) => `@Picker ${i + 1}`);
      expect(stored.map((m) => m.content)).toEqual([
        `**Mireille Okafor**: ${[...named, "@U0PICKER11", "@U0PICKER12"].join(" ")}`,
      ]);
      expect(asked.filter((id) => id.startsWith("U0PICKER")).sort()).toEqual(ids.slice(0, 10));
    });

    it("makes no request without the token: mentions stay ids, as in the fixtures", async () => {
      const asked = slackApi(sender, harvest);
      const stored = await posted(eventWith("<@U0TOMASZ01> in <#C0PRESS001>"));
      expect(stored.map((m) => m.content)).toEqual(["**U0MIREILLE**: @U0TOMASZ01 in #C0PRESS001"]);
      expect(asked).toEqual([]);
    });
  });

  it("posts to the channel named after the Slack channel with channels_map_to_topics=0 (and mapping=channels)", async () => {
    for (const query of [{ channels_map_to_topics: "0" }, { mapping: "channels" }] as Record<string, string>[]) {
      stubNames();
      const stored = await posted(eventWith("The press is booked."), { slack_app_token: TOKEN, ...query });
      expect(stored.map((m) => [m.topic, m.content, m.stream_id])).toEqual([
        ["Message from Slack", "**Mireille Okafor**: The press is booked.", await channelId("harvest")],
      ]);
    }
  });

  it("treats Slack's {ok: false} answer as no answer, and makes no request without a token", async () => {
    const scopes = stubNames(json("api_responses", "user_not_found.json"));
    const stored = await posted(eventWith("<@U0MIREILLE> here"), {
      slack_app_token: TOKEN,
      channels_map_to_topics: "1",
    });
    expect(scopes.every((s) => s.isDone())).toBe(true);
    expect(stored.map((m) => [m.topic, m.content])).toEqual([["channel: harvest", "**U0MIREILLE**: @U0MIREILLE here"]]);

    const withoutToken = await posted(eventWith("ids only"), { channels_map_to_topics: "1" });
    expect(withoutToken.map((m) => [m.topic, m.content])).toEqual([
      ["channel: C0HARVEST1", "**U0MIREILLE**: ids only"],
    ]);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("falls back to the ids when Slack cannot be reached", async () => {
    nock(SLACK).get("/api/users.info").query(true).replyWithError({ code: "ECONNRESET" });
    nock(SLACK).get("/api/conversations.info").query(true).reply(503, "unavailable");
    const stored = await posted(eventWith("still posted"), { slack_app_token: TOKEN });
    expect(stored.map((m) => m.content)).toEqual(["**U0MIREILLE**: still posted"]);
  });

  it("takes the legacy outgoing webhook's form body: one topic by default, its channel_name as the topic (=1) or the channel (=0)", async () => {
    const fields = new URLSearchParams(json("fixtures", "outgoing_webhook.json")).toString();
    const oneTopic = await posted(fields, {}, FORM);
    expect(oneTopic.map((m) => [m.topic, m.stream_id])).toEqual([["Message from Slack", server.general.id]]);
    const toTopic = await posted(fields, { channels_map_to_topics: "1" }, FORM);
    expect(toTopic.map((m) => [m.topic, m.stream_id])).toEqual([["channel: harvest", server.general.id]]);
    expect(toTopic[0].content).toBe(
      "**mireille**: deploy: **the new rows** are planted, @tomasz please check [the map](https://orchard.example/rows)",
    );
    const toChannel = await posted(fields, { channels_map_to_topics: "0" }, FORM);
    expect(toChannel.map((m) => [m.topic, m.stream_id])).toEqual([["Message from Slack", await channelId("harvest")]]);
  });

  it("refuses a form without text, naming the field, and a bad channels_map_to_topics, naming the option", async () => {
    const fields = json("fixtures", "outgoing_webhook.json");
    delete fields.text;
    const missing = await post(new URLSearchParams(fields).toString(), {}, FORM);
    expect([missing.status, missing.body.code, missing.body.msg]).toEqual([
      400,
      "INVALID_PAYLOAD",
      "Invalid Slack payload: /text is missing",
    ]);
    const bad = await post(eventWith("x"), { channels_map_to_topics: "abc" });
    expect([bad.status, bad.body.code, bad.body.msg, bad.body.var_name]).toEqual([
      400,
      "BAD_REQUEST",
      "Invalid 'channels_map_to_topics' option: expected one of '0', '1'",
      "channels_map_to_topics",
    ]);
  });

  // urlOptions `values`: checked by the framework wherever the pipeline runs, before the transform.
  it("refuses a mapping outside its values in a delivery, a preview and a replay; blank is not given", async () => {
    const before = await latestMessageId(server);
    const refused = await post(eventWith("mapped?"), { mapping: "streams" });
    expect([refused.status, refused.body.code, refused.body.var_name, refused.body.values]).toEqual([
      400,
      "BAD_REQUEST",
      "mapping",
      ["channels", "topics"],
    ]);
    expect(refused.body.msg).toBe("Invalid 'mapping' option: expected one of 'channels', 'topics'");
    expect(await messagesSince(server, before)).toEqual([]);
    const preview = await server.as(server.users.member).post("/webhooks/preview", {
      integration: "slack",
      query: JSON.stringify({ channels_map_to_topics: "yes" }),
      body: eventWith("previewed"),
    });
    expect(preview.body).toMatchObject({
      outcome: "error",
      error: { code: "BAD_REQUEST", msg: "Invalid 'channels_map_to_topics' option: expected one of '0', '1'" },
    });
    await server.deps.webhookOps.log.idle();
    const logged = await server.as(server.users.owner).get("/webhooks/deliveries", { limit: 1 });
    const replay = await server
      .as(server.users.owner)
      .post(`/webhooks/deliveries/${logged.body.deliveries[0].id}/replay`);
    expect(replay.body.delivery).toMatchObject({ outcome: "error", code: "BAD_REQUEST" });
    expect(await messagesSince(server, before)).toEqual([]);
    const blank = await posted(eventWith("blank mapping"), { mapping: " ", channels_map_to_topics: "" });
    expect(blank.map((m) => [m.topic, m.stream_id])).toEqual([["Message from Slack", server.general.id]]);
  });

  it("posts nothing for a bot's message, answering success", async () => {
    const before = await latestMessageId(server);
    const res = await post(read("fixtures", "ignore__bot_id.json"), { slack_app_token: TOKEN });
    expect([res.status, res.body.result]).toEqual([200, "success"]);
    expect(await messagesSince(server, before)).toEqual([]);
  });

  const SHARED = path.join(__dirname, "..", "..", "..", "shared", "fixtures", "slack");
  (fs.existsSync(SHARED) ? it : it.skip)(
    "renders the shared corpus' answers as the reference's notes say",
    async () => {
      const shared = (...parts: string[]) => fs.readFileSync(path.join(SHARED, ...parts), "utf8");
      const user = JSON.parse(shared("api_responses", "slack_users_info_api_response.json"));
      const channel = JSON.parse(shared("api_responses", "slack_conversations_info_api_response.json"));
      nock(SLACK).get("/api/users.info").query(true).reply(200, user);
      nock(SLACK).get("/api/conversations.info").query(true).reply(200, channel);
      const body = shared("message_with_normal_text--url_options_channels_mapping_true.json");
      const stored = await posted(body, { slack_app_token: "xoxp-XXXXXXXXXXXXXXXXXXXXX", mapping: "channels" });
      // "Zulip posts to the channel named after the Slack channel ('Slack general')".
      expect(stored.map((m) => [m.content, m.stream_id])).toEqual([
        [`**${user.user.real_name}**: Hello, this is a normal text message`, await channelId(channel.channel.name)],
      ]);
      const handshake = await post(shared("challenge_handshake_payload--challenge_handshake_payload.json"));
      expect(handshake.body.challenge).toBe(
        JSON.parse(shared("challenge_handshake_payload--challenge_handshake_payload.json")).challenge,
      );
    },
  );
});
