// Webhook operations through the real app: the delivery log (recording, redaction, body cap,
// filters, access), replay, preview, de-duplication of redeliveries, and template overrides.
import fs from "node:fs";
import path from "node:path";
import { createRealm } from "../../src/services/realms/realms";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const hello = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ featured_title: "Aurora", featured_url: "https://en.wikipedia.org/wiki/Aurora", ...extra });
const githubPush = fs.readFileSync(
  path.join(__dirname, "../../integrations/github/fixtures/push__1_commit.json"),
  "utf8",
);

// One case starts a second server (which loads every plugin): slow on a busy machine.
jest.setTimeout(120_000);

describe("webhook operations", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ WEBHOOK_LOG_MAX_BODY_BYTES: "2000" }, { integrations: ["github", "helloworld"] });
  });
  afterAll(() => server.close());

  const deliveries = async (user: TestUser, params: Record<string, unknown> = {}) => {
    await server.deps.webhookOps.log.idle();
    return server.as(user).get("/webhooks/deliveries", params);
  };
  const newest = async () => (await deliveries(server.users.owner, { limit: 1 })).body.deliveries[0];

  describe("delivery log", () => {
    it("records a posted delivery with its messages, event, status and redacted request", async () => {
      const before = await latestMessageId(server);
      const res = await postWebhook(server, "helloworld", {
        body: hello(),
        query: { stream: "general", topic: "greetings" },
        headers: { "X-Custom-Token": "s3cret", "User-Agent": "tester/1" },
      });
      expect(res.status).toBe(200);
      const posted = await messagesSince(server, before);
      const summary = await newest();
      expect(summary).toMatchObject({
        bot_id: server.users.bot.id,
        integration: "helloworld",
        event: "hello",
        event_key: "hello",
        status: 200,
        code: null,
        outcome: "message",
        message_ids: posted.map((m) => m.id),
        ignored_reason: null,
        error: null,
        replay_of: null,
      });
      expect(summary.duration_ms).toBeGreaterThanOrEqual(0);
      const one = await server.as(server.users.owner).get(`/webhooks/deliveries/${summary.id}`);
      expect(one.status).toBe(200);
      const d = one.body.delivery;
      expect(d.body).toBe(hello());
      expect(d).toMatchObject({ body_encoding: "utf8", body_truncated: false, body_size: hello().length });
      expect(d.query).toEqual({ stream: "general", topic: "greetings" }); // api_key removed
      expect(d.headers["user-agent"]).toBe("tester/1");
      expect(d.headers["x-custom-token"]).toBeUndefined();
      expect(JSON.stringify(d)).not.toContain(server.users.bot.apiKey);
      expect(JSON.stringify(d)).not.toContain("s3cret");
    });

    it("removes Basic credentials and the plugin's signature header", async () => {
      const auth = "Basic " + Buffer.from(`${server.users.bot.email}:${server.users.bot.apiKey}`).toString("base64");
      await postWebhook(server, "github", {
        apiKey: null,
        body: githubPush,
        query: { stream: "general" },
        headers: { Authorization: auth, "X-GitHub-Event": "push", "X-Hub-Signature-256": "sha256=abc" },
      });
      const d = (await server.as(server.users.owner).get(`/webhooks/deliveries/${(await newest()).id}`)).body.delivery;
      expect(d.integration).toBe("github");
      expect(d.headers["x-github-event"]).toBe("push");
      expect(d.headers.authorization).toBeUndefined();
      expect(d.headers["x-hub-signature-256"]).toBeUndefined();
    });

    it("records ignored deliveries and errors with their reason and code", async () => {
      await postWebhook(server, "helloworld", { body: hello(), query: { stream: "general", exclude_events: "hello" } });
      expect(await newest()).toMatchObject({ outcome: "ignored", ignored_reason: "filtered", status: 200 });
      const bad = await postWebhook(server, "helloworld", { body: "{not json", query: { stream: "general" } });
      expect(bad.status).toBe(400);
      expect(await newest()).toMatchObject({
        outcome: "error",
        status: 400,
        code: bad.body.code,
        error: bad.body.msg,
        message_ids: [],
      });
      // A missing channel is answered 200 (the owner gets a DM), as in the reference.
      await postWebhook(server, "helloworld", { body: hello(), query: { stream: "no-such-channel" } });
      expect(await newest()).toMatchObject({
        outcome: "ignored",
        ignored_reason: "missing channel",
        status: 200,
        event: "hello",
      });
    });

    it("caps the stored body (truncated flag) and stores a non-UTF-8 body as bytes", async () => {
      const long = hello({ padding: "é".repeat(3000) });
      await postWebhook(server, "helloworld", { body: long, query: { stream: "general" } });
      let d = (await server.as(server.users.owner).get(`/webhooks/deliveries/${(await newest()).id}`)).body.delivery;
      expect(d).toMatchObject({ body_truncated: true, body_size: Buffer.byteLength(long), body_encoding: "utf8" });
      expect(Buffer.byteLength(d.body)).toBeLessThanOrEqual(2000);
      expect(long.startsWith(d.body)).toBe(true); // cut on a character boundary
      const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
      await postWebhook(server, "helloworld", { body: bytes, query: { stream: "general" } });
      d = (await server.as(server.users.owner).get(`/webhooks/deliveries/${(await newest()).id}`)).body.delivery;
      expect(d.body_encoding).toBe("base64");
      expect(Buffer.from(d.body, "base64").equals(bytes)).toBe(true);
    });

    it("filters by integration, outcome, bot and time, and pages with anchor", async () => {
      const all = (await deliveries(server.users.owner, { limit: 200 })).body;
      expect(all.found_oldest).toBe(true);
      const ids = all.deliveries.map((d: any) => d.id);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
      const gh = (await deliveries(server.users.owner, { integration: "github" })).body.deliveries;
      expect(gh.length).toBeGreaterThan(0);
      expect(gh.every((d: any) => d.integration === "github")).toBe(true);
      const errors = (await deliveries(server.users.owner, { outcome: "error" })).body.deliveries;
      expect(errors.length).toBe(all.deliveries.filter((d: any) => d.outcome === "error").length);
      const page1 = (await deliveries(server.users.owner, { limit: 2 })).body;
      expect(page1.found_oldest).toBe(false);
      const page2 = (await deliveries(server.users.owner, { limit: 2, anchor: page1.deliveries[1].id })).body;
      expect(page2.deliveries.map((d: any) => d.id)).toEqual(ids.slice(2, 4));
      const future = all.deliveries[0].time + 3600;
      expect((await deliveries(server.users.owner, { since: future })).body.deliveries).toEqual([]);
      expect((await deliveries(server.users.owner, { until: future })).body.deliveries.length).toBe(ids.length);
      expect((await deliveries(server.users.owner, { bot_id: server.users.genericBot.id })).body.deliveries).toEqual(
        [],
      );
      const bad = await deliveries(server.users.owner, { outcome: "weird" });
      expect(bad.status).toBe(400);
      expect(bad.body.var_name).toBe("outcome");
    });

    it("is visible to the bot's owner and administrators only", async () => {
      const id = (await newest()).id;
      expect((await server.as(server.users.admin).get(`/webhooks/deliveries/${id}`)).status).toBe(200);
      expect((await deliveries(server.users.admin)).body.deliveries.length).toBeGreaterThan(0);
      const member = await server.as(server.users.member).get(`/webhooks/deliveries/${id}`);
      expect(member.status).toBe(404);
      expect(member.body.code).toBe("NOT_FOUND");
      expect((await deliveries(server.users.member)).body.deliveries).toEqual([]);
      expect((await deliveries(server.users.member, { bot_id: server.users.bot.id })).body.deliveries).toEqual([]);
      expect((await server.as(server.users.member).post(`/webhooks/deliveries/${id}/replay`)).status).toBe(404);
      const asBot = await server.as(server.users.genericBot).get("/webhooks/deliveries");
      expect(asBot.status).toBe(403);
      const missing = await server.as(server.users.owner).get("/webhooks/deliveries/99999999");
      expect(missing.status).toBe(404);
      // Another organization's administrator: the same "not found".
      const other = await createRealm(server.db, {
        subdomain: "elsewhere",
        name: "Elsewhere",
        owner: { email: "boss@elsewhere.example", fullName: "Boss" },
      });
      const ops = server.deps.webhookOps.deliveries;
      await expect(ops.get(other.realm, other.owner, id)).rejects.toMatchObject({ code: "NOT_FOUND" });
      expect((await ops.list(other.realm, other.owner, { limit: 50 })).deliveries).toEqual([]);
    });

    it("replays a stored delivery through the current plugin and posts again", async () => {
      await postWebhook(server, "helloworld", {
        body: hello({ featured_title: "Replayed" }),
        query: { stream: "general" },
      });
      const original = await newest();
      const before = await latestMessageId(server);
      const res = await server.as(server.users.owner).post(`/webhooks/deliveries/${original.id}/replay`);
      expect(res.status).toBe(200);
      const posted = await messagesSince(server, before);
      expect(posted).toHaveLength(1);
      expect(posted[0].content).toContain("Replayed");
      expect(res.body.delivery).toMatchObject({
        replay_of: original.id,
        outcome: "message",
        message_ids: [posted[0].id],
      });
      expect(res.body.delivery.id).toBeGreaterThan(original.id);
      const logged = await server.as(server.users.owner).get(`/webhooks/deliveries/${res.body.delivery.id}`);
      expect(logged.body.delivery.body).toBe(hello({ featured_title: "Replayed" }));
    });

    it("refuses to replay a truncated body; reports a failed replay in the new delivery", async () => {
      await postWebhook(server, "helloworld", {
        body: hello({ padding: "x".repeat(3000) }),
        query: { stream: "general" },
      });
      const truncated = await newest();
      const res = await server.as(server.users.owner).post(`/webhooks/deliveries/${truncated.id}/replay`);
      expect(res.status).toBe(400);
      await postWebhook(server, "helloworld", {
        body: JSON.stringify({ featured_title: "No URL" }),
        query: { stream: "general" },
      });
      const failed = await server.as(server.users.owner).post(`/webhooks/deliveries/${(await newest()).id}/replay`);
      expect(failed.status).toBe(200);
      expect(failed.body.delivery).toMatchObject({ outcome: "error", code: "INVALID_PAYLOAD" });
    });

    it("prunes beyond the per-bot count and the age bound", async () => {
      const log = server.deps.webhookOps.log;
      for (let i = 0; i < 3; i++)
        await postWebhook(server, "helloworld", { body: hello(), query: { stream: "general" } });
      await log.idle();
      const count = async () => Number((await server.db("webhook_deliveries").count({ n: "*" }).first())?.n);
      const keep = new (log.constructor as any)(
        server.db,
        { ...server.config.webhookLog, maxPerBot: 2 },
        server.deps.logger,
      );
      const newestIds = (await deliveries(server.users.owner, { limit: 2 })).body.deliveries.map((d: any) => d.id);
      await keep.prune();
      const left = (await deliveries(server.users.owner, { bot_id: server.users.bot.id, limit: 200 })).body.deliveries;
      expect(left.map((d: any) => d.id)).toEqual(newestIds);
      await log.prune(Date.now() + 15 * 86_400_000);
      expect(await count()).toBe(0);
    });
  });

  describe("de-duplication", () => {
    it("posts a redelivery (same X-GitHub-Delivery, same bot) once and logs it as a duplicate", async () => {
      const headers = { "X-GitHub-Event": "push", "X-GitHub-Delivery": "dedup-1" };
      const before = await latestMessageId(server);
      const first = await postWebhook(server, "github", { body: githubPush, query: { stream: "general" }, headers });
      expect(first.status).toBe(200);
      const posted = await messagesSince(server, before);
      expect(posted.length).toBeGreaterThan(0);
      const second = await postWebhook(server, "github", { body: githubPush, query: { stream: "general" }, headers });
      expect(second.status).toBe(200);
      expect(second.body.result).toBe("success");
      expect(await messagesSince(server, before)).toHaveLength(posted.length);
      expect(await newest()).toMatchObject({ outcome: "duplicate", delivery_id: "dedup-1", message_ids: [] });
      // Another bot may receive the same id.
      const human = await postWebhook(server, "github", {
        body: githubPush,
        query: { stream: "general" },
        headers,
        user: server.users.owner,
      });
      expect(human.status).toBe(200);
      expect((await messagesSince(server, before)).length).toBe(posted.length * 2);
    });

    it("holds across server processes (the database's unique key) and lets a failed delivery be retried", async () => {
      const { startSecondServer } = await import("../support/harness");
      const second = await startSecondServer(server);
      try {
        const headers = { "X-GitHub-Event": "push", "X-GitHub-Delivery": "dedup-2" };
        const before = await latestMessageId(server);
        // The first attempt fails (unknown channel): it must not claim the id.
        await postWebhook(server, "github", { body: githubPush, query: { stream: "nowhere" }, headers });
        const results = await Promise.all(
          [server, { ...server, url: second.url }].map((s) =>
            postWebhook(s as TestServer, "github", { body: githubPush, query: { stream: "general" }, headers }),
          ),
        );
        expect(results.map((r) => r.status)).toEqual([200, 200]);
        const ids = (await messagesSince(server, before, server.users.bot.id)).map((m) => m.id);
        const onePush =
          JSON.parse(
            fs.readFileSync(
              path.join(__dirname, "../../integrations/github/fixtures/push__1_commit.expected.json"),
              "utf8",
            ),
          ).messages?.length ?? 1;
        expect(ids).toHaveLength(onePush);
      } finally {
        await second.close();
      }
    });

    it("replays a delivery even though its id was seen", async () => {
      const dup = (await deliveries(server.users.owner, { outcome: "duplicate" })).body.deliveries[0];
      const before = await latestMessageId(server);
      const res = await server.as(server.users.owner).post(`/webhooks/deliveries/${dup.id}/replay`);
      expect(res.body.delivery.outcome).toBe("message");
      expect((await messagesSince(server, before)).length).toBeGreaterThan(0);
    });
  });

  describe("preview", () => {
    it("answers what would be posted, without posting, for any user and for the bot's own key", async () => {
      const before = await latestMessageId(server);
      for (const user of [server.users.member, server.users.bot]) {
        const res = await server.as(user).post("/webhooks/preview", {
          integration: "helloworld",
          headers: JSON.stringify({ "Content-Type": "application/json" }),
          query: JSON.stringify({ topic: "Preview topic" }),
          body: hello(),
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ result: "success", outcome: "message", event: "hello", event_key: "hello" });
        expect(res.body.messages).toHaveLength(1);
        expect(res.body.messages[0].topic).toBe("Preview topic");
        expect(res.body.messages[0].content).toContain("**[Aurora](https://en.wikipedia.org/wiki/Aurora)**");
        expect(res.body.messages[0].rendered_content).toContain('<a href="https://en.wikipedia.org/wiki/Aurora"');
      }
      expect(await messagesSince(server, before)).toEqual([]);
    });

    it("reports ignored events, pipeline errors and base64 bodies; refuses bad requests", async () => {
      const as = server.as(server.users.member);
      const ignored = await as.post("/webhooks/preview", {
        integration: "helloworld",
        query: JSON.stringify({ exclude_events: "hello" }),
        body: hello(),
      });
      expect(ignored.body).toMatchObject({ outcome: "ignored", reason: "filtered", messages: [] });
      const error = await as.post("/webhooks/preview", { integration: "helloworld", body: "{oops" });
      expect(error.body).toMatchObject({ result: "success", outcome: "error", error: { code: "INVALID_JSON" } });
      const b64 = await as.post("/webhooks/preview", {
        integration: "helloworld",
        body: Buffer.from(hello()).toString("base64"),
        body_encoding: "base64",
      });
      expect(b64.body.outcome).toBe("message");
      const unknown = await as.post("/webhooks/preview", { integration: "nope", body: "{}" });
      expect(unknown.status).toBe(404);
      const badHeaders = await as.post("/webhooks/preview", { integration: "helloworld", headers: "[1]", body: "{}" });
      expect(badHeaders.status).toBe(400);
      expect(badHeaders.body.var_name).toBe("headers");
      const missing = await as.post("/webhooks/preview", { integration: "helloworld" });
      expect(missing.status).toBe(400);
      const badB64 = await as.post("/webhooks/preview", {
        integration: "helloworld",
        body: "!!",
        body_encoding: "base64",
      });
      expect(badB64.status).toBe(400);
    });

    it("takes a JSON request body with headers and query as objects", async () => {
      const res = await server.as(server.users.member).request(
        "POST",
        "/webhooks/preview",
        {},
        {
          rawBody: JSON.stringify({
            integration: "github",
            headers: { "X-GitHub-Event": "push" },
            query: {},
            body: githubPush,
          }),
          headers: { "content-type": "application/json" },
        },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ outcome: "message", event: "push" });
    });
  });

  describe("template overrides", () => {
    const url = "/webhooks/overrides/helloworld/hello";

    it("lets administrators set, read and delete an override; others only read", async () => {
      const denied = await server.as(server.users.member).request("PUT", url, { topic: "x" });
      expect(denied.status).toBe(400);
      expect(denied.body.code).toBe("UNAUTHORIZED_PRINCIPAL");
      const set = await server.as(server.users.admin).request("PUT", url, {
        template: "Today: {{featured_title}}",
        topic: "Daily {{featured_title}}",
      });
      expect(set.status).toBe(200);
      expect(set.body.override).toMatchObject({
        integration: "helloworld",
        event_key: "hello",
        template: "Today: {{featured_title}}",
        topic: "Daily {{featured_title}}",
        updated_by: server.users.admin.id,
      });
      const read = await server.as(server.users.member).get(url);
      expect(read.body.override.template).toBe("Today: {{featured_title}}");
      expect((await server.as(server.users.member).get("/webhooks/overrides")).body.overrides).toHaveLength(1);

      const before = await latestMessageId(server);
      await postWebhook(server, "helloworld", {
        body: hello({ featured_title: "*Bold*" }),
        query: { stream: "general" },
      });
      const [m] = await messagesSince(server, before);
      expect(m.topic).toBe("Daily *Bold*");
      expect(m.content).toBe("Today: \\*Bold\\*"); // escaped like the plugin's own templates

      // Only the topic changes; the template is kept.
      const topicOnly = await server.as(server.users.admin).request("PUT", url, { topic: "Hi" });
      expect(topicOnly.body.override).toMatchObject({ template: "Today: {{featured_title}}", topic: "Hi" });

      expect((await server.as(server.users.member).delete(url)).status).toBe(400);
      expect((await server.as(server.users.admin).delete(url)).status).toBe(200);
      expect((await server.as(server.users.admin).delete(url)).status).toBe(404);
      expect((await server.as(server.users.member).get(url)).status).toBe(404);
      const after = await latestMessageId(server);
      await postWebhook(server, "helloworld", { body: hello(), query: { stream: "general" } });
      expect((await messagesSince(server, after))[0].topic).toBe("Hello World");
    });

    it("refuses templates that do not compile or fail on a fixture, naming the fixture", async () => {
      const admin = server.as(server.users.admin);
      const syntax = await admin.request("PUT", url, { template: "{{#if}}" });
      expect(syntax.status).toBe(400);
      expect(syntax.body).toMatchObject({ code: "INVALID_TEMPLATE", field: "template" });
      const helper = await admin.request("PUT", url, { template: "{{readFile '/etc/passwd'}}" });
      expect(helper.body.code).toBe("INVALID_TEMPLATE");
      const log = await admin.request("PUT", url, { template: "{{log featured_title}}" });
      expect(log.body.code).toBe("INVALID_TEMPLATE");
      const partial = await admin.request("PUT", url, { template: "{{> nothere}}" });
      expect(partial.body.code).toBe("INVALID_TEMPLATE");
      // Compiles, but fails at render time on the fixtures.
      const failing = await admin.request("PUT", url, { template: "{{#if}}x{{/if}}" });
      expect(failing.status).toBe(400);
      expect(failing.body.code).toBe("INVALID_TEMPLATE");
      expect(failing.body.fixture).toMatch(/^hello.*\.json$/);
      const unknownEvent = await admin.request("PUT", "/webhooks/overrides/helloworld/nope", { topic: "x" });
      expect(unknownEvent.status).toBe(404);
      const nothing = await admin.request("PUT", url, {});
      expect(nothing.status).toBe(400);
      expect((await server.as(server.users.member).get(url)).status).toBe(404);
    });

    it("cannot read the server's objects through the template (prototype access is off)", async () => {
      const admin = server.as(server.users.admin);
      const res = await admin.request("PUT", url, { template: "x{{constructor.name}}{{featured_title.constructor}}y" });
      expect(res.status).toBe(200);
      const preview = await server.as(server.users.member).post("/webhooks/preview", {
        integration: "helloworld",
        body: hello(),
      });
      expect(preview.body.messages[0].content).toBe("xy");
      await admin.delete(url);
    });
  });
});
