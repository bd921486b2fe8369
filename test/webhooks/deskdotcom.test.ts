// Desk.com custom actions as Desk.com sends them, over HTTP: HTTP Basic credentials (bot email :
// API key) and a URL without parameters, the channel and topic in the form body (manifest
// `channel`), the shared corpus' samples (when ../shared is present) and our own bodies.
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const SHARED = path.resolve(__dirname, "..", "..", "..", "shared", "fixtures", "deskdotcom");
const FORM = "application/x-www-form-urlencoded";
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe("Desk.com custom actions", () => {
  let server: TestServer;
  const basic = () => "Basic " + Buffer.from(`${server.users.bot.email}:${server.users.bot.apiKey}`).toString("base64");
  const channelId = async (name: string) => (await server.db("streams").where({ name }).first())?.id as number;
  /** Posts like Desk.com: Basic auth, the form body, the URL's query only when given. */
  const deliver = async (body: string | Buffer, query: Record<string, string> = {}) => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "deskdotcom", {
      apiKey: null,
      query,
      contentType: FORM,
      headers: { authorization: basic() },
      body,
    });
    return { res, stored: await messagesSince(server, before) };
  };

  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["deskdotcom"] });
    const res = await server
      .as(server.users.owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "deskdotcom" }, { name: "support" }] });
    expect(res.status).toBe(200);
  });
  afterAll(() => server.close());

  const samples = fs.existsSync(path.join(SHARED, "index.json"))
    ? (JSON.parse(fs.readFileSync(path.join(SHARED, "index.json"), "utf8")) as { fixture: string }[])
    : [];
  const expected: Record<string, [string, string]> = {
    "case_updated.txt": [
      "case updated notification",
      "Case 2 updated. Link: [I have a question](https://deskdotcomtest.desk.com/web/agent/case/2)",
    ],
    "static_text.txt": ["static text notification", "This is a custom action."],
    "unicode_text_japanese.txt": [
      "case updated notification",
      "Case 2 updated. Link: [私のホバークラフトは鰻でいっぱいです](https://deskdotcomtest.desk.com/web/agent/case/2)",
    ],
  };
  if (samples.length === 0)
    it.skip("replays ../shared/fixtures/deskdotcom (not present beside this checkout)", () => undefined);
  for (const { fixture } of samples)
    it(`the shared sample ${fixture}: Basic auth, no URL parameters, posted to the form's channel and topic`, async () => {
      const { res, stored } = await deliver(fs.readFileSync(path.join(SHARED, fixture)));
      expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
      expect(stored.map((m) => [m.type, m.stream_id, m.topic, m.content])).toEqual([
        ["stream", await channelId("deskdotcom"), ...(expected[fixture] ?? [expect.any(String), expect.any(String)])],
      ]);
    });

  it("the form's stream names the channel even when the URL has one; without it the URL's is used", async () => {
    const data = "Case 7 resolved. <a href='https://acme.desk.com/web/agent/case/7'>Printer jam</a>";
    const named = await deliver(form({ stream: "support", topic: "Case 7", data }), { stream: "general" });
    expect(named.stored.map((m) => [m.stream_id, m.topic, m.content])).toEqual([
      [await channelId("support"), "Case 7", "Case 7 resolved. [Printer jam](https://acme.desk.com/web/agent/case/7)"],
    ]);
    const urls = await deliver(form({ topic: "Case 7", data: "Reopened." }), { stream: "general" });
    expect(urls.stored.map((m) => [m.stream_id, m.topic, m.content])).toEqual([
      [server.general.id, "Case 7", "Reopened."],
    ]);
  });

  it("with no channel anywhere, the bot tells its owner directly", async () => {
    const { res, stored } = await deliver(form({ data: "Weekly summary ready." }));
    expect(res.status).toBe(200);
    expect(stored.map((m) => [m.type, m.content])).toEqual([["private", "Weekly summary ready."]]);
  });

  it("a form stream naming no channel posts nothing in a channel and tells the owner", async () => {
    const { res, stored } = await deliver(form({ stream: "no such desk", topic: "Case 9", data: "Hello" }), {
      stream: "general",
    });
    expect(res.status).toBe(200);
    expect(stored.map((m) => m.type)).toEqual(["private"]);
    expect(stored[0].content).toContain("no such desk");
  });

  it("refuses a form without data with a 400 naming the field, and posts nothing", async () => {
    const { res, stored } = await deliver(form({ stream: "support", topic: "Case 9" }));
    expect([res.status, res.body.code, res.body.msg]).toEqual([
      400,
      "INVALID_PAYLOAD",
      "Invalid Desk.com payload: /data is missing",
    ]);
    expect(stored).toEqual([]);
  });
});
