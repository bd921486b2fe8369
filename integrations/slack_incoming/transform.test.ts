// Unit cases for the Slack → Markdown conversion. The fixture suite (fixtures/)
// is the acceptance test through the real app; these pin down the converter's edge cases.
import { renderAttachment } from "./attachments";
import { renderBlock } from "./blocks";
import { convertMrkdwn, timeMention } from "./mrkdwn";
import transform, { renderMessage, topicFor } from "./transform";

const context = { event: "message", options: {} };

describe("convertMrkdwn", () => {
  it.each([
    ["*bold*", "**bold**"],
    ["_italic_", "*italic*"],
    ["~strike~", "~~strike~~"],
    ["*bold _and italic_*", "**bold *and italic***"],
    ["*Status:* done", "**Status:** done"],
    ["snake_case_name and 2*3*4", "snake_case_name and 2\\*3\\*4"],
    ["* not bold *", "* not bold *"],
    ["**already markdown**", "**already markdown**"],
    ["a * b * c", "a * b * c"],
    ["*one*\n*two*", "**one**\n**two**"],
    ["*no\nclose*", "*no\nclose*"],
  ])("formats %j", (input, output) => {
    expect(convertMrkdwn(input)).toBe(output);
  });

  it.each([
    ["<https://example.com/a?b=1&amp;c=2|Docs &amp; help>", "[Docs & help](https://example.com/a?b=1&c=2)"],
    ["<https://example.com>", "https://example.com"],
    ["<https://example.com/x (1)|x>", "[x](https://example.com/x%20%281%29)"],
    ["<mailto:ops@example.com|Mail us>", "[Mail us](mailto:ops@example.com)"],
    ["<mailto:ops@example.com>", "[ops@example.com](mailto:ops@example.com)"],
    ["<https://example.com|[brackets] *stars*>", "[\\[brackets\\] \\*stars\\*](https://example.com)"],
    ["*<https://example.com|Graph>*", "**[Graph](https://example.com)**"],
    ["<@U024BE7LH> and <@U0G9QF9C6|bobby_t>", "@U024BE7LH and @bobby_t"],
    ["<#C024BE7LR|general> and <#C0AB>", "#general and #C0AB"],
    ["<!here> <!channel> <!everyone>", "**@here** **@channel** **@everyone**"],
    ["<!subteam^SAZ94GDB8|@oncall>", "@oncall"],
    ["<!date^1392734382^{date_short} at {time}|Feb 18, 2014>", "<time:2014-02-18T14:39:42Z>"],
    ["<!date^soon^{date}|some day>", "some day"],
    ["<not a link>", "\\<not a link>"],
  ])("entity %j", (input, output) => {
    expect(convertMrkdwn(input)).toBe(output);
  });

  it("unescapes &amp; &lt; &gt; once, after the entities are read", () => {
    expect(convertMrkdwn("a &lt; b &amp;&amp; c &gt; d, &amp;lt;")).toBe("a < b && c > d, &lt;");
    expect(convertMrkdwn("&gt; quoted")).toBe("> quoted");
    expect(convertMrkdwn("> one\n> two\nafter")).toBe("> one\n> two\n\nafter");
  });

  it("leaves code alone and puts Slack's inline code blocks on their own lines", () => {
    expect(convertMrkdwn("run `rm *.tmp_*` now")).toBe("run `rm *.tmp_*` now");
    expect(convertMrkdwn("Output: ```ls -la\n  *x* &amp; y```done")).toBe("Output:\n```\nls -la\n  *x* & y\n```\ndone");
  });

  it("does not format inside bare URLs and drops indentation that Markdown would read as code", () => {
    expect(convertMrkdwn("see https://example.com/_a_/b_c_")).toBe("see https://example.com/_a_/b_c_");
    expect(convertMrkdwn("Details:\n\n      • *env:* prod")).toBe("Details:\n\n• **env:** prod");
  });

  it("gives an empty string for non-strings", () => {
    expect(convertMrkdwn(null)).toBe("");
    expect(convertMrkdwn(42)).toBe("");
    expect(convertMrkdwn({ text: "x" })).toBe("");
  });

  // No clock here (speed belongs in the bench): a catastrophic backtrack would exceed Jest's
  // timeout; the assertion checks the whole hostile input was converted, every pair of markers.
  it("converts hostile input completely", () => {
    const hostile = "*_~<`".repeat(40000) + "a".repeat(100000);
    expect(convertMrkdwn(hostile)).toBe("***~~<`*_~<`".repeat(20000) + "a".repeat(100000));
  });
});

describe("timeMention", () => {
  it.each([
    [1655945306, "<time:2022-06-23T00:48:26Z>"],
    ["1655945306.000200", "<time:2022-06-23T00:48:26Z>"],
    [null, ""],
    [-5, ""],
    [1e20, ""],
    ["yesterday", ""],
  ])("%j", (input, output) => {
    expect(timeMention(input)).toBe(output);
  });
});

describe("renderBlock", () => {
  it("section with text, fields and a button accessory", () => {
    const block = {
      type: "section",
      text: { type: "mrkdwn", text: "*Deploy* finished" },
      fields: [
        { type: "mrkdwn", text: "*Env*\nstaging" },
        { type: "mrkdwn", text: "*Took:*\n42s" },
        { type: "plain_text", text: "1 * 2" },
      ],
      accessory: {
        type: "button",
        text: { type: "plain_text", text: "Open log" },
        url: "https://ci.example.com/log/7",
      },
    };
    expect(renderBlock(block)).toBe(
      "**Deploy** finished\n\n* **Env**: staging\n* **Took:** 42s\n* 1 \\* 2\n\n[Open log](https://ci.example.com/log/7)",
    );
  });

  it("header, divider, image, context and actions", () => {
    expect(renderBlock({ type: "header", text: { type: "plain_text", text: "Weekly *report*" } })).toBe(
      "### Weekly \\*report\\*",
    );
    expect(renderBlock({ type: "divider" })).toBe("---");
    expect(renderBlock({ type: "image", image_url: "https://img.example.com/a.png", alt_text: "chart" })).toBe(
      "[chart](https://img.example.com/a.png)",
    );
    expect(
      renderBlock({
        type: "context",
        elements: [
          { type: "image", image_url: "https://img.example.com/u.png", alt_text: "ana" },
          { type: "mrkdwn", text: "by *Ana*" },
        ],
      }),
    ).toBe("[ana](https://img.example.com/u.png) · by **Ana**");
    expect(
      renderBlock({
        type: "actions",
        elements: [
          { type: "button", text: { type: "plain_text", text: "View" }, url: "https://example.com/v" },
          { type: "button", text: { type: "plain_text", text: "Approve" }, value: "ok" },
          {
            type: "static_select",
            placeholder: { type: "plain_text", text: "Pick" },
            options: [{ text: { type: "plain_text", text: "A" } }, { text: { type: "plain_text", text: "B" } }],
          },
        ],
      }),
    ).toBe("[View](https://example.com/v) · Approve · Pick: A, B");
  });

  it("rich_text: styles, links, mentions, nested lists, code and quotes", () => {
    const block = {
      type: "rich_text",
      elements: [
        {
          type: "rich_text_section",
          elements: [
            { type: "text", text: "Hi " },
            { type: "user", user_id: "U1" },
            { type: "text", text: ", " },
            { type: "text", text: "see ", style: { bold: true } },
            { type: "link", url: "https://example.com", text: "this" },
            { type: "emoji", name: "tada" },
            { type: "text", text: " a_b", style: { code: true } },
          ],
        },
        {
          type: "rich_text_list",
          style: "bullet",
          elements: [{ type: "rich_text_section", elements: [{ type: "text", text: "one" }] }],
        },
        {
          type: "rich_text_list",
          style: "ordered",
          indent: 1,
          elements: [
            { type: "rich_text_section", elements: [{ type: "text", text: "one.a", style: { italic: true } }] },
          ],
        },
        { type: "rich_text_preformatted", elements: [{ type: "text", text: "make *all*" }] },
        { type: "rich_text_quote", elements: [{ type: "text", text: "said\nthis" }] },
      ],
    };
    expect(renderBlock(block)).toBe(
      "Hi @U1, **see** [this](https://example.com):tada:` a_b`\n\n* one\n   1. *one.a*\n\n```\nmake *all*\n```\n\n> said\n> this",
    );
  });

  it("unknown and malformed blocks show what text they have and never throw", () => {
    expect(renderBlock({ type: "future_thing", text: { type: "mrkdwn", text: "*still* shown" } })).toBe(
      "**still** shown",
    );
    expect(renderBlock({ type: "section", text: 5, fields: "nope", accessory: [] })).toBe("");
    expect(
      renderBlock({
        type: "rich_text",
        elements: [{ type: "rich_text_list", indent: "x", elements: [null, { elements: "?" }] }],
      }),
    ).toBe("* ");
  });
});

describe("renderAttachment", () => {
  it("renders every piece in Slack's order", () => {
    const attachment = {
      pretext: "Nightly *build*",
      author_name: "ci-bot",
      author_link: "https://ci.example.com/bot",
      title: "Build #12",
      title_link: "https://ci.example.com/12",
      text: "All _green_",
      fields: [
        { title: "Branch", value: "main", short: true },
        { title: "Notes", value: "line 1\nline 2" },
      ],
      actions: [{ type: "button", text: "Rerun", url: "https://ci.example.com/12/rerun" }],
      image_url: "https://ci.example.com/12/chart.png",
      footer: "CI",
      ts: 1700000000,
      color: "#36a64f",
      fallback: "Build #12 passed",
    };
    expect(renderAttachment(attachment)).toBe(
      [
        // #36a64f (Slack's green) is the attachment's status: a marker in front.
        "🟢 Nightly **build**",
        "[ci-bot](https://ci.example.com/bot)",
        "**[Build #12](https://ci.example.com/12)**",
        "All *green*",
        "* **Branch**: main\n* **Notes**:\n  line 1\n  line 2",
        "[Rerun](https://ci.example.com/12/rerun)",
        "[image](https://ci.example.com/12/chart.png)",
        "CI · <time:2023-11-14T22:13:20Z>",
      ].join("\n\n"),
    );
  });

  it("shows the attachment's colour (named or hex) as a status marker, on its own line before structure", () => {
    expect(renderAttachment({ fallback: "Only *this*", color: "danger" })).toBe("🔴 Only **this**");
    expect(renderAttachment({ text: "ok", color: "good" })).toBe("🟢 ok");
    expect(renderAttachment({ text: "slow", color: "warning" })).toBe("🟡 slow");
    expect(renderAttachment({ text: "blue", color: "#439FE0" })).toBe("🔵 blue");
    expect(renderAttachment({ text: "> quoted", color: "#a30200" })).toBe("🔴\n\n> quoted");
    expect(renderAttachment({ text: "plain", color: "no-such-colour" })).toBe("plain");
    expect(renderAttachment({ color: "danger" })).toBe("");
  });

  it("uses the fallback only when nothing else is there", () => {
    expect(renderAttachment({ fallback: "Only *this*" })).toBe("Only **this**");
    expect(renderAttachment({ title: null, text: null, fields: [{ title: null, value: null }] })).toBe("");
  });
});

describe("renderMessage and the topic", () => {
  it("keeps text above blocks unless the blocks already say it", () => {
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "Disk *full* on db-1" } }];
    expect(renderMessage({ text: "Disk *full* on db-1", blocks })).toBe("Disk **full** on db-1");
    expect(renderMessage({ text: "Alert!", blocks })).toBe("Alert!\n\nDisk **full** on db-1");
  });

  it("puts icon_emoji in front, or on its own line before a heading", () => {
    expect(renderMessage({ text: "hi", icon_emoji: ":wave:" })).toBe(":wave: hi");
    expect(
      renderMessage({ blocks: [{ type: "header", text: { type: "plain_text", text: "Hi" } }], icon_emoji: ":wave:" }),
    ).toBe(":wave:\n\n### Hi");
    expect(renderMessage({ text: "*Deploy* done", icon_emoji: ":rocket:" })).toBe(":rocket: **Deploy** done");
    expect(renderMessage({ attachments: [{ fields: [{ title: "A", value: "1" }] }], icon_emoji: ":rocket:" })).toBe(
      ":rocket:\n\n* **A**: 1",
    );
    expect(renderMessage({ text: "hi", icon_emoji: "not an emoji" })).toBe("hi");
    expect(renderMessage({ text: null, icon_emoji: ":wave:" })).toBe("");
  });

  it("takes the topic from channel, else (no topic)", () => {
    expect(topicFor("#deploys")).toBe("deploys");
    expect(topicFor("ops")).toBe("ops");
    expect(topicFor("#")).toBe("(no topic)");
    expect(topicFor(undefined)).toBe("(no topic)");
    expect(transform({ text: "x", channel: "#a" }, context)).toEqual({ slack_markdown: "x", slack_topic: "a" });
  });
});
