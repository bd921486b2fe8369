// The helpers several plugins' transforms share (src/webhooks/plugin.ts), on their own.
import {
  committersSummary,
  compactDuration,
  decodeHtmlEntities,
  durationInWords,
  giteaCommittersSummary,
  gitPushKind,
  htmlToMarkdown,
  nonEmptyText,
} from "../../src/webhooks/plugin";

describe("htmlToMarkdown", () => {
  it("turns blocks into lines and keeps images and links as Markdown links", () => {
    const html =
      '<div>Too many <b>cats</b> &amp; not enough guinea pigs.</div>\n<div><br></div><div><img src="https://cdn.example/pig.png?1" class="inline-image"></div><p>See <a href="https://example.com/a b">the list</a></p>';
    expect(htmlToMarkdown(html)).toBe(
      "Too many cats & not enough guinea pigs.\n\n[image](https://cdn.example/pig.png?1)\n\nSee [the list](https://example.com/a%20b)",
    );
  });

  it("escapes text so that it cannot format or link", () => {
    expect(htmlToMarkdown("<p>*bold* [x](javascript:alert(1)) &lt;b&gt;</p>")).toBe(
      "\\*bold\\* \\[x\\](javascript:alert(1)) \\<b>",
    );
  });

  it("drops links that are not http(s)", () => {
    expect(htmlToMarkdown('<a href="javascript:alert(1)">click</a>')).toBe("click");
  });
});

describe("decodeHtmlEntities", () => {
  it("decodes named and numeric entities and keeps unknown ones", () => {
    expect(decodeHtmlEntities("1 &lt; 2 &AMP; 3 &#62; 2 &#x263A; &bogus; &#0;")).toBe("1 < 2 & 3 > 2 ☺ &bogus; &#0;");
  });
});

describe("nonEmptyText", () => {
  it.each([
    ["  hi ", "hi"],
    ["   ", undefined],
    [42, undefined],
    [{ a: 1 }, undefined],
    [null, undefined],
  ])("%j → %j", (value, text) => expect(nonEmptyText(value)).toBe(text));
});

describe("compactDuration", () => {
  it.each([
    [0, "0 s"],
    [44.6, "45 s"],
    [60, "1 min"],
    [125, "2 min 5 s"],
    [3600, "1 h"],
    [3780, "1 h 3 min"],
  ])("%s s → %s", (seconds, text) => expect(compactDuration(seconds)).toBe(text));
  it("gives undefined for a negative or unknown span", () => {
    expect(compactDuration(-1)).toBeUndefined();
    expect(compactDuration(Number.NaN)).toBeUndefined();
  });
});

describe("durationInWords", () => {
  it.each([
    [10_000, "less than a minute"],
    [60_000, "1 minute"],
    [6 * 60_000, "6 minutes"],
    [(2 * 60 + 5) * 60_000, "2 hours 5 minutes"],
    [(3 * 1440 + 4 * 60 + 7) * 60_000, "3 days 4 hours"],
    [1440 * 60_000 + 5 * 60_000, "1 day 5 minutes"],
  ])("%s ms → %s", (ms, text) => expect(durationInWords(ms)).toBe(text));
  it("gives undefined for a negative or unknown span", () => {
    expect(durationInWords(-1)).toBeUndefined();
    expect(durationInWords(Number.NaN)).toBeUndefined();
  });
});

describe("committersSummary", () => {
  const name = (c: string) => c;
  it("counts commits per author, most first, ties by name, at most `named` names", () => {
    expect(committersSummary(["bo", "ada", "bo"], name, () => false)).toBe("Commits by bo (2) and ada (1).");
    expect(committersSummary(["d", "c", "b", "a", "a"], name, () => false, 2)).toBe(
      "Commits by a (2), b (1) and others (2).",
    );
    expect(committersSummary(["x"], name, () => false)).toBe("Commits by x (1).");
  });
  it("is empty when every commit is the pusher's, or there are none", () => {
    expect(committersSummary(["ada", "ada"], name, (c) => c === "ada")).toBe("");
    expect(committersSummary([], name, () => false)).toBe("");
  });
});

describe("giteaCommittersSummary", () => {
  const by = (username?: string, email?: string, name?: string) => ({ author: { username, email, name } });
  it("recognises the pusher by user name or e-mail and names others by user name, then name", () => {
    const pusher = { login: "ada", email: "ada@example.com" };
    expect(giteaCommittersSummary([by("ada"), by(undefined, "ada@example.com")], pusher)).toBe("");
    expect(giteaCommittersSummary([by("ada"), by(undefined, undefined, "Bo Li"), by()], pusher)).toBe(
      "Commits by Bo Li (1), ada (1) and unknown (1).",
    );
  });
});

describe("gitPushKind", () => {
  const zero = "0000000";
  it.each([
    [{ ref: "refs/tags/v1", after: "abc" }, "tag_pushed"],
    [{ ref: "refs/tags/v1", after: zero }, "tag_removed"],
    [{ ref: "refs/heads/x", after: zero }, "branch_deleted"],
    [{ ref: "refs/heads/x", after: "abc", commits: [{}] }, "commits"],
    [{ ref: "refs/heads/x", before: zero, after: "abc", commits: [] }, "branch_created"],
    [{ ref: "refs/heads/x", before: "abc", after: "def", commits: null }, "no_commits"],
  ])("%j → %s", (push, kind) => expect(gitPushKind(push)).toBe(kind));
});
