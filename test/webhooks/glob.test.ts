// URL-supplied globs match in linear time (RE2) with picomatch-like syntax, and their count and
// length are bounded.
import RE2 from "re2";
import { compileGlobs, globMatches, MAX_PATTERN_LENGTH, MAX_PATTERNS } from "../../src/webhooks/glob";
import { parsePatternList } from "../../src/webhooks/events";
import { startTestServer, type TestServer } from "../support/harness";
import { postWebhook } from "../support/webhooks";

describe("glob syntax", () => {
  it.each([
    ["main", "main", true],
    ["main", "mainline", false],
    ["release/*", "release/1.2", true],
    ["release/*", "release/1/2", false],
    ["release/**", "release/1/2", true],
    ["feature-?", "feature-a", true],
    ["feature-?", "feature-ab", false],
    ["{main,dev}", "dev", true],
    ["{main,dev}", "test", false],
    ["v[0-9].*", "v1.x", true],
    ["v[!0-9]*", "v1", false],
    ["pull_request.*", "pull_request.opened", true],
    ["a.b", "axb", false],
    ["(x)|y", "(x)|y", true],
    ["\\*", "*", true],
    ["\\*", "x", false],
    [".hidden*", ".hidden-branch", true],
  ])("%s ~ %s → %s", (pattern, value, expected) => {
    expect(globMatches(value, [pattern])).toBe(expected);
  });

  it("is compiled to RE2, whose matching time is linear in the input", () => {
    expect(compileGlobs(["*a*a*a*a*a*a*a*a*a*a*b"])).toBeInstanceOf(RE2);
    expect(globMatches("a".repeat(100_000), ["*a*a*a*a*a*a*a*a*a*a*b"])).toBe(false);
  });
});

describe("pattern lists", () => {
  it("split on commas outside braces", () => {
    expect(parsePatternList("branches", "main, release/{1,2}")).toEqual(["main", "release/{1,2}"]);
  });

  it(`refuse more than ${MAX_PATTERNS} patterns, or one longer than ${MAX_PATTERN_LENGTH} characters`, () => {
    expect(() =>
      parsePatternList(
        "branches",
        Array(MAX_PATTERNS + 1)
          .fill("x")
          .join(","),
      ),
    ).toThrow(`branches lists too many patterns: the limit is ${MAX_PATTERNS}`);
    expect(() => parsePatternList("only_events", "a".repeat(MAX_PATTERN_LENGTH + 1))).toThrow(
      `only_events has a pattern that is too long: the limit is ${MAX_PATTERN_LENGTH} characters`,
    );
    expect(parsePatternList("branches", Array(MAX_PATTERNS).fill("x").join(","))).toHaveLength(MAX_PATTERNS);
  });

  it("refuse an unbalanced brace", () => {
    expect(() => parsePatternList("branches", "release/{1")).toThrow("unbalanced '{'");
  });
});

// `npm run mutate:narrow` sets MUTATE_UNIT_ONLY: it scores the glob/event code against the unit
// tests alone (starting a server for each mutant is too slow on a shared machine).
const endpointSuite = process.env.MUTATE_UNIT_ONLY ? describe.skip : describe;

endpointSuite("through the webhook endpoint", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
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
