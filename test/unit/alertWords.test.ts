// Alert-word matching: whole words and phrases, case-insensitively, in one pass over the text.
import { matchingWords } from "../../src/services/messages/alertWordFlags";

describe("matchingWords", () => {
  it("matches whole words and phrases case-insensitively, never inside a longer word", () => {
    const words = ["deploy", "big outage", "c++", "straße", "ship"];
    const text = "Deploy! C++ builds (BIG OUTAGE) at the STRASSE? no: Straße; reshipped";
    expect([...matchingWords(words, text)].sort()).toEqual(["big outage", "c++", "deploy", "straße"]);
    expect(matchingWords(words, "redeploy deploys c++x bigoutage").size).toBe(0);
  });

  it("finds words that overlap or end inside one another", () => {
    const words = ["he", "she", "his", "hers", "she sells"];
    expect([...matchingWords(words, "ushers: she sells his")].sort()).toEqual(["his", "she", "she sells"]);
    expect([...matchingWords(["a", "a a", "a a a"], "a a a")].sort()).toEqual(["a", "a a", "a a a"]);
  });

  it("many words over a long text: each found where it occurs, non-ASCII letters are word characters", () => {
    const words = Array.from({ length: 1000 }, (_, i) => `w${i}`);
    const text = `${"filler ".repeat(2000)} w999, w5 éw7 w70é`;
    expect([...matchingWords(words, text)].sort()).toEqual(["w5", "w999"]);
  });
});
