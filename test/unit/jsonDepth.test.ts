// The nesting bound on user-supplied JSON: documents with few brackets take a shortcut, others the
// full scan; both must give the same answer.
import { jsonTooDeep, MAX_JSON_DEPTH } from "../../src/json";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("jsonTooDeep", () => {
  it("accepts nesting up to the limit and refuses one level more", () => {
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(`{"a":${nested(3)}}`, 4)).toBe(false);
    expect(jsonTooDeep(`{"a":${nested(3)}}`, 3)).toBe(true);
  });

  it("counts depth, not brackets: many shallow objects and brackets inside strings pass", () => {
    expect(jsonTooDeep(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, tags: [i] }))))).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ text: "[{".repeat(500) }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ text: '\\"[[[[' }), 1)).toBe(false);
  });
});
