// Reading a value out of a payload by dotted path or JSON pointer, and the pointer form of a path
// for error messages.
import { asPointer, parseJsonPath, readJsonPath, readPath } from "../../src/webhooks/paths";
import { MAX_JSON_PATH_LENGTH, MAX_JSON_PATH_SEGMENTS } from "../../src/limits";

describe("readPath", () => {
  const payload = {
    pull_request: { head: { ref: "main" } },
    alerts: [{ status: "firing" }, { status: "resolved" }],
    "a/b": { "c~d": { "~1": "escaped" } },
    "": { "": "empty keys" },
    nothing: null,
    text: "abc",
    gone: undefined,
  };

  it("follows a dotted path", () => {
    expect(readPath(payload, "pull_request.head.ref")).toBe("main");
    expect(readPath(payload, "alerts.1.status")).toBe("resolved");
    expect(readPath(payload, "pull_request.head")).toEqual({ ref: "main" });
  });

  it("follows a JSON pointer, decoding ~1 as '/' and ~0 as '~' (every one, ~1 first)", () => {
    expect(readPath(payload, "/alerts/0/status")).toBe("firing");
    expect(readPath(payload, "/a~1b/c~0d/~01")).toBe("escaped");
    expect(readPath({ "x/y/z": 1 }, "/x~1y~1z")).toBe(1);
    expect(readPath({ "x~y~z": 2 }, "/x~0y~0z")).toBe(2);
  });

  it("an empty segment names the empty key", () => {
    expect(readPath(payload, "/")).toEqual({ "": "empty keys" });
    expect(readPath(payload, "//")).toBe("empty keys");
    expect(readPath(payload, ".")).toBe("empty keys");
  });

  it("is undefined for a missing key, a step through null or a primitive, or an inherited property", () => {
    expect(readPath(payload, "pull_request.base.ref")).toBeUndefined();
    expect(readPath(payload, "nothing.x")).toBeUndefined();
    expect(readPath(payload, "text.length")).toBeUndefined();
    expect(readPath(payload, "toString")).toBeUndefined();
    expect(readPath(payload, "/alerts/2/status")).toBeUndefined();
    expect(readPath(payload, "gone")).toBeUndefined();
    expect(readPath(null, "a")).toBeUndefined();
    expect(readPath("abc", "length")).toBeUndefined();
  });

  it("reads null and own array properties as they are", () => {
    expect(readPath(payload, "nothing")).toBeNull();
    expect(readPath(payload, "alerts.length")).toBe(2);
  });
});

describe("asPointer", () => {
  it("keeps a JSON pointer as it is", () => {
    expect(asPointer("/alerts/0/status")).toBe("/alerts/0/status");
  });

  it("turns a dotted path into a pointer, escaping every '~' as ~0 and every '/' as ~1", () => {
    expect(asPointer("pull_request.head.ref")).toBe("/pull_request/head/ref");
    expect(asPointer("kind")).toBe("/kind");
    expect(asPointer("a/b/c.d~e~f")).toBe("/a~1b~1c/d~0e~0f");
    expect(asPointer("x~/y")).toBe("/x~0~1y");
  });
});

describe("parseJsonPath / readJsonPath (jsonPath URL options)", () => {
  it("reads names, indexes and quoted names", () => {
    expect(parseJsonPath("$")).toEqual([]);
    expect(parseJsonPath("$.alert.labels[0].name")).toEqual(["alert", "labels", 0, "name"]);
    expect(parseJsonPath(`$['a b']["c.d"][12]`)).toEqual(["a b", "c.d", 12]);
    const payload = { alert: { labels: [{ name: "x" }] }, "a b": { "c.d": Array(13).fill(7) } };
    expect(readJsonPath(payload, ["alert", "labels", 0, "name"])).toBe("x");
    expect(readJsonPath(payload, ["a b", "c.d", 12])).toBe(7);
    expect(readJsonPath(payload, ["alert", "labels", 1])).toBeUndefined();
    expect(readJsonPath(payload, ["alert", 0])).toBeUndefined();
    expect(readJsonPath(payload, ["alert", "toString"])).toBeUndefined();
  });

  it("refuses what is not in the subset, and paths over the length or step limits", () => {
    for (const bad of ["alert.name", "$.", "$..a", "$.a[*]", "$.a[?(@.x)]", "$[a]", "$.a b", "$['a]", "$a", "$.a[-1]"])
      expect([bad, parseJsonPath(bad)]).toEqual([bad, undefined]);
    expect(parseJsonPath("$" + ".a".repeat(MAX_JSON_PATH_SEGMENTS))).toHaveLength(MAX_JSON_PATH_SEGMENTS);
    expect(parseJsonPath("$" + ".a".repeat(MAX_JSON_PATH_SEGMENTS + 1))).toBeUndefined();
    expect(parseJsonPath("$." + "a".repeat(MAX_JSON_PATH_LENGTH - 2))).toHaveLength(1);
    expect(parseJsonPath("$." + "a".repeat(MAX_JSON_PATH_LENGTH - 1))).toBeUndefined();
  });
});
