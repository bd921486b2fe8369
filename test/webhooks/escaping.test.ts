// Auto-escaping (CONTRACT.md item 1) through the real app, with test/webhooks/contract/escaping:
// `{{value}}` is Markdown-escaped, helpers return safe Markdown that is not escaped twice,
// `quote`/`markdown` keep a body's Markdown without live mentions, `link` links only http(s)
// URLs, `{{{raw}}}` is raw, and topics / directWhen are plain text.
import path from "node:path";
import { compileTemplate } from "../../src/webhooks/helpers";
import { neutraliseMarkdown } from "../../src/webhooks/safeMarkdown";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const PLUGINS = path.join(__dirname, "contract");

describe("auto-escaping of payload values", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ INTEGRATIONS_DIR: PLUGINS }, { integrations: "all" });
  });
  afterAll(() => server.close());

  const deliver = async (payload: Record<string, unknown>) => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "escaping", { body: JSON.stringify(payload), query: { stream: "general" } });
    expect(res.status).toBe(200);
    return messagesSince(server, before, server.users.bot.id);
  };

  it("escapes values, keeps helpers' Markdown, and leaves topics and triple-stash raw", async () => {
    const [m] = await deliver({
      title: "@**all** *hi*",
      url: "https://x.example/a b",
      trusted: "**kept**",
      body: "Hello @**all** and @*admins*, see #**general** and `@**code**`",
    });
    expect(m.topic).toBe("@**all** *hi*");
    expect(m.content.split("\n")).toEqual([
      "Title: @\\*\\*all\\*\\* \\*hi\\*",
      "Link: [@\\*\\*all\\*\\* \\*hi\\*](https://x.example/a%20b)",
      "Bold: **@\\*\\*all\\*\\* \\*hi\\***",
      "Code: `@**all** *hi*`",
      "Concat: @\\*\\*all\\*\\* \\*hi\\* / **@\\*\\*all\\*\\* \\*hi\\***",
      "Lower: @\\*\\*all\\*\\* \\*hi\\*",
      "Raw: **kept**",
      "~~~ quote",
      "Hello @\\*\\*all** and @\\*admins*, see #\\*\\*general** and `@**code**`",
      "~~~",
    ]);
  });

  it("links only http(s) URLs; anything else is escaped text", async () => {
    const [m] = await deliver({ title: "[x](javascript:alert(1))", url: "javascript:alert(1)", body: "" });
    const link = m.content.split("\n").find((l) => l.startsWith("Link: "));
    expect(link).toBe("Link: \\[x\\](javascript:alert(1))");
    expect(m.content).not.toContain("~~~ quote"); // an empty body gives no quote block
  });

  it("escapes block markers at the start of a value's lines", async () => {
    const [m] = await deliver({ title: "# head\n> quote\n- item\n---\n```js", body: "" });
    expect(m.content.split("\n").slice(0, 5)).toEqual([
      "Title: \\# head",
      "\\> quote",
      "\\- item",
      "\\---",
      "\\`\\`\\`js",
    ]);
  });

  it("`markdown` keeps formatting but neutralises mentions, channel links and non-http(s) links", async () => {
    const [m] = await deliver({
      mode: "markdown",
      body: "## Notes\n**bold** @_**Ada** [ok](https://x.example) [bad](javascript:alert(1))\n```\n@**all**\n```",
    });
    expect(m.content).toBe(
      "## Notes\n**bold** @\\_\\*\\*Ada** [ok](https://x.example) [bad]\\(javascript:alert(1))\n```\n@**all**\n```",
    );
  });

  it("escapes values inside #each and commit lists, links only http(s) commit URLs", async () => {
    const [each] = await deliver({
      mode: "each",
      items: [
        { name: "_a_", url: "https://x.example/1" },
        { name: "b", url: "ftp://x" },
      ],
    });
    expect(each.content).toBe("* \\_a\\_: [\\_a\\_](https://x.example/1)\n* b: b");
    const [commits] = await deliver({
      mode: "commits",
      commits: [
        { id: "a".repeat(40), message: "Fix @**all**", url: "https://git.example/c/1" },
        { id: "b".repeat(40), message: "Two", url: "javascript:x" },
      ],
    });
    expect(commits.content).toBe(
      "* Fix @\\*\\*all\\*\\* ([aaaaaaaaaaa](https://git.example/c/1))\n* Two (`bbbbbbbbbbb`)",
    );
  });

  it("directWhen is plain text, not escaped", async () => {
    const [m] = await deliver({ title: "*dm*", body: "" });
    expect(m.type).toBe("private");
  });
});

describe("template compilation", () => {
  const render = (source: string, view: unknown, markdown = true) =>
    compileTemplate(source, { markdown })(view, {}, {});

  it("does not escape topic-style templates, and SafeStrings compare by their text", () => {
    expect(render("{{a}} {{branch ref}}", { a: "*x*", ref: "refs/heads/a_b" }, false)).toBe("*x* a_b");
    expect(render("{{#if (eq (bold a) '**x**')}}same{{/if}}", { a: "x" })).toBe("same");
    expect(render("{{#if (link '' '')}}yes{{else}}no{{/if}}", {})).toBe("no");
  });

  it("neutraliseMarkdown leaves code spans with longer fences alone", () => {
    expect(neutraliseMarkdown("``@**a** ` x`` @**b**")).toBe("``@**a** ` x`` @\\*\\*b**");
  });
});
