// Edge cases of the CircleCI transform that the fixtures do not all reach: commit links per
// VCS host (including git@ URLs) and durations across units.
import transform, { commitUrl, duration } from "./transform";

describe("commitUrl", () => {
  it.each([
    ["https://github.com/acme/app", "https://github.com/acme/app/commit/abc"],
    ["https://gitlab.com/acme/app/", "https://gitlab.com/acme/app/-/commit/abc"],
    ["https://bitbucket.org/acme/app", "https://bitbucket.org/acme/app/commits/abc"],
    ["git@gitlab.com:acme/app.git", "https://gitlab.com/acme/app/-/commit/abc"],
  ])("%s", (repo, url) => expect(commitUrl(repo, "abc")).toBe(url));

  it("gives no link without a web URL or a sha", () => {
    expect(commitUrl("ssh://example.org/app", "abc")).toBeUndefined();
    expect(commitUrl("https://github.com/acme/app", undefined)).toBeUndefined();
  });
});

describe("duration", () => {
  it.each([
    ["2026-01-01T00:00:00Z", "2026-01-01T00:00:09.600Z", "10 s"],
    ["2026-01-01T00:00:00Z", "2026-01-01T00:02:00Z", "2 min"],
    ["2026-01-01T00:00:00Z", "2026-01-01T00:02:05Z", "2 min 5 s"],
    ["2026-01-01T00:00:00Z", "2026-01-01T03:00:40Z", "3 h"],
    ["2026-01-01T00:00:00Z", "2026-01-01T01:07:00Z", "1 h 7 min"],
  ])("%s → %s", (from, to, text) => expect(duration(from, to)).toBe(text));

  it("is undefined for missing or reversed times", () => {
    expect(duration(null, "2026-01-01T00:00:00Z")).toBeUndefined();
    expect(duration("2026-01-01T00:01:00Z", "2026-01-01T00:00:00Z")).toBeUndefined();
  });
});

describe("transform", () => {
  it("prefers the GitLab trigger parameters when there is no vcs block, and drops an actor who is the author", () => {
    const view = transform({
      pipeline: {
        trigger_parameters: {
          gitlab: {
            web_url: "https://gitlab.com/a/b",
            checkout_sha: "0123456789abcdef",
            branch: "dev",
            user_name: "Bo",
          },
          git: { branch: "ignored" },
        },
      },
      workflow: { status: "failed" },
    });
    expect(view.source).toMatchObject({
      branch: "dev",
      sha: "0123456",
      commitUrl: "https://gitlab.com/a/b/-/commit/0123456789abcdef",
    });
    expect(view.source.actor).toBe("Bo");
    expect(view.resultKey).toBe("failed");
  });
});
