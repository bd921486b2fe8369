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

describe("htmlToMarkdown, element by element", () => {
  it("drops comments (each one, not the text between them)", () => {
    expect(htmlToMarkdown("<!-- <b>hidden</b> -->a<!--x-->b<!--\nmulti\nline\n-->c")).toBe("abc");
  });

  it("collapses whitespace runs and trims every line", () => {
    expect(htmlToMarkdown("  one \n\t two  <br>   three  ")).toBe("one two\nthree");
  });

  it("breaks lines at br, p, div, h1–h6 and tr (any case, closing tags too), not at other tags", () => {
    expect(htmlToMarkdown("a<BR>b<p>c</p>d<div>e</div>f<h1>g</h1>h<h6>i<tr>j")).toBe("a\nb\nc\nd\ne\nf\ng\nh\ni\nj");
    expect(htmlToMarkdown("a<h7>b</h7><span>c</span><td>d</td><table>e")).toBe("abcde");
    expect(htmlToMarkdown("a< p>b</ div>c")).toBe("a\nb\nc");
  });

  it("keeps at most one blank line between blocks", () => {
    expect(htmlToMarkdown("<p>a</p><p></p><p></p><p>b</p>")).toBe("a\n\nb");
  });

  it("turns list items into bullets", () => {
    expect(htmlToMarkdown("<ul><li>one</li><li>two</li></ul>")).toBe("* one\n* two");
  });

  it("reads src/href/alt quoted either way or unquoted, entity-decoded, with spaces around '='", () => {
    expect(htmlToMarkdown("<img src='https://x.example/a.png' alt='A pig'>")).toBe("[A pig](https://x.example/a.png)");
    expect(htmlToMarkdown("<IMG SRC = https://x.example/a.png ALT=pig>")).toBe("[pig](https://x.example/a.png)");
    expect(htmlToMarkdown('<a href="https://x.example/?a=1&amp;b=2">q</a>')).toBe("[q](https://x.example/?a=1&b=2)");
    expect(htmlToMarkdown('<a\thref="HTTP://X.EXAMPLE/">up</a>')).toBe("[up](HTTP://X.EXAMPLE/)");
  });

  it("an attribute only counts under its own name", () => {
    expect(htmlToMarkdown('<img data-src="https://x.example/a.png">')).toBe("");
    expect(htmlToMarkdown('<a data-href="https://x.example/">t</a>')).toBe("t");
  });

  it("images: the alt text is escaped, a missing or empty alt reads 'image', non-http images are dropped", () => {
    expect(htmlToMarkdown('<img src="https://x.example/p.png" alt="*big* [pig]">')).toBe(
      "[\\*big\\* \\[pig\\]](https://x.example/p.png)",
    );
    expect(htmlToMarkdown('<img src="https://x.example/p.png" alt="">')).toBe("[image](https://x.example/p.png)");
    expect(htmlToMarkdown('a<img src="data:image/png;base64,AAAA" alt="pig">b')).toBe("ab");
    expect(htmlToMarkdown('a<img alt="pig">b')).toBe("ab");
  });

  it("links: text inside is link text (on one line), an unclosed link is closed at the end", () => {
    expect(htmlToMarkdown('<a href="https://x.example/">a&#10;b</a> c&#10;d')).toBe("[a b](https://x.example/) c\nd");
    expect(htmlToMarkdown('see <a href="https://x.example/(1)">this')).toBe("see [this](https://x.example/%281%29)");
    expect(htmlToMarkdown('<a href="">empty</a> <a>none</a></a>')).toBe("empty none");
  });
});

describe("decodeHtmlEntities, edge cases", () => {
  it("decodes every named entity it knows, in any case", () => {
    expect(decodeHtmlEntities("&amp;&lt;&gt;&quot;&apos;&nbsp;&Amp;&LT;")).toBe("&<>\"' &<");
  });

  it("decodes decimal and hexadecimal (x or X) code points up to U+10FFFF, and none below 1", () => {
    expect(decodeHtmlEntities("&#65;&#x41;&#X41;&#x1F600;&#1;")).toBe("AAA😀\u0001");
    expect(decodeHtmlEntities("&#x10FFFF;")).toBe("\u{10FFFF}");
    expect(decodeHtmlEntities("&#x110000; &#1114112; &#0; &#x0;")).toBe("&#x110000; &#1114112; &#0; &#x0;");
    expect(decodeHtmlEntities(`&#${"9".repeat(400)};`)).toBe(`&#${"9".repeat(400)};`);
  });

  it("leaves text that is not a complete entity alone", () => {
    expect(decodeHtmlEntities("&amp &#65 &#x; &#xg; & ; &1;")).toBe("&amp &#65 &#x; &#xg; & ; &1;");
  });
});

describe("nonEmptyText, edge cases", () => {
  it("gives undefined for an empty string", () => {
    expect(nonEmptyText("")).toBeUndefined();
  });
});

describe("compactDuration, boundaries", () => {
  it.each([
    [59.4, "59 s"],
    [59.5, "1 min"],
    [61, "1 min 1 s"],
    [3599, "59 min 59 s"],
    [3599.5, "1 h"],
    [3660, "1 h 1 min"],
    [7325, "2 h 2 min"],
    [90061, "25 h 1 min"],
  ])("%s s → %s", (seconds, text) => expect(compactDuration(seconds)).toBe(text));
  it("gives undefined for an infinite span", () => {
    expect(compactDuration(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(compactDuration(-0.1)).toBeUndefined();
  });
});

describe("durationInWords, boundaries", () => {
  it.each([
    [0, "less than a minute"],
    [29_999, "less than a minute"],
    [30_000, "1 minute"],
    [61 * 60_000, "1 hour 1 minute"],
    [120 * 60_000, "2 hours"],
    [2 * 1440 * 60_000, "2 days"],
    [(1440 + 60 + 1) * 60_000, "1 day 1 hour"],
    [(1440 + 1) * 60_000, "1 day 1 minute"],
  ])("%s ms → %s", (ms, text) => expect(durationInWords(ms)).toBe(text));
  it("gives undefined for an infinite span", () => {
    expect(durationInWords(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(durationInWords(-0.1)).toBeUndefined();
  });
});

describe("committersSummary, ordering", () => {
  const name = (c: string) => c;
  it("breaks ties in code-point order, whatever order the commits came in", () => {
    expect(committersSummary(["b", "a"], name, () => false)).toBe("Commits by a (1) and b (1).");
    expect(committersSummary(["a", "b"], name, () => false)).toBe("Commits by a (1) and b (1).");
    expect(committersSummary(["a", "B"], name, () => false)).toBe("Commits by B (1) and a (1).");
  });
  it("counts the pusher's commits too when someone else also pushed commits", () => {
    expect(committersSummary(["ada", "bo", "ada"], name, (c) => c === "ada")).toBe("Commits by ada (2) and bo (1).");
  });
  it("names three authors by default and sums the rest as others", () => {
    expect(committersSummary(["a", "b", "c"], name, () => false)).toBe("Commits by a (1), b (1) and c (1).");
    expect(committersSummary(["d", "c", "c", "b", "a", "e"], name, () => false)).toBe(
      "Commits by c (2), a (1), b (1) and others (2).",
    );
  });
});

describe("giteaCommittersSummary, recognising the pusher", () => {
  it("an absent user name or e-mail never matches the pusher's", () => {
    expect(giteaCommittersSummary([{ author: { name: "Bo" } }], { login: "ada" })).toBe("Commits by Bo (1).");
    expect(giteaCommittersSummary([{ author: { username: "", name: "Bo" } }], { login: "" })).toBe(
      "Commits by Bo (1).",
    );
    expect(giteaCommittersSummary([{ author: { email: "", name: "Bo" } }], { login: "ada", email: "" })).toBe(
      "Commits by Bo (1).",
    );
  });
  it("an author-less commit is 'unknown'; a user name is preferred to a name", () => {
    expect(giteaCommittersSummary([{ author: null }, {}], { login: "ada" })).toBe("Commits by unknown (2).");
    expect(giteaCommittersSummary([{ author: { username: "bo", name: "Bo Li" } }], { login: "ada" })).toBe(
      "Commits by bo (1).",
    );
  });
  it("a commit whose e-mail is the pusher's is the pusher's, whatever its user name", () => {
    expect(
      giteaCommittersSummary([{ author: { username: "other", email: "ada@example.com" } }], {
        login: "ada",
        email: "ada@example.com",
      }),
    ).toBe("");
  });
});

describe("gitPushKind, edge cases", () => {
  it.each([
    [{}, "no_commits"],
    [{ ref: "refs/heads/x", before: "10", after: "01", commits: [] }, "no_commits"],
    [{ ref: "refs/heads/x", before: "01", after: "abc" }, "no_commits"],
    [{ ref: "refs/heads/refs/tags/", after: "abc", commits: [{}] }, "commits"],
    [{ ref: "refs/heads/x", after: "0" }, "branch_deleted"],
    [{ ref: "refs/heads/x", before: "0".repeat(40), after: "abc" }, "branch_created"],
  ])("%j → %s", (push, kind) => expect(gitPushKind(push)).toBe(kind));
});

describe("htmlToMarkdown, what is not a tag name, a link or an image", () => {
  it("tags whose name cannot be read are dropped, even when a known tag follows inside them", () => {
    expect(htmlToMarkdown("<!DOCTYPE html><p>x")).toBe("x");
    expect(htmlToMarkdown("a< /p>b")).toBe("ab");
    expect(htmlToMarkdown("a<! <br>b")).toBe("ab");
  });

  it("only whole h1–h6 names break lines", () => {
    expect(htmlToMarkdown("a<th1>b<h1x>c")).toBe("abc");
  });

  it("only img makes an image and only a makes a link", () => {
    expect(htmlToMarkdown('a<iframe src="https://x.example/">b')).toBe("ab");
    expect(htmlToMarkdown('<base href="https://x.example/">t')).toBe("t");
  });

  it("a link ends at its own closing tag, not at an inner one", () => {
    expect(htmlToMarkdown('<a href="https://x.example/">a <b>bold</b> c</a> d')).toBe(
      "[a bold c](https://x.example/) d",
    );
  });

  it("a URL is http(s) only when it starts so", () => {
    expect(htmlToMarkdown("<a href=\"javascript:alert('https://x.example/')\">t</a>")).toBe("t");
  });
});

describe("giteaCommittersSummary, e-mails", () => {
  it("a commit with another e-mail is not the pusher's", () => {
    expect(
      giteaCommittersSummary([{ author: { username: "bo", email: "bo@example.com" } }], {
        login: "ada",
        email: "ada@example.com",
      }),
    ).toBe("Commits by bo (1).");
  });
});
