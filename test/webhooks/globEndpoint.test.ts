// URL-supplied globs through the webhook endpoint: a catastrophic pattern does not freeze the
// server, and the pattern-count limit is a 400. (The glob syntax itself: glob.test.ts, no server.)
import { MAX_PATTERNS } from "../../src/webhooks/glob";
import { startTestServer, type TestServer } from "../support/harness";
import { postWebhook } from "../support/webhooks";

describe("URL-supplied globs through the webhook endpoint", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["github"] });
  });
  afterAll(() => server.close());

  const push = (ref: string) =>
    JSON.stringify({
      ref,
      before: "0".repeat(40),
      after: "1".repeat(40),
      created: false,
      deleted: false,
      forced: false,
      compare: "https://github.com/o/r/compare/a...b",
      commits: [],
      head_commit: null,
      repository: { name: "r", full_name: "o/r", html_url: "https://github.com/o/r", private: false },
      pusher: { name: "p" },
      sender: { login: "p", html_url: "https://github.com/p" },
    });

  it("the catastrophic pattern is answered while other requests keep being served", async () => {
    const attack = postWebhook(server, "github", {
      query: { stream: "general", branches: "*a*a*a*a*a*a*a*a*a*a*b" },
      headers: { "X-GitHub-Event": "push" },
      body: push(`refs/heads/${"a".repeat(40)}`),
    });
    const other = server.anonymous().get("/server_settings");
    const [attacked, settings] = await Promise.all([attack, other]);
    expect(attacked.status).toBe(200);
    expect(settings.status).toBe(200);
  });

  it("too many branch patterns is a 400 naming the limit", async () => {
    const res = await postWebhook(server, "github", {
      query: {
        stream: "general",
        branches: Array(MAX_PATTERNS + 1)
          .fill("main")
          .join(","),
      },
      headers: { "X-GitHub-Event": "push" },
      body: push("refs/heads/main"),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "BAD_REQUEST", var_name: "branches" });
    expect(res.body.msg).toContain(`the limit is ${MAX_PATTERNS}`);
  });
});
