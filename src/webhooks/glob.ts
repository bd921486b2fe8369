// Glob patterns that requests supply (`branches`, `only_events`, `exclude_events`) compiled to RE2,
// whose matching time is linear in the input whatever the pattern. (A backtracking matcher let
// `branches=*a*a*a*a*a*a*a*a*a*a*b` against a long branch name freeze the process for seconds.)
// Syntax: `*` (within a `/`-separated segment), `**` (across segments), `?`, `[abc]`/`[!abc]`,
// `{a,b}` (nestable), `\x` (a literal x).
import RE2 from "re2";

/** Most patterns one parameter may list. */
export const MAX_PATTERNS = 50;
/** Longest pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 200;

export class GlobSyntaxError extends Error {}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;
const literal = (c: string) => (REGEX_SPECIAL.test(c) ? `\\${c}` : c);

/** One glob → an RE2 source fragment (no anchors). */
export function globToRegexSource(glob: string): string {
  let out = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) out += literal(glob[++i]);
    else if (c === "*" && glob[i + 1] === "*") {
      out += ".*";
      while (glob[i + 1] === "*") i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") {
      braceDepth++;
      out += "(?:";
    } else if (c === "}" && braceDepth > 0) {
      braceDepth--;
      out += ")";
    } else if (c === "," && braceDepth > 0) out += "|";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) out += "\\[";
      else {
        const body = glob.slice(i + 1, end);
        const negated = body.startsWith("!") || body.startsWith("^");
        const members = negated ? body.slice(1) : body;
        checkClass(glob, glob.slice(i, end + 1), members);
        // `[` is escaped too, so that RE2 never reads `[:…:]` inside a class as a class of its own.
        const chars = members.replace(/[\\\]^[]/g, "\\$&");
        out += `[${negated ? "^" : ""}${chars}]`;
        i = end;
      }
    } else out += literal(c);
  }
  if (braceDepth !== 0) throw new GlobSyntaxError(`unbalanced '{' in pattern '${glob}'`);
  return out;
}

/**
 * A character class RE2 would refuse, refused here with the pattern named: an empty one (`[!]`,
 * `[^]`), a reversed range (`[z-a]`), or a POSIX class (`[[:alpha:]]`, not part of this syntax).
 */
function checkClass(glob: string, klass: string, members: string): void {
  const bad = (why: string) => new GlobSyntaxError(`${why} '${klass}' in pattern '${glob}'`);
  if (members === "") throw bad("empty character class");
  if (/\[[:.=]/.test(members)) throw bad("unsupported POSIX character class");
  const chars = [...members];
  for (let k = 1; k + 1 < chars.length; k++) {
    if (chars[k] !== "-") continue;
    if (chars[k - 1].codePointAt(0)! > chars[k + 1].codePointAt(0)!) throw bad("reversed range");
    k += 2; // `a-c-e`: the second `-` follows a range and is a literal
  }
}

/** The RE2 for one pattern, or a GlobSyntaxError naming it (a last check: globToRegexSource refuses what it knows). */
export function checkGlob(glob: string): void {
  try {
    new RE2(`^(?:${globToRegexSource(glob)})$`, "su");
  } catch (err) {
    if (err instanceof GlobSyntaxError) throw err;
    throw new GlobSyntaxError(`invalid pattern '${glob}'`);
  }
}

const cache = new Map<string, RE2>();
const CACHE_SIZE = 500;

/** The patterns as one anchored RE2 (cached: the same URL sends the same patterns every time). */
export function compileGlobs(patterns: string[]): RE2 {
  const key = patterns.join("\u0000");
  let re = cache.get(key);
  if (!re) {
    re = new RE2(`^(?:${patterns.map(globToRegexSource).join("|")})$`, "su");
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(key, re);
  }
  return re;
}

export function globMatches(value: string, patterns: string[]): boolean {
  return patterns.length > 0 && compileGlobs(patterns).test(value);
}
