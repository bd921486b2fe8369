// The plugin-contract additions (CONTRACT.md items 2, 3, 5, 6, 7, 8) through the real app, with the
// test plugins in test/webhooks/contract/: event families and eventDefaults, XML / query /
// named-form-field bodies, set-up probes, direct-to-owner events, mapped event names, delivery ids.
import path from "node:path";
import { loadIntegrations } from "../../src/webhooks/loader";
import { runPipeline } from "../../src/webhooks/pipeline";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const PLUGINS = path.join(__dirname, "contract");

describe("plugin contract additions", () => {
  let server: TestServer;
  let ownerDm: string;
  beforeAll(async () => {
    server = await startTestServer({ INTEGRATIONS_DIR: PLUGINS }, { integrations: "all" });
    ownerDm = [server.users.bot.id, server.users.owner.id].sort((a, b) => a - b).join(",");
  });
  afterAll(() => server.close());

  const stored = async (send: () => Promise<unknown>) => {
    const before = await latestMessageId(server);
    await send();
    return messagesSince(server, before, server.users.bot.id);
  };

  describe("event families and eventDefaults", () => {
    const send = (event: string, payload: Record<string, unknown>, query: Record<string, string> = {}) =>
      postWebhook(server, "families", {
        body: JSON.stringify(payload),
        headers: { "X-Fam-Event": event },
        query: { stream: "general", ...query },
      });

    it("`a.b` declared as {} uses the family's topic and template", async () => {
      const got = await stored(() => send("issue", { action: "opened", repo: "engine", number: 7 }));
      expect(got).toMatchObject([{ topic: "engine / issue #7", content: "Issue #7 opened in engine." }]);
    });

    it("an own template wins over the family's, the family's topic still applies", async () => {
      const got = await stored(() => send("issue", { action: "closed", repo: "engine", number: 8 }));
      expect(got).toMatchObject([{ topic: "engine / issue #8", content: "Issue #8 was closed." }]);
    });

    it("`ignore` is not inherited; eventDefaults give topic and ignoreWhen to every event", async () => {
      expect(await stored(() => send("issue", { action: "deleted", repo: "engine", number: 9 }))).toEqual([]);
      expect(await stored(() => send("ping", { repo: "engine" }))).toMatchObject([
        { topic: "engine", content: "Pong from engine." },
      ]);
      const res = await send("ping", { repo: "engine", skip: true });
      expect(res.status).toBe(200);
      expect(await stored(() => send("issue", { action: "opened", repo: "e", number: 1, skip: 1 }))).toEqual([]);
    });
  });

  describe("direct messages to the bot's owner", () => {
    const send = (event: string, payload: Record<string, unknown>) =>
      postWebhook(server, "families", {
        body: JSON.stringify(payload),
        headers: { "X-Fam-Event": event },
        query: { stream: "general" },
      });

    it("`direct: true` always goes to the owner, even with a stream in the URL", async () => {
      const got = await stored(() => send("alert", { repo: "engine", text: "disk full" }));
      expect(got).toMatchObject([{ type: "private", dm_key: ownerDm, stream_id: null, content: "Alert: disk full" }]);
    });

    it("`directWhen` decides per delivery, and is inherited by the family's events", async () => {
      const got = await stored(async () => {
        await send("build", { repo: "engine", id: 1 });
        await send("build", { repo: "engine", id: 2, personal: true });
        await send("build", { repo: "engine", id: 3, action: "finished", personal: true });
      });
      expect(got).toMatchObject([
        { type: "stream", topic: "engine", content: "Build 1 started." },
        { type: "private", dm_key: ownerDm, content: "Build 2 started." },
        { type: "private", dm_key: ownerDm, content: "Build 3 finished." },
      ]);
    });

    it("a direct delivery does not need the URL's channel to exist", async () => {
      const res = await postWebhook(server, "families", {
        body: JSON.stringify({ text: "x" }),
        headers: { "X-Fam-Event": "alert" },
        query: { stream: "no-such-channel" },
      });
      expect(res.status).toBe(200);
    });
  });

  describe("set-up probes", () => {
    const probe = (method: "GET" | "HEAD", name: string, query = "") =>
      fetch(`${server.url}/api/v1/external/${name}${query}`, { method });

    it("HEAD and GET answer 200 without posting anything when the manifest sets setupProbe", async () => {
      const before = await latestMessageId(server);
      const get = await probe("GET", "families", `?api_key=${server.users.bot.apiKey}&stream=general`);
      expect(get.status).toBe(200);
      expect(await get.json()).toEqual({ result: "success", msg: "" });
      expect((await probe("HEAD", "families")).status).toBe(200);
      expect((await probe("GET", "families")).status).toBe(200);
      expect(await latestMessageId(server)).toBe(before);
    });

    it("a given key must still be valid; plugins without setupProbe do not answer GET", async () => {
      const bad = await probe("GET", "families", "?api_key=wrong");
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);
      expect(((await bad.json()) as { result: string }).result).toBe("error");
      expect((await probe("GET", "mapped", `?api_key=${server.users.bot.apiKey}`)).status).toBe(404);
    });
  });

  describe("bodies", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<activity>
  <event_type>story_update</event_type>
  <author>Ada &amp; Bo</author>
  <story id="0042"><name>Fix *the* login</name><state type="string">accepted</state></story>
</activity>`;

    it("contentType xml: attributes under @_name, text under #text, values kept as strings", async () => {
      const got = await stored(() =>
        postWebhook(server, "xmlbody", { body: xml, contentType: "application/xml", query: { stream: "general" } }),
      );
      expect(got).toMatchObject([
        { topic: "Fix *the* login", content: "Ada & Bo updated story 0042 (accepted, string)." },
      ]);
    });

    it("contentType xml still accepts JSON, whatever the Content-Type says", async () => {
      const json = JSON.stringify({ kind: "story_create_activity", performed_by: { name: "Cy" } });
      const got = await stored(() =>
        postWebhook(server, "xmlbody", { body: json, contentType: "application/xml", query: { stream: "general" } }),
      );
      expect(got).toMatchObject([
        { topic: "story_create_activity", content: "JSON activity story_create_activity by Cy." },
      ]);
    });

    it("refuses malformed XML and document type declarations with a 400", async () => {
      const bad = await postWebhook(server, "xmlbody", {
        body: "<activity><event_type>x</activity>",
        contentType: "application/xml",
        query: { stream: "general" },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe("INVALID_PAYLOAD");
      const bomb = await postWebhook(server, "xmlbody", {
        body: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "xxxxxxxx">]><activity>&x;&x;</activity>',
        contentType: "application/xml",
        query: { stream: "general" },
      });
      expect(bomb.status).toBe(400);
      expect(bomb.body.msg).toMatch(/document type declarations/);
      const deep = await postWebhook(server, "xmlbody", {
        body: "<a>".repeat(200) + "</a>".repeat(200),
        contentType: "application/xml",
        query: { stream: "general" },
      });
      expect(deep.status).toBe(400);
    });

    it("contentType query: the payload is the URL query minus the framework's own parameters", async () => {
      const got = await stored(() =>
        postWebhook(server, "querybody", {
          body: "",
          query: {
            stream: "general",
            event: "translation_completed",
            project: "Docs",
            language: "fr",
            translated: "100",
          },
        }),
      );
      // The schema forbids api_key and stream: they were removed before validation.
      expect(got).toMatchObject([{ topic: "Docs", content: "Translation of Docs into fr is 100% done." }]);
      const missing = await postWebhook(server, "querybody", {
        query: { stream: "general", event: "translation_completed", project: "Docs" },
      });
      expect(missing.body).toMatchObject({
        code: "INVALID_PAYLOAD",
        msg: "Invalid Query Body payload: /language is missing",
      });
    });

    it("contentType form-json reads the JSON from the manifest's formField", async () => {
      const body = new URLSearchParams({ data: JSON.stringify({ text: "hello" }) }).toString();
      const got = await stored(() =>
        postWebhook(server, "formfield", {
          body,
          contentType: "application/x-www-form-urlencoded",
          query: { stream: "general" },
        }),
      );
      expect(got).toMatchObject([{ topic: "notices", content: "Notice: hello" }]);
      const wrongField = await postWebhook(server, "formfield", {
        body: new URLSearchParams({ payload: "{}" }).toString(),
        contentType: "application/x-www-form-urlencoded",
        query: { stream: "general" },
      });
      expect(wrongField.body).toMatchObject({ code: "REQUEST_VARIABLE_MISSING", var_name: "data" });
    });
  });

  describe("eventSource.map", () => {
    const send = (alertType: unknown) =>
      postWebhook(server, "mapped", {
        body: JSON.stringify({ monitor: "api", alertType }),
        query: { stream: "general" },
      });

    it("maps numbers, null and booleans by their string form; unmapped values keep it", async () => {
      const got = await stored(async () => {
        for (const v of [0, 1, "1", null, true, 2]) expect((await send(v)).status).toBe(200);
      });
      expect(got.map((m) => m.content)).toEqual([
        "api is down.",
        "api is up.",
        "api is up.",
        "api is in an unknown state.",
        "api is up.",
        "api is paused.",
      ]);
    });

    it("an unmapped, undeclared value is an unsupported event; a missing field is a 400", async () => {
      expect((await send(false)).body).toMatchObject({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", event_type: "false" });
      const missing = await postWebhook(server, "mapped", { body: "{}", query: { stream: "general" } });
      expect(missing.body).toMatchObject({
        code: "INVALID_PAYLOAD",
        msg: expect.stringMatching(/\/alertType is missing/),
      });
    });
  });

  it("deliveryId: the pipeline reports the sender's delivery id from the declared header", () => {
    const families = loadIntegrations(PLUGINS).find((i) => i.name === "families")!;
    const request = (headers: Record<string, string>) => ({
      headers: { "x-fam-event": "ping", ...headers },
      query: {},
      body: Buffer.from(JSON.stringify({ repo: "engine" })),
    });
    expect(runPipeline(families, request({ "x-fam-delivery": "d-123" }))).toMatchObject({ deliveryId: "d-123" });
    expect(runPipeline(families, request({}))).not.toHaveProperty("deliveryId");
  });
});
