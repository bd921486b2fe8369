// Linkifier patterns are written in Python regex syntax and run with RE2 (the `re2` package):
// matching is linear-time, so no pattern can stall the server. RE2 understands Python's
// `(?P<name>…)` groups natively; lookarounds and backreferences are refused as invalid.
import RE2 from "re2";
import { Errors } from "../../errors";

/** Named groups in order of appearance, skipping escapes and character classes. */
export function groupNames(pattern: string): string[] {
  const names: string[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++; // a leading ']' is literal
      continue;
    }
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(pattern.slice(i, i + 200));
    if (ch === "(" && named) names.push(named[1]);
  }
  return names;
}

export function compilePattern(pattern: string, flags = "u"): RE2 {
  try {
    return new RE2(pattern, flags);
  } catch (err) {
    throw Errors.badRequest(`Bad regular expression: ${(err as Error).message}`, {
      errors: { pattern: [`Bad regular expression: ${(err as Error).message}`] },
    });
  }
}

export interface LinkifierMatcher {
  /** Global matcher: group 1 is what precedes the match, group 2 the match, the last group what follows. */
  regex: RE2;
}

/**
 * As in the reference, a linkifier only matches at the start of text or after whitespace or an
 * opening delimiter, and not when a letter or digit follows directly.
 */
export function buildMatcher(pattern: string): LinkifierMatcher {
  return { regex: compilePattern(`(^|\\s|\\x{85}|\\pZ|['"\\(,:<])(${pattern})($|[^\\pL\\pN])`, "gu") };
}

export interface LinkifierHit {
  start: number;
  end: number;
  groups: Record<string, string | undefined>;
}

/** Non-overlapping matches of a linkifier in a piece of text. */
export function findMatches(matcher: LinkifierMatcher, text: string): LinkifierHit[] {
  const { regex } = matcher;
  const hits: LinkifierHit[] = [];
  regex.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = regex.exec(text)) !== null) {
    const start = m.index + m[1].length;
    const end = start + m[2].length;
    // Resume right after the match itself, so the character that followed it can precede the next one.
    regex.lastIndex = end > m.index ? end : m.index + 1;
    if (end === start) continue;
    hits.push({ start, end, groups: { ...(m.groups ?? {}) } });
  }
  return hits;
}

/** The groups of a full match of `pattern` against `text`, or undefined. */
export function fullMatchGroups(pattern: string, text: string): Record<string, string | undefined> | undefined {
  const m = compilePattern(`^(?:${pattern})$`).exec(text);
  return m ? { ...(m.groups ?? {}) } : undefined;
}
