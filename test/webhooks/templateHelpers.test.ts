// The template helper library in detail (pure functions, no server): each exported function's
// edge cases, each helper as a template calls it, and which `{{…}}` are auto-escaped.
import Handlebars from "handlebars";
import {
  branchName,
  codeBlock,
  codeSpan,
  commitList,
  COMMITS_LIMIT,
  compilePartial,
  compileTemplate,
  firstLine,
  HELPER_NAMES,
  isSafe,
  markdownLink,
  pluralize,
  quoteBlock,
  relativeTime,
  safeMarkdown,
  sentenceList,
  shortSha,
  toDate,
} from "../../src/webhooks/helpers";

const render = (source: string, view: unknown = {}, data: Record<string, unknown> = {}) =>
  compileTemplate(source)(view, data, {});
const SAFE = safeMarkdown("*safe*");

describe("safe Markdown values", () => {
  it("safeMarkdown marks non-empty text as safe and keeps empty text a plain falsy ''", () => {
    expect(isSafe(SAFE)).toBe(true);
    expect(SAFE.toString()).toBe("*safe*");
    expect(safeMarkdown("")).toBe("");
    expect(isSafe("*safe*")).toBe(false);
    expect(isSafe(undefined)).toBe(false);
  });
});

describe("text functions", () => {
  it("firstLine: the first line, trimmed, of any value", () => {
    expect(firstLine("  one  \ntwo")).toBe("one");
    expect(firstLine("one\r\ntwo")).toBe("one");
    expect(firstLine("\ntwo")).toBe("");
    expect(firstLine(undefined)).toBe("");
    expect(firstLine(null)).toBe("");
    expect(firstLine(42)).toBe("42");
    expect(firstLine(false)).toBe("false");
    expect(firstLine({ a: [1] })).toBe('{"a":[1]}');
    expect(firstLine(SAFE)).toBe("*safe*");
  });

  it("shortSha: 11 characters unless a numeric length is given", () => {
    const sha = "0123456789abcdef";
    expect(shortSha(sha)).toBe("0123456789a");
    expect(shortSha(sha, 4)).toBe("0123");
    expect(shortSha(sha, "4")).toBe("0123456789a");
    expect(shortSha(undefined)).toBe("");
  });

  it("branchName strips only a leading refs/heads/ or refs/tags/", () => {
    expect(branchName("refs/heads/a/b")).toBe("a/b");
    expect(branchName("refs/tags/v1")).toBe("v1");
    expect(branchName("refs/remotes/origin/x")).toBe("refs/remotes/origin/x");
    expect(branchName("x/refs/heads/y")).toBe("x/refs/heads/y");
    expect(branchName(null)).toBe("");
  });

  it("pluralize: the singular for exactly one, else the given plural or singular + s", () => {
    expect(pluralize(1, "child", "children")).toBe("child");
    expect(pluralize("1", "child")).toBe("child");
    expect(pluralize(0, "child", "children")).toBe("children");
    expect(pluralize(2, "commit")).toBe("commits");
    expect(pluralize(2, "commit", "")).toBe("");
  });

  it("sentenceList: commas and a final 'and', empty names skipped", () => {
    expect(sentenceList([])).toBe("");
    expect(sentenceList(["a"])).toBe("a");
    expect(sentenceList(["a", "b"])).toBe("a and b");
    expect(sentenceList(["a", "", null, "b", "c"])).toBe("a, b and c");
    expect(sentenceList([{ n: "a" }, null, { m: "x" }, { n: "b" }], "n")).toBe("a and b");
    expect(sentenceList(["a", "b"], "")).toBe("a and b");
    expect(sentenceList("not a list")).toBe("not a list");
    expect(sentenceList(undefined)).toBe("");
  });
});

describe("code and quotes", () => {
  it("codeSpan: one line, fenced by more backticks than it contains, padded when it starts or ends with one", () => {
    expect(codeSpan("a b")).toBe("`a b`");
    expect(codeSpan("a\nb")).toBe("`a b`");
    expect(codeSpan("a``b")).toBe("```a``b```");
    expect(codeSpan("`a")).toBe("`` `a ``");
    expect(codeSpan("a`")).toBe("`` a` ``");
    expect(codeSpan("a~~~b")).toBe("`a~~~b`");
    expect(codeSpan("")).toBe("");
    expect(codeSpan(null)).toBe("");
  });

  it("codeBlock: a fence of at least three backticks, longer than any run inside, with the language", () => {
    expect(codeBlock("x")).toBe("```\nx\n```");
    expect(codeBlock("x\n\n  ", "js")).toBe("```js\nx\n```");
    expect(codeBlock("a ```` b")).toBe("`````\na ```` b\n`````");
    expect(codeBlock("~~~~")).toBe("```\n~~~~\n```");
    expect(codeBlock(undefined)).toBe("```\n\n```");
    expect(codeBlock("a b\n", "js")).toBe("```js\na b\n```");
  });

  it("quoteBlock: Zulip's quote fence of tildes, longer than any tilde run inside", () => {
    expect(quoteBlock("a\r\nb\n\n")).toBe("~~~ quote\na\nb\n~~~");
    expect(quoteBlock("a ~~~ b")).toBe("~~~~ quote\na ~~~ b\n~~~~");
    expect(quoteBlock("````")).toBe("~~~ quote\n````\n~~~");
    expect(quoteBlock("a\r\nb\r\nc")).toBe("~~~ quote\na\nb\nc\n~~~");
  });
});

describe("dates", () => {
  const iso = (d: Date | undefined) => d?.toISOString();

  it("toDate: Dates, epoch seconds, epoch milliseconds and date strings", () => {
    const d = new Date("2025-03-14T09:26:53Z");
    expect(toDate(d)).toBe(d);
    expect(iso(toDate(1741944413))).toBe("2025-03-14T09:26:53.000Z");
    expect(iso(toDate(1741944413123))).toBe("2025-03-14T09:26:53.123Z");
    expect(iso(toDate(999999999999))).toBe("+033658-09-27T01:46:39.000Z");
    expect(iso(toDate(1e12))).toBe("2001-09-09T01:46:40.000Z");
    expect(iso(toDate("1741944413"))).toBe("2025-03-14T09:26:53.000Z");
    expect(iso(toDate("2025-03-14"))).toBe("2025-03-14T00:00:00.000Z");
  });

  it("toDate: nothing for other values, blanks, garbage and out-of-range numbers", () => {
    expect(toDate(undefined)).toBeUndefined();
    expect(toDate(true)).toBeUndefined();
    expect(toDate("")).toBeUndefined();
    expect(toDate("   ")).toBeUndefined();
    expect(toDate("soon")).toBeUndefined();
    expect(toDate(NaN)).toBeUndefined();
    expect(toDate(9e15)).toBeUndefined();
    expect(toDate("99999999999999999")).toBeUndefined();
  });

  it("relativeTime: 'just now' within ten seconds either way", () => {
    const now = "2025-03-14T12:00:00Z";
    expect(relativeTime("2025-03-14T12:00:00Z", now)).toBe("just now");
    expect(relativeTime("2025-03-14T11:59:50.6Z", now)).toBe("just now");
    expect(relativeTime("2025-03-14T12:00:09.4Z", now)).toBe("just now");
    expect(relativeTime("2025-03-14T11:59:50.4Z", now)).toBe("10 seconds ago");
    expect(relativeTime("2025-03-14T12:00:10Z", now)).toBe("in 10 seconds");
  });

  it("relativeTime: the largest whole unit, singular for one, past and future", () => {
    const now = Date.parse("2025-03-14T12:00:00Z");
    const ago = (s: number) => relativeTime(new Date(now - s * 1000), now);
    expect(ago(59)).toBe("59 seconds ago");
    expect(ago(60)).toBe("1 minute ago");
    expect(ago(119)).toBe("1 minute ago");
    expect(ago(120)).toBe("2 minutes ago");
    expect(ago(3599)).toBe("59 minutes ago");
    expect(ago(3600)).toBe("1 hour ago");
    expect(ago(86399)).toBe("23 hours ago");
    expect(ago(86400)).toBe("1 day ago");
    expect(ago(86400 * 30 - 1)).toBe("29 days ago");
    expect(ago(86400 * 30)).toBe("1 month ago");
    expect(ago(86400 * 365 - 1)).toBe("12 months ago");
    expect(ago(86400 * 365)).toBe("1 year ago");
    expect(ago(86400 * 365 * 3)).toBe("3 years ago");
    expect(ago(-7200)).toBe("in 2 hours");
    expect(ago(-60)).toBe("in 1 minute");
  });

  it("relativeTime: a value that is no date is shown as it is", () => {
    expect(relativeTime("tomorrow", 0)).toBe("tomorrow");
    expect(relativeTime(undefined, 0)).toBe("");
  });
});

describe("commitList", () => {
  const commit = (i: number, extra: Record<string, unknown> = {}) => ({
    id: `${i}`.repeat(40),
    message: `Fix *${i}*\n\nbody`,
    url: `https://git.example/c/${i}`,
    ...extra,
  });

  it("lists each commit's escaped first line and a link on its short SHA", () => {
    expect(commitList([commit(1), commit(2)])).toBe(
      "* Fix \\*1\\* ([11111111111](https://git.example/c/1))\n* Fix \\*2\\* ([22222222222](https://git.example/c/2))",
    );
  });

  it("shows the SHA as code when the URL is not http(s), and trims and escapes the URL", () => {
    expect(commitList([commit(3, { url: "javascript:x" }), commit(4, { url: " https://g.example/a b " })])).toBe(
      "* Fix \\*3\\* (`33333333333`)\n* Fix \\*4\\* ([44444444444](https://g.example/a%20b))",
    );
  });

  it("lists at most COMMITS_LIMIT commits, then counts the rest", () => {
    expect(COMMITS_LIMIT).toBe(20);
    const commits = Array.from({ length: 21 }, (_, i) => commit(i % 10));
    const lines = commitList(commits).split("\n");
    expect(lines.length).toBe(21);
    expect(lines[19]).toBe("* Fix \\*9\\* ([99999999999](https://git.example/c/9))");
    expect(lines[20]).toBe("[and 1 more commit(s)]");
    expect(commitList(commits.slice(0, 20)).split("\n").length).toBe(20);
  });

  it("takes the limit and the field names from the hash", () => {
    const commits = [
      { hash: "abcdef0123456789", title: "One", link: "https://g.example/1" },
      { hash: "b" },
      { hash: "c" },
    ];
    expect(commitList(commits, { limit: 1, sha: "hash", message: "title", url: "link" })).toBe(
      "* One ([abcdef01234](https://g.example/1))\n[and 2 more commit(s)]",
    );
    expect(commitList(commits, { limit: "1", sha: "hash" })).toBe("*  (`abcdef01234`)\n*  (`b`)\n*  (`c`)");
    expect(commitList(commits, { limit: 0 })).toBe("[and 3 more commit(s)]");
  });

  it("copes with missing commits and fields, and with a value that is no list", () => {
    expect(commitList([null, {}])).toBe("*  ()\n*  ()");
    expect(commitList("abc")).toBe("");
    expect(commitList(undefined)).toBe("");
  });
});

describe("markdownLink", () => {
  it("links an http(s) URL with escaped text, the URL trimmed and escaped", () => {
    expect(markdownLink(" https://x.example/a b ", "*t*\n[x]")).toBe("[\\*t\\* \\[x\\]](https://x.example/a%20b)");
  });

  it("uses the URL as text when the text is missing or empty", () => {
    expect(markdownLink("https://x.example/_a_")).toBe("[https://x.example/\\_a\\_](https://x.example/_a_)");
    expect(markdownLink("https://x.example", null)).toBe("[https://x.example](https://x.example)");
    expect(markdownLink("https://x.example", "")).toBe("[https://x.example](https://x.example)");
  });

  it("keeps safe Markdown text as it is, on one line", () => {
    expect(markdownLink("https://x.example", safeMarkdown("**a**  \n  b"))).toBe("[**a** b](https://x.example)");
  });

  it("gives the text alone, escaped, for anything but an http(s) URL", () => {
    expect(markdownLink("javascript:alert(1)", "*t*")).toBe("\\*t\\*");
    expect(markdownLink("javascript:alert(1)")).toBe("javascript:alert(1)");
    expect(markdownLink("ftp://x", SAFE)).toBe("*safe*");
    expect(markdownLink(undefined)).toBe("");
  });
});

describe("text helpers in templates", () => {
  it("firstLine, lower, upper, capitalize", () => {
    expect(render("{{firstLine s}}|{{lower s}}|{{upper s}}", { s: "Ab\nc" })).toBe("Ab|ab\nc|AB\nC");
    expect(render("[{{lower n}}{{upper n}}{{firstLine n}}]", { n: null })).toBe("[]");
    expect(render("{{capitalize 'élan vital'}}|{{capitalize s}}", { s: "\nab" })).toBe("Élan vital|\nab");
  });

  it("truncate cuts to n characters including the '...'", () => {
    expect(render("{{truncate s 5}}|{{truncate s 6}}|{{truncate s 2}}", { s: "abcdef" })).toBe("ab...|abcdef|...");
    expect(render("{{truncate s 4}}", { s: "😀😀😀😀😀" })).toBe("😀...");
  });

  it("limitTopic", () => {
    expect(render("{{limitTopic s}}", { s: "x".repeat(61) })).toBe(`${"x".repeat(57)}...`);
  });

  it("take, moreThan and length", () => {
    const view = { l: ["a", "b", "c"] };
    expect(render("{{#each (take l 2)}}{{this}};{{/each}}{{moreThan l 2}} {{moreThan l 5}}", view)).toBe("a;b;1 0");
    expect(render("{{#each (take 5 2)}}x{{else}}none{{/each}} {{moreThan 5 2}}")).toBe("none 0");
    expect(render("{{length l}} {{length s}} {{length 5}}", { ...view, s: "😀a" })).toBe("3 2 0");
  });

  it("split: a list sent as text or as an array, parts trimmed and blanks dropped", () => {
    const each = "{{#each (split v)}}[{{this}}]{{else}}none{{/each}}";
    expect(render(each, { v: "web1, web2,,web3 " })).toBe("[web1][web2][web3]");
    expect(render(each, { v: [" web1", "", 7] })).toBe("[web1][7]");
    expect(render("{{#each (split v ';')}}[{{this}}]{{/each}}", { v: "a, b;c" })).toBe("[a, b][c]");
    expect(render(each, { v: null })).toBe("none");
    expect(render(each, { v: " , " })).toBe("none");
    expect(render("{{#with (split v) as |l|}}{{join (take l 1)}}+{{moreThan l 1}}{{/with}}", { v: "x,y,z" })).toBe(
      "x+2",
    );
  });

  it("scalarText: trimmed text or a number in decimal, nothing for blanks and other values", () => {
    const view = { n: 80, s: " 95 ", b: "  ", t: true, o: { a: 1 } };
    expect(
      render("[{{scalarText n}}][{{scalarText s}}][{{scalarText b}}][{{scalarText t}}][{{scalarText o}}]", view),
    ).toBe("[80][95][][][]");
    expect(render("{{firstText (scalarText b) (scalarText n)}}", view)).toBe("80");
  });

  it("urlEncode: one URL segment from any text", () => {
    expect(render("{{{urlEncode s}}}|{{urlEncode n}}|{{urlEncode}}", { s: "a b/c?d=é", n: 7 })).toBe(
      "a%20b%2Fc%3Fd%3D%C3%A9|7|",
    );
  });

  it("sentenceList and join", () => {
    const view = { l: ["a", "b", "c"], p: [{ n: "x" }, { n: "y" }] };
    expect(render("{{sentenceList l}}|{{sentenceList p 'n'}}", view)).toBe("a, b and c|x and y");
    expect(render("{{join l}}|{{join l '-'}}|{{join l ''}}|{{join 'abc' '-'}}", view)).toBe("a, b, c|a-b-c|abc|abc");
  });

  it("branch, isTag and shortSha", () => {
    const view = { r: "refs/tags/v1", h: "refs/heads/v1", s: "0123456789abcdef" };
    expect(render("{{branch r}} {{isTag r}} {{isTag h}} {{isTag 'x/refs/tags/y'}}", view)).toBe("v1 true false false");
    expect(render("{{shortSha s}} {{shortSha s 3}} {{shortSha s '3'}}", view)).toBe("0123456789a 012 0123456789a");
  });

  it("plural and pluralCount", () => {
    expect(render("{{plural 1 'child' 'children'}} {{plural 2 'child' 'children'}} {{plural 2 'cat'}}")).toBe(
      "child children cats",
    );
    expect(render("{{pluralCount 2 'child' 'children'}} {{pluralCount 'x' 'cat'}} {{pluralCount 1 'cat'}}")).toBe(
      "2 children 0 cats 1 cat",
    );
  });

  it("datetime: UTC, to the second; a value that is no date as it is", () => {
    expect(render("{{datetime t}}", { t: "2025-03-14T09:26:53.789Z" })).toBe("2025-03-14 09:26:53 UTC");
    expect(render("{{datetime t}}", { t: 1741944413000 })).toBe("2025-03-14 09:26:53 UTC");
    expect(render("{{datetime t}}|{{datetime}}", { t: "*soon*" })).toBe("\\*soon\\*|");
  });

  it("relativeTime against a given now", () => {
    expect(render("{{relativeTime t n}}", { t: 1741946400, n: "2025-03-14T11:00:00Z" })).toBe("1 hour ago");
  });

  it("json: pretty-printed, null for nothing", () => {
    expect(render("{{{json v}}}|{{json}}", { v: { a: [1] } })).toBe('{\n  "a": [\n    1\n  ]\n}|null');
    expect(render("{{{json v}}}|{{{json w}}}", { v: { hash: 1 }, w: { data: 2 } })).toBe(
      '{\n  "hash": 1\n}|{\n  "data": 2\n}',
    );
  });

  it("comparisons: eq/ne compare safe Markdown by its text, gt/lt compare numbers", () => {
    const src =
      "{{eq (bold 'x') '**x**'}} {{ne (bold 'x') '**x**'}} {{eq 1 '1'}} {{ne 1 '1'}} " +
      "{{gt '10' '9'}} {{gt 9 9}} {{lt '9' '10'}} {{lt 9 9}} {{gt (code 'x') 1}}";
    expect(render(src)).toBe("true false false true true false true false false");
  });

  it("logic: and / or over their arguments only, not", () => {
    expect(render("{{and 1 1}} {{and 1 0}} {{or 0 0}} {{or 0 1}} {{not 0}} {{not 1}}")).toBe(
      "true false false true true false",
    );
  });

  it("default replaces undefined, null and empty text, not 0 or false", () => {
    const view = { n: null, e: "", z: 0, f: false };
    expect(
      render("{{default u 'd'}} {{default n 'd'}} {{default e 'd'}} {{default z 'd'}} {{default f 'd'}}", view),
    ).toBe("d d d 0 false");
    expect(render("{{default (bold '') 'd'}} {{default (bold 'x') 'd'}}")).toBe("d **x**");
  });

  it("replace replaces every occurrence; a missing replacement removes", () => {
    expect(render("{{replace s 'a' 'o'}}|{{replace s 'a'}}", { s: "banana" })).toBe("bonono|bnn");
  });

  it("add and sub work on numbers and number-like values", () => {
    expect(render("{{add '2' 3}} {{sub 10 '4'}} {{add (length l) 1}}", { l: [1, 2] })).toBe("5 6 3");
  });

  it("div divides numbers and gives nothing for a missing value, a non-number or a zero divisor", () => {
    expect(render("{{div 95000 1000}} {{div '9' 2}}")).toBe("95 4.5");
    expect(render("[{{div n 1000}}][{{div 'x' 2}}][{{div 5 0}}][{{div '' 1}}]", { n: null })).toBe("[][][][]");
    expect(render("{{compactDuration (div ms 1000)}}", { ms: 125000 })).toBe("2 min 5 s");
  });
});

describe("Markdown helpers in templates", () => {
  it("escape escapes plain values and keeps safe ones", () => {
    expect(render("{{{escape s}}}|{{{escape (bold s)}}}|{{{escape}}}", { s: "*a*" })).toBe("\\*a\\*|**\\*a\\***|");
  });

  it("link", () => {
    expect(render("{{link u t}}|{{link u}}|{{link 'mailto:a@x' t}}", { u: "https://x.example", t: "*t*" })).toBe(
      "[\\*t\\*](https://x.example)|[https://x.example](https://x.example)|\\*t\\*",
    );
    expect(render("{{link u (bold t)}}", { u: "https://x.example", t: "t" })).toBe("[**t**](https://x.example)");
  });

  it("bold: escaped text in **, nothing for empty text", () => {
    expect(render("{{bold s}}|{{bold ''}}|{{#if (bold '')}}yes{{else}}no{{/if}}", { s: "a*b" })).toBe("**a\\*b**||no");
  });

  it("mention and silentMention strip stars and line breaks", () => {
    expect(render("{{mention n}} {{silentMention n}}", { n: "*Ada*\nL" })).toBe("@**AdaL** @_**AdaL**");
    expect(render("{{mention}}")).toBe("@****");
  });

  it("code and codeBlock (the language reduced to word characters, + . -)", () => {
    expect(render("{{code s}}", { s: "*x*" })).toBe("`*x*`");
    expect(render("{{codeBlock s l}}", { s: "*x*", l: "c++; rm -rf /.x" })).toBe("```c++rm-rf.x\n*x*\n```");
    expect(render("{{codeBlock s}}", { s: "x" })).toBe("```\nx\n```");
  });

  it("quote: a neutralised quote block, nothing for blank text", () => {
    expect(render("{{quote s}}", { s: "hi @**all**" })).toBe("~~~ quote\nhi @\\*\\*all**\n~~~");
    expect(render("[{{quote s}}]", { s: " \n " })).toBe("[]");
  });

  it("markdown keeps the Markdown, neutralised", () => {
    expect(render("{{markdown s}}", { s: "*a* @**all**" })).toBe("*a* @\\*\\*all**");
  });

  it("blockquote prefixes each line with '> ', nothing for blank text", () => {
    expect(render("{{blockquote s}}", { s: "a\r\n@**b**\nc" })).toBe("> a\n> @\\*\\*b**\n> c");
    expect(render("[{{blockquote s}}]", { s: "  " })).toBe("[]");
  });

  it("limitMessage escapes plain text and cuts it to the message limit", () => {
    expect(render("{{limitMessage s}}", { s: "*a*" })).toBe("\\*a\\*");
    expect(render("{{limitMessage s}}", { s: "x".repeat(10001) })).toBe(`${"x".repeat(9965)}\n[message truncated]`);
  });

  it("commitList takes its options from the hash", () => {
    const commits = [{ sha: "0123456789abcdef", msg: "m" }, { sha: "b" }];
    expect(render("{{commitList c limit=1 message='msg'}}", { c: commits.map((x) => ({ ...x, id: x.sha })) })).toBe(
      "* m (`0123456789a`)\n[and 1 more commit(s)]",
    );
  });

  it("time: Zulip's time syntax, milliseconds only when not zero; other values escaped", () => {
    expect(render("{{time t}}", { t: 1741944413 })).toBe("<time:2025-03-14T09:26:53Z>");
    expect(render("{{time t}}", { t: "2025-03-14T09:26:53.5Z" })).toBe("<time:2025-03-14T09:26:53.500Z>");
    expect(render("{{time t}}|{{time}}", { t: "*x*" })).toBe("\\*x\\*|");
  });

  it("concat: plain text when all parts are plain, escaped parts around safe Markdown", () => {
    expect(render("{{{concat a 1 n}}}|{{concat a 1}}", { a: "*a", n: null })).toBe("*a1|\\*a1");
    expect(render("{{{concat (bold 'b') a}}}", { a: "*a" })).toBe("**b**\\*a");
  });
});

describe("auto-escaping of message templates", () => {
  it("escapes values and helper results, never triple-stash", () => {
    expect(render("{{s}} {{{s}}} {{lower s}} {{{lower s}}}", { s: "*A*" })).toBe("\\*A\\* *A* \\*a\\* *a*");
  });

  it("escapes inside blocks and their else branch", () => {
    const src = "{{#if c}}{{s}}{{else}}{{s}}!{{/if}}{{#each l}}{{this}}{{/each}}{{#with o}}{{s}}{{/with}}";
    expect(render(src, { c: true, s: "*x*", l: ["_y_"], o: { s: "[z]" } })).toBe("\\*x\\*\\_y\\_\\[z\\]");
    expect(render("{{#if c}}{{s}}{{else}}{{s}}!{{/if}}", { c: false, s: "*x*" })).toBe("\\*x\\*!");
  });

  it("escapes inside inline partials and partial blocks", () => {
    expect(render('{{#*inline "p"}}{{s}}{{/inline}}{{> p}}', { s: "*x*" })).toBe("\\*x\\*");
    const page = compileTemplate("{{#> frame}}{{s}}{{/frame}}");
    expect(page({ s: "*x*" }, {}, { frame: compilePartial("<{{> @partial-block}}>{{t}}") })).toBe("<\\*x\\*>");
  });

  it("escapes values in partials, with the render's data", () => {
    const p = compilePartial("{{s}}|{{@event}}");
    expect(compileTemplate("{{> p}}")({ s: "*x*" }, { event: "push" }, { p })).toBe("\\*x\\*|push");
  });

  it("gives partials every helper they call, also through other partials, whatever the template calls itself", () => {
    const partials = {
      outer: compilePartial("{{upper s}} {{> inner}}"),
      inner: compilePartial("{{pluralCount n 'commit'}} {{link url 'here'}}"),
    };
    const page = compileTemplate("{{lower s}}: {{> outer}}");
    const view = { s: "Hi", n: 2, url: "https://x.example" };
    const expected = "hi: HI 2 commits [here](https://x.example)";
    expect(page(view, {}, partials)).toBe(expected);
    expect(page(view, {}, partials)).toBe(expected);
    // A partial made elsewhere (its helpers unknown): the template runs with every helper.
    const foreign = { outer: Handlebars.compile("{{upper s}}", { noEscape: true }) };
    expect(page(view, {}, foreign)).toBe("hi: HI");
  });

  it("calls a helper named without arguments, and prints a literal that is a helper's name", () => {
    expect(render("{{json}}|{{mention}}|{{'lower'}}|{{\"*\"}}")).toBe("null|@****|lower|\\*");
  });

  it("does not escape topic-like templates (markdown: false), HTML never", () => {
    expect(compileTemplate("{{s}} {{lower s}}", { markdown: false })({ s: "*A* &" }, {}, {})).toBe("*A* & *a* &");
    expect(compileTemplate("{{s}}", { markdown: true })({ s: "*A* &" }, {}, {})).toBe("\\*A\\* &");
    expect(render("{{s}}", { s: "<b>&amp;" })).toBe("\\<b>&amp;");
  });

  it("renders missing paths as nothing and never reads inherited properties", () => {
    expect(render("[{{a.b.c}}]", { a: {} })).toBe("[]");
    expect(render("[{{o.inherited}}]", { o: Object.create({ inherited: "x" }) })).toBe("[]");
  });

  it("refuses unknown helpers, also in sub-expressions and with hash arguments", () => {
    expect(() => compileTemplate("{{lower (shout x)}}")).toThrow(/unknown helper shout/);
    expect(() => compileTemplate("{{shout a=1}}")).toThrow(/unknown helper shout/);
    expect(() => compilePartial("{{shout x}}")).toThrow(/unknown helper shout/);
    expect(() => compileTemplate("{{#if}")).toThrow(/Parse error/);
  });
});

describe("HELPER_NAMES", () => {
  it("lists every helper a template can call, sorted, without the internal escaper", () => {
    expect(HELPER_NAMES).toEqual([
      "add",
      "and",
      "blockquote",
      "bold",
      "branch",
      "capitalize",
      "changeList",
      "code",
      "codeBlock",
      "colorMarker",
      "commitList",
      "compactDuration",
      "concat",
      "contains",
      "datetime",
      "default",
      "div",
      "durationBetween",
      "eq",
      "escape",
      "firstLine",
      "firstText",
      "gt",
      "isTag",
      "join",
      "json",
      "length",
      "limitMessage",
      "limitTopic",
      "link",
      "lower",
      "lt",
      "markdown",
      "mention",
      "moreThan",
      "ne",
      "not",
      "or",
      "plural",
      "pluralCount",
      "quote",
      "relativeTime",
      "replace",
      "scalarText",
      "segmentAfter",
      "sentenceList",
      "shortSha",
      "silentMention",
      "split",
      "startsWith",
      "sub",
      "table",
      "take",
      "time",
      "trimPrefix",
      "trimSuffix",
      "truncate",
      "upper",
      "urlEncode",
    ]);
  });
});
