// Deliveries as real senders make them, over HTTP: Alertmanager configured as its doc.md says
// (HTTP Basic credentials, the URL carrying only the channel), Buildbot's Zulip reporter (its
// master-wide buildid beside the builder's own number in `url`), and a Slack tool posting a
// message with nothing to show (refused as Slack refuses it).
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

describe("real senders", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["alertmanager", "buildbot", "slack_incoming"] });
  });
  afterAll(() => server.close());

  const basic = () => "Basic " + Buffer.from(`${server.users.bot.email}:${server.users.bot.apiKey}`).toString("base64");

  it("Alertmanager with basic_auth: an alert on several hosts is one topic named after the alert", async () => {
    const before = await latestMessageId(server);
    const alert = (instance: string) => ({
      status: "firing",
      labels: { alertname: "HighLoad", instance, severity: "warning" },
      annotations: { description: `Load is high on ${instance}` },
    });
    const res = await postWebhook(server, "alertmanager", {
      apiKey: null,
      query: { stream: "general" },
      headers: { authorization: basic() },
      body: JSON.stringify({ version: "4", status: "firing", alerts: ["a:9100", "b:9100", "c:9100"].map(alert) }),
    });
    expect(res.status).toBe(200);
    const posted = await messagesSince(server, before, server.users.bot.id);
    expect(posted.map((m) => m.topic)).toEqual(["HighLoad"]);
    expect(posted[0].content).toBe(
      ":alert: **FIRING**\n* **a:9100**: Load is high on a:9100\n* **b:9100**: Load is high on b:9100\n* **c:9100**: Load is high on c:9100",
    );
  });

  it("Buildbot's Zulip reporter: the builder's build number, linked to its page", async () => {
    const before = await latestMessageId(server);
    const url = "http://buildbot.example.org:8010/#builders/2/builds/1";
    const res = await postWebhook(server, "buildbot", {
      query: { stream: "general" },
      body: JSON.stringify({ event: "finished", buildid: 7, buildername: "hello", url, project: "", results: 0 }),
    });
    expect(res.status).toBe(200);
    const posted = await messagesSince(server, before, server.users.bot.id);
    expect(posted.map((m) => [m.topic, m.content])).toEqual([
      ["hello", `:check: Build [#1](${url}) of hello **succeeded**.`],
    ]);
  });

  it("slack_incoming: a message with nothing to show is a 400 naming what is missing, and posts nothing", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "slack_incoming", {
      query: { stream: "general" },
      body: JSON.stringify({ text: null, attachments: [{ color: "danger", title: null }] }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: "error",
      code: "INVALID_PAYLOAD",
      msg: "Invalid Slack Incoming payload: no_text: nothing to show (text, blocks and attachments are missing or empty)",
    });
    expect(await messagesSince(server, before)).toEqual([]);
  });
});
