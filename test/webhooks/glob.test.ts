// URL-supplied globs match in linear time (RE2) with picomatch-like syntax, and their count and
// length are bounded.
import RE2 from "re2";
import {
  compileGlobs,
  globMatches,
  globToRegexSource,
  GlobSyntaxError,
  MAX_PATTERN_LENGTH,
  MAX_PATTERNS,
} from "../../src/webhooks/glob";
import { parsePatternList } from "../../src/webhooks/events";

describe("glob syntax", () => {
  it.each([
    ["main", "main", true],
    ["main", "mainline", false],
    ["release/*", "release/1.2", true],
    ["release/*", "release/1/2", false],
    ["release/**", "release/1/2", true],
    ["feature-?", "feature-a", true],
    ["feature-?", "feature-ab", false],
    ["{main,dev}", "dev", true],
    ["{main,dev}", "test", false],
    ["v[0-9].*", "v1.x", true],
    ["v[!0-9]*", "v1", false],
    ["pull_request.*", "pull_request.opened", true],
    ["a.b", "axb", false],
    ["(x)|y", "(x)|y", true],
    ["\\*", "*", true],
    ["\\*", "x", false],
    [".hidden*", ".hidden-branch", true],
    ["main", "xmain", false],
    ["a+b", "a+b", true],
    ["a+b", "aab", false],
    ["^a$", "^a$", true],
    ["x|y", "x", false],
    ["release/**", "release/a\nb", true],
    ["**", "a/b\nc", true],
    ["feature-?", "feature-😀", true],
    ["[]a]", "]", true],
    ["[a", "[a", true],
    ["a,b", "a,b", true],
    ["a,b", "a", false],
    ["}", "}", true],
    ["v\\", "v\\", true],
  ])("%s ~ %s → %s", (pattern, value, expected) => {
    expect(globMatches(value, [pattern])).toBe(expected);
  });

  it("is compiled to RE2, whose matching time is linear in the input", () => {
    expect(compileGlobs(["*a*a*a*a*a*a*a*a*a*a*b"])).toBeInstanceOf(RE2);
    expect(globMatches("a".repeat(100_000), ["*a*a*a*a*a*a*a*a*a*a*b"])).toBe(false);
  });
});

describe("pattern lists", () => {
  it("split on commas outside braces", () => {
    expect(parsePatternList("branches", "main, release/{1,2}")).toEqual(["main", "release/{1,2}"]);
  });

  it(`refuse more than ${MAX_PATTERNS} patterns, or one longer than ${MAX_PATTERN_LENGTH} characters`, () => {
    expect(() =>
      parsePatternList(
        "branches",
        Array(MAX_PATTERNS + 1)
          .fill("x")
          .join(","),
      ),
    ).toThrow(`branches lists too many patterns: the limit is ${MAX_PATTERNS}`);
    expect(() => parsePatternList("only_events", "a".repeat(MAX_PATTERN_LENGTH + 1))).toThrow(
      `only_events has a pattern that is too long: the limit is ${MAX_PATTERN_LENGTH} characters`,
    );
    expect(parsePatternList("branches", Array(MAX_PATTERNS).fill("x").join(","))).toHaveLength(MAX_PATTERNS);
  });

  it("refuse an unbalanced brace", () => {
    expect(() => parsePatternList("branches", "release/{1")).toThrow("unbalanced '{'");
  });
});

describe("globToRegexSource", () => {
  it.each([
    ["main", "main"],
    ["a*b", "a[^/]*b"],
    ["a/**/b", "a\\/.*\\/b"],
    ["***", ".*"],
    ["**a*", ".*a[^/]*"],
    ["?", "[^/]"],
    ["{a,b}", "(?:a|b)"],
    ["{a,{b,c}}x", "(?:a|(?:b|c))x"],
    ["a,b", "a,b"],
    ["a}", "a\\}"],
    ["[abc]", "[abc]"],
    ["[!a-c]", "[^a-c]"],
    ["[^a]", "[^a]"],
    ["[]a]", "[\\]a]"],
    ["[a^\\]", "[a\\^\\\\]"],
    ["[a", "\\[a"],
    ["[]", "\\[\\]"],
    ["\\*", "\\*"],
    ["\\a", "a"],
    ["a\\", "a\\\\"],
    ["^$.+()|", "\\^\\$\\.\\+\\(\\)\\|"],
  ])("%s → %s", (glob, source) => expect(globToRegexSource(glob)).toBe(source));

  it("refuses an unclosed brace with a GlobSyntaxError naming the pattern", () => {
    expect(() => globToRegexSource("a{b,{c}")).toThrow(new GlobSyntaxError("unbalanced '{' in pattern 'a{b,{c}'"));
    expect(() => globToRegexSource("a{b,{c}")).toThrow(GlobSyntaxError);
  });
});

describe("globMatches and compileGlobs", () => {
  it("matches when any of the patterns matches, and never with no patterns", () => {
    expect(globMatches("dev", ["main", "dev"])).toBe(true);
    expect(globMatches("maindev", ["main", "dev"])).toBe(false);
    expect(globMatches("", [])).toBe(false);
    expect(globMatches("x", [])).toBe(false);
  });

  it("distinct pattern lists never share a compiled matcher", () => {
    expect(globMatches("ab", ["ab"])).toBe(true);
    expect(globMatches("a", ["a", "b"])).toBe(true);
    expect(globMatches("ab", ["a", "b"])).toBe(false);
  });

  it("keeps the 500 most recently compiled pattern lists and compiles others afresh", () => {
    const lists = Array.from({ length: 600 }, (_, i) => [`cache-${i}`]);
    const compiled = lists.map((l) => compileGlobs(l));
    expect(compileGlobs(lists[599])).toBe(compiled[599]);
    expect(compileGlobs(lists[100])).toBe(compiled[100]);
    const again = compileGlobs(lists[99]);
    expect(again).not.toBe(compiled[99]);
    expect(again.source).toBe(compiled[99].source);
  });
});
