// The renderer's own rules beyond the shared reference cases: custom emoji from the context,
// unknown names, math errors, spoilers without a header, nested fences in quotes.
import { renderMessageHtml } from "../../src/markdown/markdown";

describe("message Markdown renderer", () => {
  it("renders a realm custom emoji as its image, before a Unicode emoji of the same name", () => {
    const customEmoji = new Map([["octopus", { id: 7, url: "/user_avatars/2/emoji/images/7.png" }]]);
    expect(renderMessageHtml("hi :octopus: :party_parrot:", { customEmoji })).toBe(
      '<p>hi <img alt=":octopus:" class="emoji" src="/user_avatars/2/emoji/images/7.png" title="octopus">' +
        " :party_parrot:</p>",
    );
    expect(renderMessageHtml(":octopus:")).toContain('class="emoji emoji-1f419"');
  });

  it("titles an emoji with spaces for underscores, and keeps unknown names as text", () => {
    expect(renderMessageHtml(":thumbs_up: :nope_not_an_emoji:")).toBe(
      '<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span>' +
        " :nope_not_an_emoji:</p>",
    );
  });

  it("translates emoticons only for whole words that are emoticons (not inherited object keys)", () => {
    expect(renderMessageHtml("constructor toString :) x:)", { translateEmoticons: true })).toBe(
      '<p>constructor toString <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>' +
        " x:)</p>",
    );
  });

  it("never links a URL inside a link's text again (no <a> inside <a>), with or without emoji there", () => {
    expect(renderMessageHtml("[https://x.example/\\_a\\_](https://x.example/_a_)")).toBe(
      '<p><a href="https://x.example/_a_">https://x.example/_a_</a></p>',
    );
    expect(renderMessageHtml("[see https://a.example 😀](https://b.example)")).toBe(
      '<p><a href="https://b.example">see https://a.example ' +
        '<span aria-label="grinning" class="emoji emoji-1f600" role="img" title="grinning">:grinning:</span></a></p>',
    );
    expect(renderMessageHtml("[\\[phish\\](https://evil.example)](https://ok.example)")).toBe(
      '<p><a href="https://ok.example">[phish](https://evil.example)</a></p>',
    );
  });

  it("finds Unicode emoji next to ASCII text, and bare URLs next to paragraphs of Markdown links", () => {
    expect(renderMessageHtml("ok 👍 done")).toBe(
      '<p>ok <span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span> done</p>',
    );
    expect(renderMessageHtml("[a](https://x.example/a) b\n\nsee https://y.example/b")).toBe(
      '<p><a href="https://x.example/a">a</a> b</p>\n<p>see <a href="https://y.example/b">https://y.example/b</a></p>',
    );
  });

  it("encodes link targets: punycode and percent-encoding where needed, plain URLs as written", () => {
    expect(renderMessageHtml("[x](https://例え.jp/ä?q=ü) [y](https://Example.com:8080/a_b?c=d&e#f)")).toBe(
      '<p><a href="https://xn--r8jz45g.jp/%C3%A4?q=%C3%BC">x</a> ' +
        '<a href="https://Example.com:8080/a_b?c=d&amp;e#f">y</a></p>',
    );
  });

  it("renders a spoiler without a header and a quote holding a code block", () => {
    expect(renderMessageHtml("```spoiler\nhidden\n```")).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n' +
        "<p>hidden</p>\n</div></div>",
    );
    expect(renderMessageHtml("~~~quote\n```js\nlet x;\n```\n~~~")).toBe(
      '<blockquote>\n<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>let x;\n' +
        "</code></pre></div>\n</blockquote>",
    );
  });

  it("keeps raw HTML and script out of math, code and spoiler headers", () => {
    const html = renderMessageHtml('$$\\text{<img src=x onerror="alert(1)">}$$');
    expect(html).not.toContain("<img");
    expect(renderMessageHtml("```spoiler <b>x</b>\ny\n```")).toContain("<p>&lt;b&gt;x&lt;/b&gt;</p>");
  });

  it("stays fast on pathological input (unclosed delimiters, long runs)", () => {
    const inputs = ["$$".repeat(20000), ":a".repeat(20000), "`".repeat(20000) + "x", "~~~\n".repeat(5000)];
    for (const input of inputs) expect(typeof renderMessageHtml(input)).toBe("string");
  });
});
