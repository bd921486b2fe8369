// The request pipeline through a git-style test plugin (test/webhooks/plugins/testgit): event
// header (+ owner DM), action lookup, ignored events, bad JSON (+ owner DM), unsupported events,
// schema errors naming the JSON pointer, branches, ignoreWhen.
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const PLUGINS = path.join(__dirname, "plugins");
const push = (
  ref = "refs/heads/main",
  commits = [
    {
      id: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
      message: "Fix the flux capacitor\n\nDetails",
      url: "https://git.example/c/1",
    },
  ],
) => JSON.stringify({ ref, commits, repository: { name: "engine" }, sender: "ada" });

describe("webhook pipeline", () => {
  let server: TestServer;
  const send = (event: string | undefined, body: string, query: Record<string, string> = {}) =>
    postWebhook(server, "testgit", {
      body,
      query: { stream: "general", ...query },
      headers: event === undefined ? {} : { "X-Test-Event": event },
    });
  const notices = async (before: number) => messagesSince(server, before, server.realm.notification_bot_id!);

  beforeAll(async () => {
    server = await startTestServer({ INTEGRATIONS_DIR: PLUGINS }, { integrations: "all" });
  });
  afterAll(() => server.close());

  it("renders an event from the header with its topic template and helpers", async () => {
    const before = await latestMessageId(server);
    const res = await send("push", push());
    expect(res.status).toBe(200);
    expect(await messagesSince(server, before)).toMatchObject([
      {
        topic: "engine / main",
        content: "ada pushed 1 commit to `main`:\n\n* Fix the flux capacitor ([a1b2c3d4e5f](https://git.example/c/1))",
      },
    ]);
  });

  it("lists at most `limit` commits, then says how many more", async () => {
    const before = await latestMessageId(server);
    const commits = [1, 2, 3, 4].map((n) => ({
      id: `${n}`.repeat(40),
      message: `Change ${n}`,
      url: `https://git.example/c/${n}`,
    }));
    await send("push", push("refs/heads/main", commits));
    const [m] = await messagesSince(server, before);
    expect(m.content.split("\n").slice(-3)).toEqual([
      "* Change 1 ([11111111111](https://git.example/c/1))",
      "* Change 2 ([22222222222](https://git.example/c/2))",
      "[and 2 more commit(s)]",
    ]);
  });

  it("prefers the `event.action` entry and exposes @eventType / @topicOverridden to templates", async () => {
    const before = await latestMessageId(server);
    const issue = JSON.stringify({
      action: "opened",
      issue: { number: 7, title: "Wheels *fall* off", url: "https://git.example/i/7" },
      repository: { name: "engine" },
      sender: "bo",
    });
    await send("issue", issue);
    await send("issue", issue, { topic: "triage" });
    expect(await messagesSince(server, before)).toMatchObject([
      { topic: "engine / issue #7", content: "bo opened [#7](https://git.example/i/7) (issue.opened)" },
      { topic: "triage", content: "bo opened [#7](https://git.example/i/7) Wheels \\*fall\\* off (issue.opened)" },
    ]);
  });

  it("answers success without a message for ignored events, ignoreWhen and other actions", async () => {
    const before = await latestMessageId(server);
    for (const [event, body] of [
      ["ping", JSON.stringify({ zen: "hi" })],
      ["issue", JSON.stringify({ action: "closed", repository: { name: "engine" }, sender: "bo" })],
      ["push", push("refs/heads/main", [])],
    ]) {
      const res = await send(event, body);
      expect([event, res.status, res.body]).toEqual([event, 200, { result: "success", msg: "" }]);
    }
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("reports an unsupported event with 200 and counts it", async () => {
    const before = await latestMessageId(server);
    const countBefore = server.deps.integrations.unsupportedCounts().testgit ?? 0;
    const res = await send("deployment", JSON.stringify({ action: "created" }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      msg: "The 'deployment.created' event isn't currently supported by the Test Git webhook; ignoring",
      webhook_name: "Test Git",
      event_type: "deployment.created",
    });
    expect(server.deps.integrations.unsupportedCounts().testgit).toBe(countBefore + 1);
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("refuses a payload missing what the templates need, naming the JSON pointers", async () => {
    const before = await latestMessageId(server);
    const res = await send("push", JSON.stringify({ ref: 5, repository: {}, sender: "ada", commits: [{ id: "x" }] }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "INVALID_PAYLOAD",
      msg: "Invalid Test Git payload: /repository/name is missing; /ref must be string; /commits/0/message is missing",
      pointers: ["/repository/name", "/ref", "/commits/0/message"],
    });
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("refuses a missing event header and tells the bot owner (once per interval)", async () => {
    const before = await latestMessageId(server);
    for (let i = 0; i < 2; i++) {
      const res = await send(undefined, push());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: "error",
        code: "MISSING_HTTP_EVENT_HEADER",
        msg: "Missing the HTTP event header 'X-Test-Event'",
        header: "X-Test-Event",
      });
    }
    const dms = await notices(before);
    expect(dms).toHaveLength(1);
    expect(dms[0].content).toContain("`X-Test-Event`");
    expect(dms[0].dm_key).toBe(
      [server.realm.notification_bot_id!, server.users.owner.id].sort((a, b) => a - b).join(","),
    );
    expect(await messagesSince(server, before, server.users.bot.id)).toEqual([]);
  });

  it("refuses malformed JSON and tells the bot owner that JSON is expected (once per interval)", async () => {
    const before = await latestMessageId(server);
    for (let i = 0; i < 2; i++) {
      const res = await send("push", "{not json");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", code: "INVALID_JSON", msg: "Malformed JSON" });
    }
    const dms = await notices(before);
    expect(dms).toHaveLength(1);
    expect(dms[0].content).toContain("JSON");
    expect(dms[0].content).toContain("Test Git");
  });

  it("refuses a body that is JSON but not an object", async () => {
    const res = await send("push", "[1, 2]");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "INVALID_PAYLOAD",
      msg: "Invalid Test Git payload: / must be a JSON object",
    });
  });

  describe("branches", () => {
    const cases: [string, string, boolean][] = [
      ["main", "refs/heads/main", true],
      ["main", "refs/heads/main-release", false],
      ["main,release/*", "refs/heads/release/2.0", true],
      ["release/*", "refs/heads/feature/x", false],
      ["dev", "refs/tags/v1.0", true],
    ];
    for (const [branches, ref, sent] of cases) {
      it(`branches=${branches} with ${ref} → ${sent ? "sent" : "dropped"}`, async () => {
        const before = await latestMessageId(server);
        const res = await send("push", push(ref), { branches });
        expect(res.status).toBe(200);
        expect(await messagesSince(server, before)).toHaveLength(sent ? 1 : 0);
      });
    }

    it("does not apply to events whose branchPath is null", async () => {
      const before = await latestMessageId(server);
      const issue = JSON.stringify({
        action: "opened",
        ref: "refs/heads/other",
        issue: { number: 1, title: "t", url: "https://git.example/i/1" },
        repository: { name: "engine" },
        sender: "bo",
      });
      await send("issue", issue, { branches: "main" });
      expect(await messagesSince(server, before)).toHaveLength(1);
    });
  });
});
