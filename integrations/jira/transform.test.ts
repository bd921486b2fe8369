// Edge cases of the Jira wiki-markup conversion and the changelog summary. The fixture suite
// (fixtures/) is the acceptance test through the real app; these pin down the details.
import { jiraToMarkdown, MAX_QUOTED } from "./markup";
import { browseUrl, describeChanges } from "./transform";

describe("jiraToMarkdown", () => {
  it.each([
    ["*bold* and *two words*", "**bold** and **two words**"],
    ["* a bullet\n** nested", "* a bullet\n  * nested"],
    ["# one\n# two\n## two.a", "1. one\n1. two\n   1. two.a"],
    ["h2. Title", "**Title**"],
    ["use {{npm ci}} here", "use `npm ci` here"],
    [
      "[docs|https://example.org/a] and [https://example.org/b]",
      "[docs](https://example.org/a) and https://example.org/b",
    ],
    ["[click|javascript:alert(1)]", "[click|javascript:alert(1)]"],
    ["ping [~accountid:5b10a2844c20165700ede21g] and [~jsmith]", "ping @someone and @jsmith"],
    ["{color:red}alert{color}", "alert"],
    ["!screen.png|thumbnail!", "(image: screen.png)"],
    ["2*3*4 stays", "2*3*4 stays"],
    ["snake_case_name", "snake_case_name"],
  ])("converts %j", (input, output) => {
    expect(jiraToMarkdown(input)).toBe(output);
  });

  it("keeps code blocks verbatim, with the language", () => {
    expect(jiraToMarkdown("before\n{code:java}\nint *x* = 1; // {{y}}\n{code}\nafter")).toBe(
      "before\n\n```java\nint *x* = 1; // {{y}}\n```\n\nafter",
    );
    expect(jiraToMarkdown("{noformat}\n```\n{noformat}")).toBe("````\n```\n````");
  });

  it("separates a quote from the text around it", () => {
    expect(jiraToMarkdown("said:\n{quote}a\nb{quote}\nthen")).toBe("said:\n\n> a\n> b\n\nthen");
  });

  it("cuts very long texts and gives '' for missing ones", () => {
    expect([...jiraToMarkdown("x".repeat(MAX_QUOTED * 2))].length).toBeLessThanOrEqual(MAX_QUOTED);
    expect(jiraToMarkdown(null)).toBe("");
    expect(jiraToMarkdown(undefined)).toBe("");
  });
});

describe("browseUrl", () => {
  it("turns the REST URL into the issue page, keeping a context path", () => {
    expect(browseUrl("https://acme.atlassian.net/rest/api/2/issue/10000", "AB-1")).toBe(
      "https://acme.atlassian.net/browse/AB-1",
    );
    expect(browseUrl("http://intra:8080/jira/rest/api/2/issue/7", "OPS-7")).toBe("http://intra:8080/jira/browse/OPS-7");
  });
  it("gives nothing for missing or odd URLs", () => {
    expect(browseUrl(undefined, "AB-1")).toBeUndefined();
    expect(browseUrl("https://acme.atlassian.net/rest/api/2/issue/1", undefined)).toBeUndefined();
    expect(browseUrl("ftp://x/rest/api/2/issue/1", "AB-1")).toBeUndefined();
  });
});

describe("describeChanges", () => {
  it("drops bookkeeping fields and unchanged values, names fields readably", () => {
    expect(
      describeChanges([
        { field: "Rank", fromString: "", toString: "Ranked higher" },
        { field: "timespent", fromString: "60", toString: "120" },
        { field: "issuetype", fromString: "Task", toString: "Bug" },
        { field: "summary", fromString: "Same", toString: "Same" },
      ]),
    ).toEqual([{ field: "type", from: "Task", to: "Bug" }]);
  });
  it("lists added and removed labels", () => {
    expect(describeChanges([{ field: "labels", fromString: "a b", toString: "b c d" }])).toEqual([
      { field: "labels", added: ["c", "d"], removed: ["a"] },
    ]);
  });
});
