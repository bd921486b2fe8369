// JSON from users (request bodies, JSON-encoded parameters, webhook payloads) is parsed only after
// a linear scan has bounded its nesting: deep nesting is cheap to send and makes recursive code
// (JSON.stringify, schema validation, templates) overflow the stack.

/** Deepest array/object nesting accepted in any user-supplied JSON. */
export const MAX_JSON_DEPTH = 100;

export class JsonTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`JSON is nested too deeply: the limit is ${limit} levels`);
  }
}

/** How many `{` and `[` the text holds (in strings too), counting no further than `max`. */
function openingBrackets(text: string, max: number): number {
  let count = 0;
  for (const bracket of ["{", "["]) {
    for (let i = text.indexOf(bracket); i !== -1 && count <= max; i = text.indexOf(bracket, i + 1)) count++;
  }
  return count;
}

/** True when `text` nests arrays/objects deeper than `limit` (strings are skipped; one pass). */
export function jsonTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  // Nesting needs an opening bracket per level: a text with no more brackets than the limit (most
  // are) passes after a native substring search instead of the character loop below.
  if (openingBrackets(text, limit) <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** JSON.parse with the nesting bound; throws SyntaxError or JsonTooDeepError. */
export function parseJson(text: string, limit = MAX_JSON_DEPTH): unknown {
  if (jsonTooDeep(text, limit)) throw new JsonTooDeepError(limit);
  return JSON.parse(text);
}
