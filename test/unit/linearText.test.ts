// The linear-time text helpers (src/text.ts) and the rewritten escapes give exactly what the
// regular expressions they replaced gave. The old patterns are the oracles here: on short strings
// they are fast, and they define the behaviour. Random strings are drawn from the characters that
// matter to each pattern, so that runs, line breaks and edge positions come up often.
import fc from "fast-check";
import { joinLines, trimEndChars, trimStartChars, withoutTrailingAngle } from "../../src/text";
import { escapeMarkdown } from "../../src/webhooks/safeMarkdown";

const from = (chars: string[], maxLength = 24) =>
  fc.array(fc.constantFrom(...chars), { maxLength }).map((parts) => parts.join(""));
const RUNS = { numRuns: 3000, seed: 20261128 };

const SPACES = [" ", "\t", "\n", "\r", "\u00a0", "\u2028", "x", "y"];

describe("linear text helpers match the patterns they replace", () => {
  test("trimEndChars / trimStartChars", () => {
    fc.assert(
      fc.property(from(["\n", "/", " ", "\t", "_", "a"]), (s) => {
        expect(trimEndChars(s, "\n")).toBe(s.replace(/\n+$/, ""));
        expect(trimEndChars(s, "/")).toBe(s.replace(/\/+$/, ""));
        expect(trimEndChars(s, " \t")).toBe(s.replace(/[ \t]+$/, ""));
        expect(trimStartChars(s, "\n")).toBe(s.replace(/^\n+/, ""));
        expect(trimEndChars(trimStartChars(s, "_/"), "_")).toBe(s.replace(/^[_/]+|_+$/g, ""));
      }),
      RUNS,
    );
  });

  test("trimEnd is /\\s+$/", () => {
    fc.assert(
      fc.property(from(SPACES), (s) => expect(s.trimEnd()).toBe(s.replace(/\s+$/, ""))),
      RUNS,
    );
  });

  test("joinLines is /\\s*\\n\\s*/g → space", () => {
    fc.assert(
      fc.property(from(SPACES), (s) => expect(joinLines(s)).toBe(s.replace(/\s*\n\s*/g, " "))),
      RUNS,
    );
  });

  test("withoutTrailingAngle is /\\s*<[^>]*>\\s*$/ (the name before an e-mail in angle brackets)", () => {
    fc.assert(
      fc.property(from(["<", ">", " ", "a", "@"]), (s) => {
        const expected = s.replace(/\s*<[^>]*>\s*$/, "");
        // Where the old pattern left the text alone, so does the helper.
        expect(withoutTrailingAngle(s)).toBe(expected);
      }),
      RUNS,
    );
    expect(withoutTrailingAngle("Ada Lovelace <ada@example.com>")).toBe("Ada Lovelace");
    expect(withoutTrailingAngle("Ada Lovelace")).toBe("Ada Lovelace");
  });
});

/** escapeMarkdown's block-marker escapes as they were written before (`\s` crossing line breaks). */
function escapeLineStartsBefore(text: string): string {
  if (!/^\s*[>#+=\d-]/m.test(text)) return text;
  return text
    .replace(/^(\s*)>/gm, "$1\\>")
    .replace(/^(\s*)(#{1,6}|[+-]|\d+[.)])(?=\s|$)/gm, (_m, space: string, marker: string) =>
      /^\d/.test(marker) ? `${space}${marker.slice(0, -1)}\\${marker.slice(-1)}` : `${space}\\${marker}`,
    )
    .replace(/^(\s*)([=-])(?=\2*\s*$)/gm, "$1\\$2");
}

test("escapeMarkdown's line-start escapes are unchanged by the linear patterns", () => {
  // No inline specials in the alphabet: only the line-start part differs between the two.
  fc.assert(
    fc.property(from([" ", "\t", "\n", "\r", ">", "#", "-", "+", "=", "1", ".", ")", "x"], 30), (s) =>
      expect(escapeMarkdown(s)).toBe(escapeLineStartsBefore(s)),
    ),
    RUNS,
  );
});
