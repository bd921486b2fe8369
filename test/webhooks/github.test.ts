// GitHub plugin cases the fixture suite cannot express: signed deliveries (the bot needs a
// stored secret) and the bench's synthetic push payload (bench/githubPush.ts) being accepted.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { githubPushPayload } from "../../bench/githubPush";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const fixture = fs.readFileSync(path.join(__dirname, "..", "..", "integrations", "github", "fixtures", "star.json"));
const sign = (secret: string, body: Buffer | string) =>
  "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex");

describe("github webhook", () => {
  let server: TestServer;
  const send = (body: Buffer | string, headers: Record<string, string>) =>
    postWebhook(server, "github", {
      body,
      query: { stream: "general" },
      headers: { "X-GitHub-Event": "star", ...headers },
    });

  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["github"] });
  });
  afterAll(() => server.close());

  it("accepts the bench's synthetic push payload", async () => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "github", {
      body: JSON.stringify(githubPushPayload()),
      query: { stream: "general" },
      headers: { "X-GitHub-Event": "push" },
    });
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    const stored = await messagesSince(server, before, server.users.bot.id);
    expect(stored.map((m) => m.topic)).toEqual(["switchboard / main"]);
    expect(stored[0].content).toMatch(
      /^bench-pusher \[pushed\]\(https:\/\/github\.com\/example\/switchboard\/compare\/[^)]+\) 5 commits to branch main\.\n\n\* Improve the widget frobnicator, step 1 \(\[/,
    );
    expect(stored[0].content.split("\n").filter((l) => l.startsWith("* "))).toHaveLength(5);
  });

  // GitHub events carry an action (star.json is `star` with action `created`), so the filters must
  // match the full `event.action` as well as the bare event name (helloworld events have no action).
  describe("only_events / exclude_events on event.action", () => {
    const STAR = "teo-lind starred the repository [lumen-labs/tidepool](https://github.com/lumen-labs/tidepool).";
    const cases: [string, Record<string, string>, boolean][] = [
      ["only_events naming event.action", { only_events: "star.created" }, true],
      ["only_events naming another action", { only_events: "star.deleted" }, false],
      ["only_events with a glob on the action", { only_events: '["*.created"]' }, true],
      ["only_events naming the bare event", { only_events: "star" }, true],
      ["exclude_events naming event.action", { exclude_events: "star.created" }, false],
      ["exclude_events with a glob on the action", { exclude_events: "*.created" }, false],
      ["exclude_events naming another action", { exclude_events: "star.deleted" }, true],
    ];
    for (const [label, query, sent] of cases) {
      it(`${label} → ${sent ? "sent" : "success without a message"}`, async () => {
        const before = await latestMessageId(server);
        const res = await postWebhook(server, "github", {
          body: fixture,
          query: { stream: "general", ...query },
          headers: { "X-GitHub-Event": "star" },
        });
        expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
        const stored = (await messagesSince(server, before, server.users.bot.id)).map((m) => m.content);
        expect(stored).toEqual(sent ? [STAR] : []);
      });
    }
  });

  describe("with a webhook secret (X-Hub-Signature-256)", () => {
    beforeAll(async () => {
      const res = await server
        .as(server.users.owner)
        .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "tide-secret-42" });
      expect(res.body.has_webhook_secret).toBe(true);
    });
    afterAll(async () => {
      await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "" });
    });

    it("stores a correctly signed delivery", async () => {
      const before = await latestMessageId(server);
      const res = await send(fixture, { "X-Hub-Signature-256": sign("tide-secret-42", fixture) });
      expect(res.status).toBe(200);
      expect((await messagesSince(server, before, server.users.bot.id)).map((m) => m.content)).toEqual([
        "teo-lind starred the repository [lumen-labs/tidepool](https://github.com/lumen-labs/tidepool).",
      ]);
    });

    it("refuses a wrong, tampered or missing signature with 401 INVALID_SIGNATURE and stores nothing", async () => {
      const before = await latestMessageId(server);
      const wrong = await send(fixture, { "X-Hub-Signature-256": sign("another-secret", fixture) });
      expect([wrong.status, wrong.body]).toEqual([
        401,
        {
          result: "error",
          code: "INVALID_SIGNATURE",
          msg: "The 'X-Hub-Signature-256' signature does not match the request body",
          header: "X-Hub-Signature-256",
        },
      ]);
      const tampered = Buffer.from(fixture.toString("utf8").replace("teo-lind", "mallory"));
      expect((await send(tampered, { "X-Hub-Signature-256": sign("tide-secret-42", fixture) })).status).toBe(401);
      // The legacy SHA-1 header alone is not enough.
      const sha1 = "sha1=" + crypto.createHmac("sha1", "tide-secret-42").update(fixture).digest("hex");
      const missing = await send(fixture, { "X-Hub-Signature": sha1 });
      expect([missing.status, missing.body.code, missing.body.msg]).toEqual([
        401,
        "INVALID_SIGNATURE",
        "Missing the signature header 'X-Hub-Signature-256'",
      ]);
      expect(await messagesSince(server, before)).toEqual([]);
    });
  });
});
