import { deskText } from "./transform";

describe("deskdotcom custom-action text", () => {
  it("turns <a href> links into Markdown links, whatever the quoting and case", () => {
    expect(deskText(`Case <a href='https://x.desk.com/web/agent/case/1'>Refund</a>`)).toBe(
      "Case [Refund](https://x.desk.com/web/agent/case/1)",
    );
    expect(deskText(`<A target="_blank" HREF="https://x.desk.com/c/2">Two</A >`)).toBe("[Two](https://x.desk.com/c/2)");
    expect(deskText(`<a href=https://x.desk.com/c/3>Three</a>`)).toBe("[Three](https://x.desk.com/c/3)");
  });

  it("decodes entities inside a link only, and keeps everything else as text", () => {
    expect(deskText(`a &amp; b <a href="https://x.desk.com/?a=1&amp;b=2">Tom &amp; Jerry</a>`)).toBe(
      "a &amp; b [Tom & Jerry](https://x.desk.com/?a=1&b=2)",
    );
    expect(deskText("<b>bold</b> @**all** `code`")).toBe("\\<b>bold\\</b> @\\*\\*all\\*\\* \\`code\\`");
  });

  it("links only http(s) targets: any other scheme leaves the link's text", () => {
    expect(deskText(`<a href="javascript:alert(1)">click</a>`)).toBe("click");
    expect(deskText(`<a href="mailto:help@example.com">mail us</a>`)).toBe("mail us");
    expect(deskText(`<a name="top">top</a>`)).toBe("top");
  });

  it("shows an unclosed or stray tag as text", () => {
    expect(deskText(`x <a href='https://x.desk.com/1'>never closed`)).toBe(
      "x \\<a href='https://x.desk.com/1'>never closed",
    );
    expect(deskText("done </a> now")).toBe("done \\</a> now");
  });

  it("uses the URL as the text of an empty link", () => {
    expect(deskText(`<a href="https://x.desk.com/c/9"> </a>`)).toBe("[https://x.desk.com/c/9](https://x.desk.com/c/9)");
  });

  it("stays linear on a long run of opening tags without a closing one", () => {
    const text = "<a href='https://x.desk.com/'>".repeat(50_000) + "<a ".repeat(50_000);
    const started = Date.now();
    const out = deskText(text);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(out.startsWith("\\<a href='https://x.desk.com/'>")).toBe(true);
  });
});
