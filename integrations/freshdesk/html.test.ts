import { htmlToMarkdown } from "./html";

describe("freshdesk htmlToMarkdown", () => {
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
