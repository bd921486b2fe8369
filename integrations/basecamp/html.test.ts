// Basecamp rich text → Markdown; fixtures/ is the acceptance test.
import { htmlToMarkdown } from "./html";
import { splitKind } from "./transform";

describe("htmlToMarkdown", () => {
  it.each([
    ["<div>Hello<br>world</div>", "Hello\nworld"],
    ["<div><strong>bold</strong> and <em>it</em></div>", "**bold** and *it*"],
    ['<a href="https://x.example/a?b=1&amp;c=2">docs</a>', "[docs](https://x.example/a?b=1&c=2)"],
    ['<a href="javascript:alert(1)">click</a>', "click"],
    ["<ul><li>one</li><li>two</li></ul><div>after</div>", "* one\n* two\n\nafter"],
    ["<blockquote>quoted<br>twice</blockquote>", "> quoted\n> twice"],
    ["<pre>let x = 1;<br>x++;</pre>", "```\nlet x = 1;\nx++;\n```"],
    ["<div>1 &lt; 2 &amp; 3 &#62; 2 &#x263A;</div>", "1 < 2 & 3 > 2 ☺"],
    [
      '<bc-attachment content-type="application/vnd.basecamp.mention"><figure><figcaption>Ann Lee</figcaption></figure></bc-attachment> hi',
      "@Ann Lee hi",
    ],
    ['<bc-attachment content-type="image/png" filename="plan.png"></bc-attachment>', "(attachment: plan.png)"],
  ])("converts %j", (html, markdown) => {
    expect(htmlToMarkdown(html)).toBe(markdown);
  });
  it("gives '' for anything but a string", () => {
    expect(htmlToMarkdown(undefined)).toBe("");
    expect(htmlToMarkdown(42)).toBe("");
  });
});

describe("splitKind", () => {
  it("knows recording types that contain underscores", () => {
    expect(splitKind("question_answer_created")).toEqual({ type: "question_answer", action: "created" });
    expect(splitKind("kanban_card_moved")).toEqual({ type: "kanban_card", action: "moved" });
    expect(splitKind("todo_due_date_changed")).toEqual({ type: "todo", action: "due_date_changed" });
    expect(splitKind("widget_created")).toEqual({ type: "widget", action: "created" });
  });
});
