// The deliveries page shows stored message HTML with each Unicode emoji's character in its span.
import { withEmojiGlyphs } from "../../src/web/emojiGlyphs";

const span = (code: string, name: string, text = `:${name}:`) =>
  `<span aria-label="${name.replace(/_/g, " ")}" class="emoji emoji-${code}" role="img" title="${name.replace(/_/g, " ")}">${text}</span>`;

describe("withEmojiGlyphs", () => {
  it("puts the character in place of the name, several code points included", () => {
    const html = `<p>hi ${span("1f642", "slightly_smiling_face")} ${span("1f1fa-1f1f8", "flag_us")} ${span("0023-fe0f-20e3", "hash")}</p>`;
    expect(withEmojiGlyphs(html)).toBe(
      `<p>hi ${span("1f642", "slightly_smiling_face", "\u{1f642}")} ${span("1f1fa-1f1f8", "flag_us", "\u{1f1fa}\u{1f1f8}")} ` +
        `${span("0023-fe0f-20e3", "hash", "#\ufe0f\u20e3")}</p>`,
    );
  });

  it("leaves alone anything that could become markup or is not the renderer's span", () => {
    for (const html of [
      span("3c", "lt"), // `<`
      span("26", "amp"), // `&`
      span("d800", "surrogate"),
      span("110000", "beyond"),
      '<span class="emoji emoji-1f642">:x:</span>',
      `<code>${span("1f642", "x", "&lt;b&gt;")}</code>`,
    ])
      expect(withEmojiGlyphs(html)).toBe(html);
  });
});
