// Unicode emoji in stored message HTML are `<span class="emoji emoji-1f642" …>:name:</span>`, which
// a chat client draws from its emoji sprite sheet. These pages have no sprites, so the span shows
// the emoji's own character instead (its name stays in `title` and `aria-label`). Only spans exactly
// as the renderer writes them change, and only to characters that cannot be markup.
const EMOJI_SPAN =
  /<span aria-label="([^"<>]*)" class="emoji emoji-([0-9a-f]{1,6}(?:-[0-9a-f]{1,6}){0,9})" role="img" title="([^"<>]*)">:[a-z0-9_+-]{1,64}:<\/span>/g;

/** Code points that may appear in an emoji: none of ASCII's but a keycap's `#`, `*` and digits. */
function emojiCharacter(code: string): string | undefined {
  const points = code.split("-").map((hex) => parseInt(hex, 16));
  const allowed = (p: number) =>
    p === 0x23 || p === 0x2a || (p >= 0x30 && p <= 0x39) || (p >= 0xa0 && p <= 0x10ffff && (p < 0xd800 || p > 0xdfff));
  return points.every(allowed) ? String.fromCodePoint(...points) : undefined;
}

/** The message HTML with each Unicode emoji span showing its character rather than `:name:`. */
export function withEmojiGlyphs(html: string): string {
  return html.replace(EMOJI_SPAN, (span, label: string, code: string, title: string) => {
    const character = emojiCharacter(code);
    if (character === undefined) return span;
    return `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${title}">${character}</span>`;
  });
}
