// How user-chosen names compare: the same on every database, because the database only ever
// compares keys computed here, byte for byte (SQLite's default, and a binary collation on MySQL).
//
// A name's key is its NFC form, trimmed, with each character case-folded on its own:
// case-insensitive ("General" = "general"), accent-sensitive ("cafe" ≠ "café"), and
// normalisation-insensitive (NFC and NFD "café" are one name). The folding follows the reference,
// which compares upper-cased names: "ı" (Turkish dotless i) folds to "i" because its upper case
// is "I", while "İ" (dotted capital I) is only itself; "ẞ" folds to "ß", but "ß" and "ss" differ
// (a spelling, like an accent). One character always folds to one character, so a key is never
// longer than its name and fits the name's column.

/** The form a name is stored in (NFC), so equal-looking names are stored alike. */
export function normalizeName(name: string): string {
  return name.normalize("NFC");
}

/** Is this one code point (a string of one character, astral ones included)? */
function isOneCodePoint(text: string): boolean {
  const first = text.codePointAt(0);
  return first !== undefined && text.length === (first > 0xffff ? 2 : 1);
}

/** Case-folds one character to one character: lower(upper(c)) where that is a single character. */
function foldCharacter(ch: string): string {
  const upper = ch.toUpperCase();
  if (isOneCodePoint(upper)) {
    const lower = upper.toLowerCase();
    if (isOneCodePoint(lower)) return lower;
  }
  const lower = ch.toLowerCase();
  return isOneCodePoint(lower) ? lower : ch;
}

const ASCII = /^[\x20-\x7e]*$/;

/** The comparison key of a name (channel, topic, group, emoji, profile field, folder, email). */
export function nameKey(name: string): string {
  const text = name.normalize("NFC").trim();
  if (ASCII.test(text)) return text.toLowerCase();
  let key = "";
  for (const ch of text) key += foldCharacter(ch);
  return key;
}

/** Do two names compare equal? */
export function sameName(a: string, b: string): boolean {
  return nameKey(a) === nameKey(b);
}
