// Shared checks for user-chosen names (channels, channel folders).

/** 1-based position of the first control or surrogate character, or undefined when printable. */
export function unprintablePosition(text: string): number | undefined {
  let position = 0;
  for (const ch of text) {
    position++;
    if (/[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch)) return position;
  }
  return undefined;
}
