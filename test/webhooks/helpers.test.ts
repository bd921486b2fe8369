// The template helper library and Markdown limits (pure functions, no server).
import { colorMarker, compileTemplate, HELPER_NAMES } from "../../src/webhooks/helpers";
import { escapeMarkdown, limitMarkdown, limitTopic } from "../../src/webhooks/safeMarkdown";

const render = (source: string, view: unknown = {}, data: Record<string, unknown> = {}) =>
  compileTemplate(source)(view, data, {});

describe("webhook template helpers", () => {
  it("exposes the documented helper names", () => {
    expect(HELPER_NAMES).toEqual(
      expect.arrayContaining([
        "link",
        "mention",
        "code",
        "codeBlock",
        "quote",
        "commitList",
        "branch",
        "plural",
        "pluralCount",
        "relativeTime",
        "time",
        "escape",
        "limitMessage",
        "limitTopic",
        "shortSha",
        "json",
        "eq",
        "and",
        "or",
        "not",
        "default",
        "sentenceList",
      ]),
    );
  });

  it("builds links with escaped text and safe URLs", () => {
    expect(render("{{link url title}}", { url: "https://x.example/a (b)", title: "a [b] *c*" })).toBe(
      "[a \\[b\\] \\*c\\*](https://x.example/a%20%28b%29)",
    );
    expect(render("{{link url title}}", { title: "no url" })).toBe("no url");
  });

  it("makes mentions, code spans and blocks that survive backticks", () => {
    expect(render("{{mention name}} {{silentMention name}}", { name: "Ada L" })).toBe("@**Ada L** @_**Ada L**");
    expect(render("{{code s}}", { s: "a`b" })).toBe("``a`b``");
    expect(render("{{codeBlock s 'js'}}", { s: "x\n```\ny" })).toBe("````js\nx\n```\ny\n````");
    expect(render("{{quote s}}", { s: "quoted\ntext\n" })).toBe("~~~ quote\nquoted\ntext\n~~~");
  });

  it("names branches, shortens SHAs and pluralizes", () => {
    expect(
      render("{{branch a}} {{branch b}} {{branch c}}", { a: "refs/heads/feature/x", b: "refs/tags/v1.2", c: "main" }),
    ).toBe("feature/x v1.2 main");
    expect(render("{{shortSha s}} {{shortSha s 7}}", { s: "0123456789abcdef0123" })).toBe("0123456789a 0123456");
    expect(
      render("{{pluralCount 1 'commit'}}, {{pluralCount n 'commit'}}, {{plural n 'child' 'children'}}", { n: 3 }),
    ).toBe("1 commit, 3 commits, children");
  });

  it("lists commits with truncation after the limit", () => {
    const commits = Array.from({ length: 23 }, (_, i) => ({
      id: `${i}`.padStart(40, "f"),
      message: `Commit ${i}\nbody`,
      url: `https://git.example/${i}`,
    }));
    const lines = render("{{commitList commits}}", { commits }).split("\n");
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe("* Commit 0 ([fffffffffff](https://git.example/0))");
    expect(lines[20]).toBe("[and 3 more commit(s)]");
  });

  it("formats times", () => {
    expect(render("{{time t}}", { t: "2025-03-14T09:26:53Z" })).toBe("<time:2025-03-14T09:26:53Z>");
    expect(render("{{datetime t}}", { t: 1741944413 })).toBe("2025-03-14 09:26:53 UTC");
    expect(render("{{relativeTime t now}}", { t: "2025-03-14T09:00:00Z", now: "2025-03-14T12:00:00Z" })).toBe(
      "3 hours ago",
    );
  });

  it("has logic helpers and data variables", () => {
    expect(
      render("{{#if (and a (or b c) (not d))}}yes{{/if}} {{default x 'none'}} {{#if (eq n 2)}}two{{/if}}", {
        a: 1,
        c: 1,
        n: 2,
      }),
    ).toBe("yes none two");
    expect(
      render("{{sentenceList people 'login'}}", { people: [{ login: "a" }, { login: "b" }, { login: "c" }] }),
    ).toBe("a, b and c");
    expect(render("{{@event}}/{{@options.branches}}", {}, { event: "push", options: { branches: "main" } })).toBe(
      "push/main",
    );
  });

  it("refuses unknown helpers at compile time", () => {
    expect(() => compileTemplate("{{shout x}}")).toThrow(/unknown helper shout/);
  });
});

describe("Markdown limits", () => {
  it("escapes formatting and block markers", () => {
    expect(escapeMarkdown("# not a heading *x* _y_ `z`")).toBe("\\# not a heading \\*x\\* \\_y\\_ \\`z\\`");
    expect(escapeMarkdown("1. item\n- item")).toBe("1\\. item\n\\- item");
  });

  it("truncates long messages and closes an open code fence", () => {
    const text = "intro\n```\n" + "line of code\n".repeat(2000);
    const out = limitMarkdown(text, 10000);
    expect([...out].length).toBeLessThanOrEqual(10000);
    expect(out.endsWith("\n```\n[message truncated]")).toBe(true);
    expect(limitMarkdown("short")).toBe("short");
  });

  it("cuts topics to 57 characters plus an ellipsis", () => {
    expect(limitTopic("x".repeat(61))).toBe("x".repeat(57) + "...");
    expect(limitTopic("x".repeat(60))).toBe("x".repeat(60));
  });
});

describe("colorMarker", () => {
  it("maps a sender's colour, in any of its spellings, to the nearest coloured circle", () => {
    const cases: [unknown, string][] = [
      [0xff0000, "🔴"],
      [10690615, "🔴"], // Apprise's failure colour as Discord's integer
      ["#A32037", "🔴"],
      [65280, "🟢"],
      ["#32CD32", "🟢"],
      ["good", "🟢"],
      ["Warning", "🟡"],
      ["danger", "🔴"],
      ["attention", "🔴"],
      ["#ff8800", "🟠"],
      ["#0078D7", "🔵"],
      ["764FA5", "🟣"],
      ["#fff", "⚪"],
      [0, "⚫"],
      ["#7b3f00", "🟤"],
      ["16711680", "🔴"],
    ];
    for (const [value, marker] of cases) expect([value, colorMarker(value)]).toEqual([value, marker]);
  });

  it("gives nothing for what is not a colour", () => {
    for (const value of ["", "xyz", "#12345", -1, 0x1000000, 1.5, null, undefined, {}, "99999999"])
      expect(colorMarker(value)).toBe("");
  });
});

it("{{colorMarker}} is a template helper", () => {
  expect(render("{{colorMarker color}} down", { color: 16711680 })).toBe("🔴 down");
});
