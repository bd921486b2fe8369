// The reference server's own Markdown test cases (../shared/reference/markdown-cases.json): each input
// rendered by our renderer must produce the same HTML tree as the reference's expected output
// (attribute order, entity spelling and whitespace-only text between tags do not count).
// At least 90% must match; the ones that do not are listed in docs/architecture.md ("Message Markdown") with the reason.
import fs from "node:fs";
import path from "node:path";
import { renderMessageHtml } from "../../src/markdown/markdown";
import { normaliseHtml } from "./htmlTree";

interface ReferenceCase {
  name: string;
  input: string;
  expected_output: string;
  translate_emoticons?: boolean;
}

const CASES_FILE = path.resolve(__dirname, "../../../shared/reference/markdown-cases.json");
const present = fs.existsSync(CASES_FILE);
const cases: ReferenceCase[] = present ? JSON.parse(fs.readFileSync(CASES_FILE, "utf8")).cases : [];

const REQUIRED_RATIO = 0.9;

function render(testCase: ReferenceCase): string {
  // The reference's test server is http://zulip.testserver (links into it become fragments).
  return renderMessageHtml(testCase.input, {
    translateEmoticons: testCase.translate_emoticons === true,
    realmUrl: "http://zulip.testserver",
  });
}

(present ? describe : describe.skip)("reference Markdown cases (../shared/reference/markdown-cases.json)", () => {
  if (!present) it.skip("skipped: the shared reference cases file is absent", () => undefined);

  it(`renders at least ${REQUIRED_RATIO * 100}% of them as the reference does`, () => {
    expect(cases.length).toBeGreaterThan(100);
    const failing = cases.filter((c) => normaliseHtml(render(c)) !== normaliseHtml(c.expected_output));
    const ratio = (cases.length - failing.length) / cases.length;
    const report =
      `reference Markdown cases: ${cases.length - failing.length}/${cases.length} identical ` +
      `(${(ratio * 100).toFixed(1)}%); not matched: ${failing.map((c) => c.name).join(", ") || "none"}`;
    console.log(report);
    if (ratio < REQUIRED_RATIO) throw new Error(report);
  });
});

// A case that does not match is reported by name in the summary above; these make sure the
// normaliser itself neither hides real differences nor invents them.
describe("HTML normaliser", () => {
  it("ignores attribute order, entity spelling and whitespace between tags", () => {
    expect(normaliseHtml('<p>\n<a title="x" href="/a">&quot;a&quot;</a></p>\n')).toBe(
      normaliseHtml('<p><a href="/a" title="x">"a"</a></p>'),
    );
  });
  it("keeps text, tag and attribute differences", () => {
    expect(normaliseHtml("<p>a b</p>")).not.toBe(normaliseHtml("<p>a  b</p>"));
    expect(normaliseHtml("<p>a</p>")).not.toBe(normaliseHtml("<div>a</div>"));
    expect(normaliseHtml('<a href="/a">x</a>')).not.toBe(normaliseHtml('<a href="/a" target="_blank">x</a>'));
  });
});
