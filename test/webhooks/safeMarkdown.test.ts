// Markdown-safe text for webhook messages (pure functions, no server): escaping values,
// neutralising a payload's own Markdown, link parts, and cutting messages and topics.
import {
  escapeLinkText,
  escapeMarkdown,
  escapeUrl,
  isHttpUrl,
  limitMarkdown,
  limitTopic,
  neutraliseMarkdown,
} from "../../src/webhooks/safeMarkdown";

describe("escapeMarkdown", () => {
  it("escapes every inline formatting character", () => {
    expect(escapeMarkdown("a\\b `c` *d* ~e~ [f] <g> h|i")).toBe("a\\\\b \\`c\\` \\*d\\* \\~e\\~ \\[f\\] \\<g> h\\|i");
  });

  it("escapes an underscore only at a word edge (letters and digits of any script count)", () => {
    expect(escapeMarkdown("_a_ b_c :cross_mark: 1_2 é_ü")).toBe("\\_a\\_ b_c :cross_mark: 1_2 é_ü");
    expect(escapeMarkdown("x_ _y __ _")).toBe("x\\_ \\_y \\_\\_ \\_");
    expect(escapeMarkdown("é_ _ü 9_ _9")).toBe("é\\_ \\_ü 9\\_ \\_9");
  });

  it("escapes dollars only in runs of two or more", () => {
    expect(escapeMarkdown("$5.00 and $x$")).toBe("$5.00 and $x$");
    expect(escapeMarkdown("$$x$$ $$$")).toBe("\\$\\$x\\$\\$ \\$\\$\\$");
  });

  it("escapes > only at a line start (after optional indentation)", () => {
    expect(escapeMarkdown("a > b\n> quote\n   > indented\n>")).toBe("a > b\n\\> quote\n   \\> indented\n\\>");
  });

  it("escapes headings of one to six #, followed by a space or the line end", () => {
    expect(escapeMarkdown("# h\n###### h6\n####### seven\n#tag\n#\n  ## indented")).toBe(
      "\\# h\n\\###### h6\n####### seven\n#tag\n\\#\n  \\## indented",
    );
  });

  it("escapes list markers: -, + and numbers followed by . or )", () => {
    expect(escapeMarkdown("- a\n+ b\n1. c\n12) d\n3.5 e\n-x\n+\n  - nested\n7.")).toBe(
      "\\- a\n\\+ b\n1\\. c\n12\\) d\n3.5 e\n-x\n\\+\n  \\- nested\n7\\.",
    );
  });

  it("escapes setext underlines and rules made of one repeated = or - character", () => {
    expect(escapeMarkdown("title\n===\n---\n= \n  --  \n=-\n= x\n==x")).toBe(
      "title\n\\===\n\\---\n\\= \n  \\--  \n=-\n= x\n==x",
    );
  });

  it("leaves plain text alone", () => {
    expect(escapeMarkdown("Hello, world! (100%) a-b a+b 1.2 #3 x=y $")).toBe(
      "Hello, world! (100%) a-b a+b 1.2 #3 x=y $",
    );
  });
});

describe("neutraliseMarkdown", () => {
  it("defuses mentions of users, groups and silent mentions by escaping their opening stars", () => {
    expect(neutraliseMarkdown("Hi @**all**, @*team* and @_**Ada** — **bold** *it*")).toBe(
      "Hi @\\*\\*all**, @\\*team* and @\\_\\*\\*Ada** — **bold** *it*",
    );
  });

  it("defuses channel links and leaves plain @ and # alone", () => {
    expect(neutraliseMarkdown("#**general>topic** #_**x** @ada #3 @_x")).toBe(
      "#\\*\\*general>topic** #\\_\\*\\*x** @ada #3 @_x",
    );
  });

  it("defuses only the first two stars of a run", () => {
    expect(neutraliseMarkdown("@***x***")).toBe("@\\*\\**x***");
  });

  it("defuses links to non-http(s) schemes in any case, keeping http(s), mailto, anchors and paths", () => {
    expect(neutraliseMarkdown("[a](javascript:alert(1)) [b](JavaScript:x) [c](data:text/html,x)")).toBe(
      "[a]\\(javascript:alert(1)) [b]\\(JavaScript:x) [c]\\(data:text/html,x)",
    );
    expect(neutraliseMarkdown("[a]( < vbscript:x>) [b](x-y.z+1:w)")).toBe("[a]\\(vbscript:x>) [b]\\(x-y.z+1:w)");
    const safe = "[a](https://x.example) [b](HTTP://x.example) [c](mailto:a@x.example) [d](#top) [e](/docs) [f](rel)";
    expect(neutraliseMarkdown(safe)).toBe(safe);
    expect(neutraliseMarkdown("[a](1x:y) [b](:y)")).toBe("[a](1x:y) [b](:y)");
  });

  it("leaves inline code spans as written, closed by a run of the same length", () => {
    expect(neutraliseMarkdown("`@**a**` @**b** ``x ` @**c**`` @**d**")).toBe(
      "`@**a**` @\\*\\*b** ``x ` @**c**`` @\\*\\*d**",
    );
  });

  it("treats an unclosed backtick run (or one closed by a longer run) as text", () => {
    expect(neutraliseMarkdown("`@**a** @**b**")).toBe("`@\\*\\*a** @\\*\\*b**");
    expect(neutraliseMarkdown("`x`` @**a**")).toBe("`x`` @\\*\\*a**");
    expect(neutraliseMarkdown("x `@**a**")).toBe("x `@\\*\\*a**");
  });

  it("leaves fenced code blocks as written until the matching closing fence", () => {
    const text = [
      "@**a**",
      "```js",
      "@**in**",
      "~~~",
      "``",
      "```js",
      "```",
      "@**out**",
      "   ~~~~",
      "@**in**",
      "~~~",
      "~~~~~ ",
      "@**out2**",
      "    ```",
      "@**notfenced**",
    ].join("\n");
    expect(neutraliseMarkdown(text)).toBe(
      [
        "@\\*\\*a**",
        "```js",
        "@**in**",
        "~~~",
        "``",
        "```js",
        "```",
        "@\\*\\*out**",
        "   ~~~~",
        "@**in**",
        "~~~",
        "~~~~~ ",
        "@\\*\\*out2**",
        "    ```",
        "@\\*\\*notfenced**",
      ].join("\n"),
    );
  });

  it("opens a fence only at a line start", () => {
    expect(neutraliseMarkdown("x ``` y\n@**z**")).toBe("x ``` y\n@\\*\\*z**");
  });

  it("keeps a block open when a fence of the other character comes", () => {
    expect(neutraliseMarkdown("```\n~~~\n@**x**\n```\n@**y**")).toBe("```\n~~~\n@**x**\n```\n@\\*\\*y**");
  });

  it("keeps a block open when the closing fence is shorter", () => {
    expect(neutraliseMarkdown("````\n```\n@**x**\n````\n@**y**")).toBe("````\n```\n@**x**\n````\n@\\*\\*y**");
  });
});

describe("link parts", () => {
  it("escapeLinkText folds line breaks with their surrounding blanks and escapes formatting", () => {
    expect(escapeLinkText("a  \n  b\n[c]\r\n*d*")).toBe("a b \\[c\\] \\*d\\*");
  });

  it("escapeUrl percent-encodes blanks, parentheses and angle brackets only", () => {
    expect(escapeUrl("https://x.example/a b(c)<d>\te\nf?g=h&i#j")).toBe(
      "https://x.example/a%20b%28c%29%3Cd%3E%09e%0Af?g=h&i#j",
    );
  });

  it("isHttpUrl accepts only http(s) URLs with a host", () => {
    expect(isHttpUrl("https://x.example")).toBe(true);
    expect(isHttpUrl("HTTP://x.example/path")).toBe(true);
    expect(isHttpUrl("  http://x  ")).toBe(true);
    expect(isHttpUrl("https://")).toBe(false);
    expect(isHttpUrl("https:///path")).toBe(false);
    expect(isHttpUrl("https://?q")).toBe(false);
    expect(isHttpUrl("https://#a")).toBe(false);
    expect(isHttpUrl("https:// x")).toBe(false);
    expect(isHttpUrl("ftp://x.example")).toBe(false);
    expect(isHttpUrl("see https://x.example")).toBe(false);
    expect(isHttpUrl("javascript:alert(1)")).toBe(false);
    expect(isHttpUrl("/relative")).toBe(false);
  });
});

describe("limitMarkdown", () => {
  it("returns text up to the limit unchanged, counting code points", () => {
    expect(limitMarkdown("x".repeat(10000))).toBe("x".repeat(10000));
    expect(limitMarkdown("😀".repeat(30), 30, "[cut]")).toBe("😀".repeat(30));
  });

  it("cuts longer text to the limit minus room for the note and a fence", () => {
    // reserve = "[cut]".length + 16 = 21, so 40 - 21 = 19 characters are kept.
    expect(limitMarkdown("x".repeat(41), 40, "[cut]")).toBe(`${"x".repeat(19)}\n[cut]`);
    expect(limitMarkdown("😀".repeat(41), 40, "[cut]")).toBe(`${"😀".repeat(19)}\n[cut]`);
    expect(limitMarkdown("x".repeat(10001))).toBe(`${"x".repeat(10000 - 35)}\n[message truncated]`);
  });

  it("keeps nothing but the note when the limit is smaller than the reserve", () => {
    expect(limitMarkdown("x".repeat(30), 10, "[cut]")).toBe("\n[cut]");
  });

  it("cuts at the last line break when it is in the second half, and drops trailing blanks", () => {
    // 19 kept characters: "aaaaaaaaaaaa  \nbbbb" → the break at 14 is past half (9.5).
    expect(limitMarkdown(`${"a".repeat(12)}  \n${"b".repeat(30)}`, 40, "[cut]")).toBe(`${"a".repeat(12)}\n[cut]`);
    // A break in the first half is ignored: "aaaa\nbbbbbbbbbbbbbb".
    expect(limitMarkdown(`aaaa\n${"b".repeat(40)}`, 40, "[cut]")).toBe(`aaaa\n${"b".repeat(14)}\n[cut]`);
    // Exactly at half: "[cut]!" reserves 22, 18 characters are kept, a break at index 9 is not past half.
    expect(limitMarkdown(`${"a".repeat(9)}\n${"b".repeat(40)}`, 40, "[cut]!")).toBe(
      `${"a".repeat(9)}\n${"b".repeat(8)}\n[cut]!`,
    );
    expect(limitMarkdown(`${"a".repeat(10)}\n${"b".repeat(40)}`, 40, "[cut]")).toBe(`${"a".repeat(10)}\n[cut]`);
  });

  it("closes a fence left open by the cut, with the same fence", () => {
    const code = "line of code\n".repeat(10);
    expect(limitMarkdown(`intro\n~~~~ quote\n${code}`, 60, "[cut]")).toBe(
      "intro\n~~~~ quote\nline of code\n~~~~\n[cut]",
    );
    expect(limitMarkdown(`intro\n  \`\`\`js\n${code}`, 60, "[cut]")).toBe("intro\n  ```js\nline of code\n```\n[cut]");
  });

  it("does not close a fence that was closed, and only a matching fence closes one", () => {
    const code = "line of code\n".repeat(10);
    expect(limitMarkdown(`\`\`\`\nx\n\`\`\`\n${code}`, 60, "[cut]")).toBe(
      "```\nx\n```\nline of code\nline of code\n[cut]",
    );
    expect(limitMarkdown(`\`\`\`\nx\n\`\`\`  \n${code}`, 60, "[cut]")).toBe(
      "```\nx\n```  \nline of code\nline of code\n[cut]",
    );
    expect(limitMarkdown(`\`\`\`\`\nx\n\`\`\`\n${code}`, 60, "[cut]")).toBe(
      "````\nx\n```\nline of code\nline of code\n````\n[cut]",
    );
    expect(limitMarkdown(`\`\`\`\nx\n~~~\n${code}`, 60, "[cut]")).toBe(
      "```\nx\n~~~\nline of code\nline of code\n```\n[cut]",
    );
    expect(limitMarkdown(`\`\`\`\nx\n\`\`\`js\n${code}`, 60, "[cut]")).toBe(
      "```\nx\n```js\nline of code\nline of code\n```\n[cut]",
    );
    expect(limitMarkdown(`x \`\`\`\nx\ny\n${code}`, 60, "[cut]")).toBe(
      "x ```\nx\ny\nline of code\nline of code\n[cut]",
    );
    expect(limitMarkdown(`    \`\`\`\nx\ny\n${code}`, 60, "[cut]")).toBe(
      "    ```\nx\ny\nline of code\nline of code\n[cut]",
    );
  });
});

describe("limitTopic", () => {
  it("folds runs of blanks into one space and trims", () => {
    expect(limitTopic("  a \n\t b  ")).toBe("a b");
  });

  it("keeps up to the limit and cuts longer topics to limit - 3 characters plus '...'", () => {
    expect(limitTopic("😀".repeat(60))).toBe("😀".repeat(60));
    expect(limitTopic("😀".repeat(61))).toBe(`${"😀".repeat(57)}...`);
    expect(limitTopic("abcdefgh", 8)).toBe("abcdefgh");
    expect(limitTopic("abcdefghi", 8)).toBe("abcde...");
    expect(limitTopic(`${"x".repeat(57)}   y`)).toBe(`${"x".repeat(57)} y`);
  });
});
