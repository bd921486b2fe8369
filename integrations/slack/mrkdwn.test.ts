// Slack mrkdwn → message Markdown, construct by construct, and the conversion's bounds: what
// Slack shows as text stays text (never a mention), and long hostile texts convert in linear time.
// How the Markdown renders is checked over HTTP (test/webhooks/slack.test.ts).
import { CHANNEL_TOKEN, USER_TOKEN, convertMrkdwn, decodeEntities } from "./mrkdwn";
import fs from "node:fs";
import path from "node:path";
import { mappingOf } from "./transform";

const md = (text: string, known = {}) => convertMrkdwn(text, known).markdown;

describe("convertMrkdwn: inline formatting", () => {
  it.each([
    ["*bold*", "**bold**"],
    ["_italic_", "*italic*"],
    ["~strike~", "~~strike~~"],
    ["_*bold italic*_", "***bold italic***"],
    ["~_*all three*_~", "~~***all three***~~"],
    ["(*in brackets*)", "(**in brackets**)"],
    ["*bold with `code` inside*", "**bold with `code` inside**"],
  ])("%s → %s", (input, output) => expect(md(input)).toBe(output));

  it.each([
    ["snake_case_name", "snake_case_name"],
    ["2*3*4", "2\\*3\\*4"],
    ["a * b * c", "a \\* b \\* c"],
    ["*not closed", "\\*not closed"],
    ["**doubled**", "\\*\\*doubled\\*\\*"],
    ["* spaced*", "\\* spaced\\*"],
    ["*across\nlines*", "\\*across\nlines\\*"],
  ])("leaves %j literal", (input, output) => expect(md(input)).toBe(output));

  it("keeps inline code as written, entities decoded, formatting and mentions inside it literal", () => {
    expect(md("run `a*b*c &amp;&amp; <@U1>` now")).toBe("run `a*b*c && <@U1>` now");
    expect(md("a lone ` backtick")).toBe("a lone \\` backtick");
  });

  it("escapes what Slack shows as text: headings, Markdown links, HTML, mentions, math", () => {
    const out = md("# no\n[x](https://a.example) @**all** #**general** @_**x** &lt;b&gt; $$y$$");
    expect(out).toBe(
      "\\# no\n\\[x\\](https://a.example) @\\*\\*all\\*\\* #\\*\\*general\\*\\* @\\_\\*\\*x\\*\\* \\<b> \\$\\$y\\$\\$",
    );
  });

  it("decodes &amp; &lt; &gt; once", () => {
    expect(decodeEntities("&amp;lt; &lt;&gt; &quot;")).toBe("&lt; <> &quot;");
  });
});

describe("convertMrkdwn: entities", () => {
  it("links http(s) URLs with their label, or the URL itself; other schemes are text", () => {
    expect(md("<https://a.example/p?x=1&amp;y=2|the plan>")).toBe("[the plan](https://a.example/p?x=1&y=2)");
    expect(md("<https://a.example/p>")).toBe("[https://a.example/p](https://a.example/p)");
    expect(md("<mailto:ada@a.example|Ada>")).toBe("Ada");
    expect(md("<mailto:ada@a.example>")).toBe("ada@a.example");
    expect(md("<javascript:alert(1)|click>")).toBe("click");
    expect(md("<https://a.example/x|[label](https://evil.example)>")).toBe(
      "[\\[label\\](https://evil.example)](https://a.example/x)",
    );
  });

  it("shows user and channel mentions as text, with the label when Slack gives one", () => {
    expect(md("<@U0TOMASZ01> <@U0INES|ines> <@W0ENT|@ent>")).toBe("@U0TOMASZ01 @ines @ent");
    expect(md("<#C0PRESS|cider-press> <#C0PRESS>")).toBe("#cider-press #C0PRESS");
  });

  it("marks the sender's and the channel's own ids for the names the template fills in", () => {
    const known = { user: "U0ME", channel: "C0HERE" };
    expect(md("<@U0ME> <@U0OTHER> <#C0HERE> <#C0HERE|here-name>", known)).toBe(
      `@${USER_TOKEN} @U0OTHER #${CHANNEL_TOKEN} #here-name`,
    );
  });

  it("a payload cannot forge a placeholder", () => {
    expect(md(`${USER_TOKEN} and ${CHANNEL_TOKEN}`, { user: "U1", channel: "C1" })).toBe("user and channel");
  });

  it("makes broadcasts harmless text, group mentions and dates readable", () => {
    const out = md("<!here> <!channel> <!everyone|@everyone> <!subteam^S0PICK|@pickers> <!subteam^S0PICK>");
    expect(out).toBe("@here @channel @everyone @pickers @S0PICK");
    expect(md("<!date^1767268800^{date_short}|Jan 1>")).toBe("<time:2026-01-01T12:00:00Z>");
    expect(md("<!date^soon^{date}|Some day>")).toBe("Some day");
  });

  it("a < without a closing > is text", () => {
    expect(md("a <b and <https://a.example>")).toBe("a \\<b and [https://a.example](https://a.example)");
  });

  it("formatting around mentions", () => {
    expect(md("~_*<@U1>*_~ ~_*<!channel>*_~")).toBe("~~***@U1***~~ ~~***@channel***~~");
  });
});

describe("convertMrkdwn: blocks", () => {
  it("turns ``` blocks into fenced blocks on their own lines, content as written", () => {
    const out = convertMrkdwn("before```x = *1* &gt; 0```after");
    expect(out.markdown).toBe("before\n```\nx = *1* > 0\n```\nafter");
    expect(out.block).toBe(false);
    expect(convertMrkdwn("```a `` b```").markdown).toBe("```\na `` b\n```");
    expect(convertMrkdwn("```only```").block).toBe(true);
  });

  it("an unclosed ``` is text", () => {
    expect(md("a ``` b")).toBe("a \\`\\`\\` b");
  });

  it("keeps quotes, ends them before the next line, and quotes the rest after >>>", () => {
    const quote = convertMrkdwn("&gt; one\n&gt;two\nafter");
    expect(quote).toEqual({ markdown: "> one\n> two\n\nafter", block: true });
    expect(md("&gt;&gt;&gt; all\nof it\n```code```")).toBe("> all\n> of it\n> ```\n> code\n> ```");
  });

  it("keeps ordered lists and Slack's bullets as Markdown lists", () => {
    expect(convertMrkdwn("1. one\n2) two").markdown).toBe("1. one\n2) two");
    expect(md("• a\n    ◦ b\nend")).toBe("* a\n   * b\n\nend");
    expect(md("- typed dash\n+ plus")).toBe("\\- typed dash\n\\+ plus");
  });

  it("drops indentation (it would be a Markdown code block) and runs of blank lines", () => {
    expect(md("a\n\n\n\n    b\r\n\tc")).toBe("a\n\nb\nc");
  });

  it("anything but a string is empty", () => {
    expect(convertMrkdwn(null)).toEqual({ markdown: "", block: false });
    expect(convertMrkdwn(42)).toEqual({ markdown: "", block: false });
  });
});

describe("convertMrkdwn: linear time on hostile text", () => {
  const N = 200_000;
  it.each([
    ["openers that never close", "*a ".repeat(N)],
    ["markers of every kind", "*_~".repeat(N)],
    ["entity openers", "<".repeat(N)],
    ["entities without a close", "<a ".repeat(N)],
    ["backticks", "` ".repeat(N)],
    ["fences", "``` x ".repeat(N / 2)],
    ["escapes", "&lt;&gt;&amp;".repeat(N / 2)],
    ["quotes and lists", "&gt; 1. • *a*\n".repeat(N / 4)],
    ["one long word", "a".repeat(N * 4)],
  ])("%s", (_what, text) => {
    const started = Date.now();
    convertMrkdwn(text, { user: "U1", channel: "C1" });
    // A quadratic pass over this many characters would take minutes.
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

describe("mappingOf", () => {
  it("reads channels_map_to_topics, then mapping; one topic when neither is given", () => {
    expect(mappingOf({})).toBe("single");
    expect(mappingOf({ channels_map_to_topics: "0" })).toBe("channels");
    expect(mappingOf({ channels_map_to_topics: "1", mapping: "channels" })).toBe("topics");
    expect(mappingOf({ channels_map_to_topics: "", mapping: "channels" })).toBe("channels");
    expect(mappingOf({ mapping: "topics" })).toBe("topics");
    expect(mappingOf({ mapping: "" })).toBe("single");
  });

  // The framework refuses any other value (urlOptions `values`): each one it lets through means something here.
  it.each([
    ["channels_map_to_topics", { "0": "channels", "1": "topics" }],
    ["mapping", { channels: "channels", topics: "topics" }],
  ])("maps every value the manifest allows for %s", (key, expected) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "integration.json"), "utf8")) as {
      urlOptions: { key: string; values?: string[] }[];
    };
    expect(manifest.urlOptions.find((o) => o.key === key)?.values).toEqual(Object.keys(expected));
    for (const [value, mapping] of Object.entries(expected)) expect(mappingOf({ [key]: value })).toBe(mapping);
  });
});
