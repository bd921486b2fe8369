// Parameter declarations (src/http/params.ts) as pure functions: every parser's accepted forms and
// the exact error (code, message, var_name) each refusal gives.
import { compiledJsonSchemas, P, Param, parseParamsFrom } from "../../src/http/params";
import { JsonTooDeepError } from "../../src/json";
import { refusalOf } from "../support/apiErrors";

/** The error a call throws, reduced to what the client sees. */
function refusal(fn: () => unknown): { code: string; msg: string; extra: Record<string, unknown> } {
  const err = refusalOf(fn);
  return { code: err.code, msg: err.message, extra: err.extra };
}

const bad = (name: string, msg: string) => ({ code: "BAD_REQUEST", msg, extra: { var_name: name } });
const parse = <T>(param: Param<T>, raw: unknown, name = "x") => param.parse(raw, name);

describe("P.string", () => {
  it("takes text, and numbers and booleans as their text", () => {
    expect(parse(P.string(), "hi")).toBe("hi");
    expect(parse(P.string(), 42)).toBe("42");
    expect(parse(P.string(), false)).toBe("false");
    expect(parse(P.string(), "")).toBe("");
  });

  it("refuses a repeated parameter and values that are not text", () => {
    expect(refusal(() => parse(P.string(), ["a", "b"]))).toEqual(bad("x", "x was given more than once"));
    expect(refusal(() => parse(P.string(), { a: 1 }))).toEqual(bad("x", "x is not a string"));
    expect(refusal(() => parse(P.string(), null))).toEqual(bad("x", "x is not a string"));
  });

  it("refuses NUL bytes and unpaired surrogates but keeps paired ones", () => {
    expect(refusal(() => parse(P.string(), "a\u0000b"))).toEqual(bad("x", "x must not contain null bytes"));
    expect(refusal(() => parse(P.string(), "a\ud800b"))).toEqual(
      bad("x", "x contains an unpaired surrogate (invalid Unicode)"),
    );
    expect(refusal(() => parse(P.string(), "\udc00"))).toEqual(
      bad("x", "x contains an unpaired surrogate (invalid Unicode)"),
    );
    expect(parse(P.string(), "emoji 😀")).toBe("emoji 😀");
  });

  it("enforces minLength at the boundary, with a blank message for a minimum of one", () => {
    expect(refusal(() => parse(P.string({ minLength: 1 }), ""))).toEqual(bad("x", "x cannot be blank"));
    expect(parse(P.string({ minLength: 1 }), "a")).toBe("a");
    expect(refusal(() => parse(P.string({ minLength: 3 }), "ab"))).toEqual(
      bad("x", "x is too short (minimum 3 characters)"),
    );
    expect(parse(P.string({ minLength: 3 }), "abc")).toBe("abc");
    expect(parse(P.string({ minLength: 0 }), "")).toBe("");
  });

  it("enforces maxLength at the boundary, counting code points rather than UTF-16 units", () => {
    expect(parse(P.string({ maxLength: 3 }), "abc")).toBe("abc");
    expect(refusal(() => parse(P.string({ maxLength: 3 }), "abcd"))).toEqual(
      bad("x", "x is too long (limit: 3 characters)"),
    );
    // Three astral characters are six UTF-16 units but three characters.
    expect(parse(P.string({ maxLength: 3 }), "😀😀😀")).toBe("😀😀😀");
    expect(parse(P.string({ maxLength: 0 }), "")).toBe("");
  });
});

describe("P.name", () => {
  it("normalises to NFC before checking the length", () => {
    const decomposed = "cafe\u0301"; // 5 code points, 4 once composed
    expect(parse(P.name({ maxLength: 4 }), decomposed)).toBe("caf\u00e9");
    expect(refusal(() => parse(P.name({ maxLength: 3 }), decomposed))).toEqual(
      bad("x", "x is too long (limit: 3 characters)"),
    );
  });

  it("passes non-text values to the string rules unchanged", () => {
    expect(parse(P.name(), 7)).toBe("7");
    expect(refusal(() => parse(P.name(), ["a"]))).toEqual(bad("x", "x was given more than once"));
  });
});

describe("P.int", () => {
  it("takes plain and signed integers, surrounding space, and JSON numbers", () => {
    expect(parse(P.int(), "12")).toBe(12);
    expect(parse(P.int(), "-3")).toBe(-3);
    expect(parse(P.int(), " 5 ")).toBe(5);
    expect(parse(P.int(), 9)).toBe(9);
    expect(parse(P.int(), "0")).toBe(0);
  });

  it("refuses fractions, words, unsafe integers and repeated values", () => {
    const notInt = bad("x", "x is not an integer");
    expect(refusal(() => parse(P.int(), "1.5"))).toEqual(notInt);
    expect(refusal(() => parse(P.int(), "abc"))).toEqual(notInt);
    expect(refusal(() => parse(P.int(), "1a"))).toEqual(notInt);
    expect(refusal(() => parse(P.int(), "a1"))).toEqual(notInt);
    expect(refusal(() => parse(P.int(), ""))).toEqual(notInt);
    expect(refusal(() => parse(P.int(), "9007199254740993"))).toEqual(notInt);
    expect(refusal(() => parse(P.int(), 1.5))).toEqual(notInt);
    expect(refusal(() => parse(P.int(), true))).toEqual(notInt);
    expect(refusal(() => parse(P.int(), ["1", "2"]))).toEqual(bad("x", "x was given more than once"));
  });

  it("enforces min and max inclusively", () => {
    const ranged = P.int({ min: 1, max: 10 });
    expect(parse(ranged, "1")).toBe(1);
    expect(parse(ranged, "10")).toBe(10);
    expect(refusal(() => parse(ranged, "0"))).toEqual(bad("x", "x is too small"));
    expect(refusal(() => parse(ranged, "11"))).toEqual(bad("x", "x is too large"));
    expect(parse(P.int({ min: 0 }), "0")).toBe(0);
    expect(parse(P.int({ max: 0 }), "0")).toBe(0);
  });
});

describe("P.bool", () => {
  it("takes true/false in any case and with spaces; refuses anything else", () => {
    expect(parse(P.bool(), "true")).toBe(true);
    expect(parse(P.bool(), " FALSE ")).toBe(false);
    expect(parse(P.bool(), "True")).toBe(true);
    expect(parse(P.bool(), true)).toBe(true);
    expect(parse(P.bool(), false)).toBe(false);
    expect(refusal(() => parse(P.bool(), "yes"))).toEqual(bad("x", "x is not a boolean"));
    expect(refusal(() => parse(P.bool(), "1"))).toEqual(bad("x", "x is not a boolean"));
  });
});

describe("P.enum", () => {
  it("takes exactly one of the listed values", () => {
    const color = P.enum(["red", "green"] as const);
    expect(parse(color, "red")).toBe("red");
    expect(parse(color, "green")).toBe("green");
    expect(refusal(() => parse(color, "Red"))).toEqual(bad("x", "Invalid x"));
    expect(refusal(() => parse(color, "blue"))).toEqual(bad("x", "Invalid x"));
  });
});

describe("P.json", () => {
  const ids = P.json<number[]>({ type: "array", items: { type: "integer" } }, "a list of integers");

  it("parses JSON text and validates it against the schema", () => {
    expect(parse(ids, "[1, 2, 3]")).toEqual([1, 2, 3]);
    expect(parse(ids, "[]")).toEqual([]);
    expect(refusal(() => parse(ids, '["a"]'))).toEqual(bad("x", "x is not a list of integers"));
    expect(refusal(() => parse(ids, "{}"))).toEqual(bad("x", "x is not a list of integers"));
  });

  it("answers text that is not JSON with the reference's message", () => {
    expect(refusal(() => parse(ids, "[1,"))).toEqual(bad("x", 'Argument "x" is not valid JSON.'));
    expect(refusal(() => parse(ids, "nope"))).toEqual(bad("x", 'Argument "x" is not valid JSON.'));
  });

  it("lets the nesting limit through as its own error", () => {
    const deep = "[".repeat(101) + "]".repeat(101);
    expect(() => parse(P.json({}, "anything"), deep)).toThrow(JsonTooDeepError);
  });

  it("compiles each distinct schema once, however often a handler declares it", () => {
    // A handler declares its parameters per request: a new schema object every time.
    const declare = () => P.json<string[]>({ type: "array", items: { type: "string", minLength: 3 } }, "names");
    const before = compiledJsonSchemas();
    for (let i = 0; i < 50; i++) expect(parse(declare(), '["abc"]')).toEqual(["abc"]);
    expect(refusal(() => parse(declare(), '["ab"]'))).toEqual(bad("x", "x is not names"));
    expect(compiledJsonSchemas()).toBe(before + 1);
  });
});

describe("P.jsonInt", () => {
  it("takes a plain integer, a JSON-encoded one and a JSON string of one", () => {
    expect(parse(P.jsonInt(), "7")).toBe(7);
    expect(parse(P.jsonInt(), "-7")).toBe(-7);
    expect(parse(P.jsonInt(), '"7"')).toBe(7);
    expect(parse(P.jsonInt(), " 8")).toBe(8);
    expect(parse(P.jsonInt(), 9)).toBe(9);
  });

  it("refuses plain words, JSON that is not an integer and broken JSON alike", () => {
    const notInt = bad("x", "x is not an integer");
    expect(refusal(() => parse(P.jsonInt(), "general"))).toEqual(notInt);
    expect(refusal(() => parse(P.jsonInt(), "[7]"))).toEqual(notInt);
    expect(refusal(() => parse(P.jsonInt(), "1.5"))).toEqual(notInt);
    expect(refusal(() => parse(P.jsonInt(), "true"))).toEqual(notInt);
    expect(refusal(() => parse(P.jsonInt(), '{"a"'))).toEqual(notInt);
    expect(refusal(() => parse(P.jsonInt(), '"x"'))).toEqual(notInt);
  });

  it("lets the nesting limit through as its own error", () => {
    expect(() => parse(P.jsonInt(), "[".repeat(101) + "]".repeat(101))).toThrow(JsonTooDeepError);
  });
});

describe("P.custom and Param.check", () => {
  it("uses the custom parser as given", () => {
    expect(
      parse(
        P.custom((raw, name) => `${name}=${String(raw)}`),
        "v",
        "key",
      ),
    ).toBe("key=v");
  });

  it("runs the check after parsing and refuses with its message", () => {
    const even = P.int().check((n, name) => (n % 2 === 0 ? undefined : `${name} must be even`));
    expect(parse(even, "4")).toBe(4);
    expect(refusal(() => parse(even, "3"))).toEqual(bad("x", "x must be even"));
  });

  it("does not run the check when the parser gives nothing", () => {
    let called = 0;
    const checked = P.custom(() => undefined).check(() => {
      called++;
      return "never";
    });
    expect(parse(checked, "anything")).toBeUndefined();
    expect(called).toBe(0);
  });

  it("keeps required, default and aliases through check", () => {
    const param = P.string()
      .alias("old")
      .required()
      .check(() => undefined);
    expect([param.isRequired, param.defaultValue, param.aliases]).toEqual([true, undefined, ["old"]]);
    const withDefault = P.int()
      .default(5)
      .check(() => undefined);
    expect([withDefault.isRequired, withDefault.defaultValue]).toEqual([false, 5]);
  });
});

describe("Param builders", () => {
  it("required() drops a default and default() drops required", () => {
    const p = P.int().default(3).required();
    expect([p.isRequired, p.defaultValue]).toEqual([true, undefined]);
    const q = P.int().required().default(4);
    expect([q.isRequired, q.defaultValue]).toEqual([false, 4]);
  });

  it("alias() adds names and keeps the rest", () => {
    const p = P.string().default("d").alias("a").alias("b");
    expect([p.aliases, p.defaultValue, p.isRequired]).toEqual([["a", "b"], "d", false]);
    const r = P.string().required().alias("c");
    expect([r.aliases, r.isRequired]).toEqual([["c"], true]);
  });
});

describe("parseParamsFrom", () => {
  const spec = {
    topic: P.string().alias("subject"),
    count: P.int().default(10),
    to: P.string().required(),
  };

  it("parses given values, fills defaults and lists undeclared parameters", () => {
    const state: { rawParams?: Record<string, unknown>; ignoredParams?: string[] } = {
      rawParams: { to: "general", count: "3", extra: "1", other: "2" },
    };
    expect(parseParamsFrom(state, spec)).toEqual({ topic: undefined, count: 3, to: "general" });
    expect(state.ignoredParams).toEqual(["extra", "other"]);
  });

  it("uses the default when the parameter is absent", () => {
    const state = { rawParams: { to: "general" } as Record<string, unknown>, ignoredParams: ["stale"] };
    expect(parseParamsFrom(state, spec)).toEqual({ topic: undefined, count: 10, to: "general" });
    expect(state.ignoredParams).toEqual([]);
  });

  it("accepts a value under its alias and does not list the alias as ignored", () => {
    const state: { rawParams?: Record<string, unknown>; ignoredParams?: string[] } = {
      rawParams: { to: "general", subject: "hello" },
    };
    expect(parseParamsFrom(state, spec)).toEqual({ topic: "hello", count: 10, to: "general" });
    expect(state.ignoredParams).toEqual([]);
  });

  it("refuses a value given under both its name and its alias", () => {
    const state = { rawParams: { to: "general", topic: "a", subject: "b" } };
    expect(refusal(() => parseParamsFrom(state, spec))).toEqual({
      code: "REQUEST_CONFUSING_VAR",
      msg: "Can't decide between 'topic' and 'subject' arguments",
      extra: {},
    });
  });

  it("names a missing required parameter", () => {
    expect(refusal(() => parseParamsFrom({ rawParams: { count: "1" } }, spec))).toEqual({
      code: "REQUEST_VARIABLE_MISSING",
      msg: "Missing 'to' argument",
      extra: { var_name: "to" },
    });
  });

  it("treats an explicitly undefined value as absent", () => {
    expect(parseParamsFrom({ rawParams: { to: "g", count: undefined } }, spec)).toEqual({
      topic: undefined,
      count: 10,
      to: "g",
    });
  });

  it("does not list extra known names as ignored, and works without raw parameters", () => {
    const state: { rawParams?: Record<string, unknown>; ignoredParams?: string[] } = {
      rawParams: { to: "g", client_gravatar: "true", junk: "1" },
    };
    parseParamsFrom(state, spec, ["client_gravatar"]);
    expect(state.ignoredParams).toEqual(["junk"]);
    const empty: { rawParams?: Record<string, unknown>; ignoredParams?: string[] } = {};
    expect(parseParamsFrom(empty, { n: P.int().default(1) })).toEqual({ n: 1 });
    expect(empty.ignoredParams).toEqual([]);
  });

  it("reports a bad value under the declared name even when given under an alias", () => {
    const state = { rawParams: { to: "g", subject: ["a", "b"] } };
    expect(refusal(() => parseParamsFrom(state, spec))).toEqual(bad("topic", "topic was given more than once"));
  });
});
