// Text clean-ups that run in linear time on any input. The obvious regular expressions for these
// (`/\s+$/`, `/\n+$/`, `/\s*\n\s*/g`, `/\s*<[^>]*>$/`) rescan a long run of the repeated character
// from every position in it: a request body of 1 MB of spaces or newlines would then hold the event
// loop for minutes. ESLint (regexp/no-super-linear-move) refuses those patterns; these replace them.

/** `text` without the trailing characters that are in `chars` (e.g. "\n", "/", " \t"). */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1])) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the leading characters that are in `chars`. */
export function trimStartChars(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start])) start++;
  return start === 0 ? text : text.slice(start);
}

const WHITESPACE_RUN = /\s+/g;

/** Every run of whitespace that holds a line break becomes one space (a paragraph onto one line). */
export function joinLines(text: string): string {
  // `\s+` matches each run once, greedily, and moves on: linear.
  return text.includes("\n") ? text.replace(WHITESPACE_RUN, (run) => (run.includes("\n") ? " " : run)) : text;
}

/**
 * "Ada Lovelace <ada@example.com>" → "Ada Lovelace": a trailing `<…>` with no `>` inside (from the
 * first `<` after the previous `>`), the whitespace before it and any after it go.
 */
export function withoutTrailingAngle(text: string): string {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(">")) return text;
  const open = trimmed.indexOf("<", trimmed.lastIndexOf(">", trimmed.length - 2) + 1);
  if (open < 0 || open === trimmed.length - 1) return text;
  return trimmed.slice(0, open).trimEnd();
}

// Text that is refused wherever it would become stored text (REST parameters, rendered webhook
// messages): NUL breaks C-string consumers and MySQL text handling, and a lone UTF-16 surrogate
// (only possible through a JSON "\ud800" escape) is not Unicode text at all.
/** With the `u` flag a surrogate pair is one code point, so this matches only unpaired halves. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export const hasNullByte = (text: string): boolean => text.includes("\u0000");
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);
