// Which event a delivery is, which manifest entry handles it, and the URL filters only_events /
// exclude_events / branches: pure functions, tested without a server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  eventValueString,
  findEvent,
  isBranchFilteredOut,
  isFilteredOut,
  parsePatternList,
  resolveEvent,
  type ResolvedEvent,
} from "../../src/webhooks/events";
import { MAX_PATTERN_LENGTH, MAX_PATTERNS } from "../../src/webhooks/glob";
import { loadIntegrationFolder } from "../../src/webhooks/loader";
import type { Integration } from "../../src/webhooks/registry";
import { refusalOf } from "../support/apiErrors";

/** The error a call throws, for asserting on its code, message and extra fields together. */
function thrown(fn: () => unknown): { code: string; status: number; message: string; extra: unknown } {
  const err = refusalOf(fn);
  return { code: err.code, status: err.status, message: err.message, extra: err.extra };
}

describe("eventValueString", () => {
  it.each([
    [null, "null"],
    [true, "true"],
    [false, "false"],
    [0, "0"],
    [42, "42"],
    [1.5, "1.5"],
    ["push", "push"],
    ["", undefined],
    [undefined, undefined],
    [{ a: 1 }, undefined],
    [["x"], undefined],
  ])("%j → %j", (value, expected) => expect(eventValueString(value)).toBe(expected));
});

describe("resolveEvent from a header", () => {
  const source = { header: "X-GitHub-Event", actionField: "action" };

  it("reads the header by its lower-cased name, trimmed, and joins the action with a dot", () => {
    expect(resolveEvent(source, { "x-github-event": "  pull_request  " }, { action: "opened" }, "GitHub")).toEqual({
      event: "pull_request",
      action: "opened",
      eventType: "pull_request.opened",
    });
  });

  it("without an action the event type is the event alone", () => {
    expect(resolveEvent(source, { "x-github-event": "push" }, { ref: "refs/heads/main" }, "GitHub")).toEqual({
      event: "push",
      action: undefined,
      eventType: "push",
    });
    expect(resolveEvent(source, { "x-github-event": "push" }, { action: "" }, "GitHub")).toEqual({
      event: "push",
      action: undefined,
      eventType: "push",
    });
  });

  it("a numeric action counts, in decimal; an object action does not", () => {
    expect(resolveEvent(source, { "x-github-event": "build" }, { action: 3 }, "CI")).toEqual({
      event: "build",
      action: "3",
      eventType: "build.3",
    });
    expect(resolveEvent(source, { "x-github-event": "build" }, { action: { a: 1 } }, "CI")).toEqual({
      event: "build",
      action: undefined,
      eventType: "build",
    });
  });

  it("a missing or blank header is a MISSING_HTTP_EVENT_HEADER error naming the header", () => {
    const expected = {
      code: "MISSING_HTTP_EVENT_HEADER",
      status: 400,
      message: "Missing the HTTP event header 'X-GitHub-Event'",
      extra: { header: "X-GitHub-Event" },
    };
    expect(thrown(() => resolveEvent(source, {}, {}, "GitHub"))).toEqual(expected);
    expect(thrown(() => resolveEvent(source, { "x-github-event": "   " }, {}, "GitHub"))).toEqual(expected);
  });

  it("an absent header is not looked up in `map`, even under the key 'undefined'", () => {
    expect(thrown(() => resolveEvent({ header: "X-Kind", map: { undefined: "oops" } }, {}, {}, "S"))).toEqual({
      code: "MISSING_HTTP_EVENT_HEADER",
      status: 400,
      message: "Missing the HTTP event header 'X-Kind'",
      extra: { header: "X-Kind" },
    });
  });

  it("a blank header falls back to the default", () => {
    expect(resolveEvent({ header: "X-Event-Key", default: "*" }, { "x-event-key": " " }, {}, "Bitbucket")).toEqual({
      event: "*",
      action: undefined,
      eventType: "*",
    });
  });

  it("maps header values through `map`, keeping unmapped ones (and inherited object keys) as sent", () => {
    const mapped = { header: "X-Kind", map: { "1": "created", push: "pushed" } };
    expect(resolveEvent(mapped, { "x-kind": "1" }, {}, "S").event).toBe("created");
    expect(resolveEvent(mapped, { "x-kind": "push" }, {}, "S").event).toBe("pushed");
    expect(resolveEvent(mapped, { "x-kind": "other" }, {}, "S").event).toBe("other");
    expect(resolveEvent(mapped, { "x-kind": "toString" }, {}, "S").event).toBe("toString");
    expect(resolveEvent({ ...mapped, default: "none" }, {}, {}, "S").event).toBe("none");
  });
});

describe("resolveEvent from a payload field", () => {
  it("reads a dotted path or a JSON pointer", () => {
    expect(resolveEvent({ field: "meta.kind" }, {}, { meta: { kind: "alert" } }, "S")).toEqual({
      event: "alert",
      action: undefined,
      eventType: "alert",
    });
    expect(
      resolveEvent(
        { field: "/alerts/0/status", actionField: "/alerts/0/level" },
        {},
        {
          alerts: [{ status: "firing", level: "high" }],
        },
        "S",
      ),
    ).toEqual({ event: "firing", action: "high", eventType: "firing.high" });
  });

  it("numbers name events in decimal; booleans and null only through a map", () => {
    expect(resolveEvent({ field: "code" }, {}, { code: 7 }, "S").event).toBe("7");
    expect(resolveEvent({ field: "ok", default: "d" }, {}, { ok: true }, "S").event).toBe("d");
    const map = { true: "passed", false: "failed", null: "unknown", "7": "seven" };
    expect(resolveEvent({ field: "ok", map }, {}, { ok: true }, "S").event).toBe("passed");
    expect(resolveEvent({ field: "ok", map }, {}, { ok: false }, "S").event).toBe("failed");
    expect(resolveEvent({ field: "ok", map }, {}, { ok: null }, "S").event).toBe("unknown");
    expect(resolveEvent({ field: "ok", map }, {}, { ok: 7 }, "S").event).toBe("seven");
    expect(resolveEvent({ field: "ok", map }, {}, { ok: "kept" }, "S").event).toBe("kept");
  });

  it("a missing, blank or object field falls back to the default", () => {
    const source = { field: "kind", default: "other" };
    expect(resolveEvent(source, {}, {}, "S").event).toBe("other");
    expect(resolveEvent(source, {}, { kind: "" }, "S").event).toBe("other");
    expect(resolveEvent(source, {}, { kind: { a: 1 } }, "S").event).toBe("other");
    expect(resolveEvent({ ...source, map: { x: "y" } }, {}, { kind: {} }, "S").event).toBe("other");
  });

  it("without a default, a missing field is an INVALID_PAYLOAD error naming its JSON pointer", () => {
    expect(thrown(() => resolveEvent({ field: "meta.kind" }, {}, { meta: {} }, "Probe"))).toEqual({
      code: "INVALID_PAYLOAD",
      status: 400,
      message: "Invalid Probe payload: /meta/kind is missing (it names the event)",
      extra: { pointers: ["/meta/kind"] },
    });
    expect(thrown(() => resolveEvent({ field: "ok", map: { a: "b" } }, {}, { ok: [] }, "Probe"))).toEqual({
      code: "INVALID_PAYLOAD",
      status: 400,
      message: "Invalid Probe payload: /ok is missing (it names the event)",
      extra: { pointers: ["/ok"] },
    });
  });
});

describe("resolveEvent with a fixed event", () => {
  it("names the fixed event, with the payload's action", () => {
    expect(resolveEvent({ fixed: "alert" }, { "x-any": "x" }, {}, "S")).toEqual({
      event: "alert",
      action: undefined,
      eventType: "alert",
    });
    expect(resolveEvent({ fixed: "alert", actionField: "state" }, {}, { state: "ok" }, "S")).toEqual({
      event: "alert",
      action: "ok",
      eventType: "alert.ok",
    });
  });
});

describe("findEvent", () => {
  let tmp: string;
  let integration: Integration;

  /** A real plugin folder whose events are all `ignore` (no templates needed). */
  function load(keys: string[]): Integration {
    const dir = path.join(fs.mkdtempSync(path.join(tmp, "plugin-")), "probe");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "integration.json"),
      JSON.stringify({
        name: "probe",
        displayName: "Probe",
        description: "Event lookup.",
        categories: ["monitoring"],
        eventSource: { field: "kind", actionField: "action" },
        defaultTopic: "probe",
        events: Object.fromEntries(keys.map((k) => [k, { ignore: true }])),
      }),
    );
    fs.writeFileSync(path.join(dir, "schema.json"), JSON.stringify({ type: "object" }));
    fs.writeFileSync(path.join(dir, "doc.md"), "# Probe\n");
    return loadIntegrationFolder(dir);
  }

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-events-"));
    integration = load(["pull_request", "pull_request.opened", "charge", "charge.dispute", "push"]);
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const resolved = (event: string, action?: string): ResolvedEvent => ({
    event,
    action,
    eventType: action ? `${event}.${action}` : event,
  });
  const keyOf = (i: Integration, r: ResolvedEvent) => findEvent(i, r)?.key;

  it("prefers the event.action entry, then the event's own", () => {
    expect(keyOf(integration, resolved("pull_request", "opened"))).toBe("pull_request.opened");
    expect(keyOf(integration, resolved("pull_request", "closed"))).toBe("pull_request");
    expect(keyOf(integration, resolved("pull_request"))).toBe("pull_request");
  });

  it("walks up a dotted event name's families, longest first", () => {
    expect(keyOf(integration, resolved("charge.dispute.created"))).toBe("charge.dispute");
    expect(keyOf(integration, resolved("charge.refunded"))).toBe("charge");
    expect(keyOf(integration, resolved("charge.dispute.funds.withdrawn", "x"))).toBe("charge.dispute");
  });

  it("falls back to the catch-all `*`, else finds nothing", () => {
    expect(keyOf(integration, resolved("issues", "opened"))).toBeUndefined();
    expect(keyOf(integration, resolved("pull"))).toBeUndefined();
    const withCatchAll = load(["push", "*"]);
    expect(keyOf(withCatchAll, resolved("issues", "opened"))).toBe("*");
    expect(keyOf(withCatchAll, resolved("push", "x"))).toBe("push");
  });
});

describe("parsePatternList", () => {
  it("is undefined when the parameter is absent", () => {
    expect(parsePatternList("branches", undefined)).toBeUndefined();
  });

  it("splits on commas outside braces (nested ones too), trimming and dropping blank entries", () => {
    expect(parsePatternList("branches", "  main , dev ,, ")).toEqual(["main", "dev"]);
    expect(parsePatternList("branches", "{a,{b,c}},d")).toEqual(["{a,{b,c}}", "d"]);
    expect(parsePatternList("branches", "x{a,b}y,z")).toEqual(["x{a,b}y", "z"]);
    expect(parsePatternList("branches", "")).toEqual([]);
    expect(parsePatternList("branches", " , ")).toEqual([]);
  });

  it("a closing brace with none open is literal and does not hide the next comma", () => {
    expect(parsePatternList("branches", "a},b")).toEqual(["a}", "b"]);
    expect(parsePatternList("branches", "a}},{b,c}")).toEqual(["a}}", "{b,c}"]);
  });

  it("reads a JSON list of strings (commas inside are part of the pattern)", () => {
    expect(parsePatternList("only_events", ' ["push", " a,b ", ""] ')).toEqual(["push", "a,b"]);
    expect(parsePatternList("only_events", "[]")).toEqual([]);
  });

  it("refuses JSON that does not parse, or that is not a list of strings", () => {
    expect(thrown(() => parsePatternList("only_events", "[push"))).toEqual({
      code: "BAD_REQUEST",
      status: 400,
      message: 'Argument "only_events" is not valid JSON.',
      extra: { var_name: "only_events" },
    });
    expect(thrown(() => parsePatternList("exclude_events", '["push", 1]'))).toEqual({
      code: "BAD_REQUEST",
      status: 400,
      message: "exclude_events must be a list of strings",
      extra: { var_name: "exclude_events" },
    });
  });

  it(`accepts ${MAX_PATTERNS} patterns (blank entries not counted) and refuses one more`, () => {
    const fifty = Array.from({ length: MAX_PATTERNS }, (_, i) => `p${i}`);
    expect(parsePatternList("branches", `${fifty.join(",")},, ,`)).toEqual(fifty);
    expect(thrown(() => parsePatternList("branches", [...fifty, "one-more"].join(",")))).toEqual({
      code: "BAD_REQUEST",
      status: 400,
      message: `branches lists too many patterns: the limit is ${MAX_PATTERNS}`,
      extra: { var_name: "branches" },
    });
  });

  it(`measures pattern length in characters (code points): ${MAX_PATTERN_LENGTH} pass, one more is refused`, () => {
    const longest = "a".repeat(MAX_PATTERN_LENGTH);
    expect(parsePatternList("branches", longest)).toEqual([longest]);
    const emoji = "😀".repeat(MAX_PATTERN_LENGTH);
    expect(parsePatternList("branches", emoji)).toEqual([emoji]);
    expect(thrown(() => parsePatternList("exclude_events", `${"😀".repeat(MAX_PATTERN_LENGTH)}x`))).toEqual({
      code: "BAD_REQUEST",
      status: 400,
      message: `exclude_events has a pattern that is too long: the limit is ${MAX_PATTERN_LENGTH} characters`,
      extra: { var_name: "exclude_events" },
    });
  });

  it("refuses a pattern that is not a valid glob, naming the parameter and the pattern", () => {
    expect(thrown(() => parsePatternList("branches", "main,release/{1"))).toEqual({
      code: "BAD_REQUEST",
      status: 400,
      message: "branches: unbalanced '{' in pattern 'release/{1'",
      extra: { var_name: "branches" },
    });
  });
});

describe("isFilteredOut (only_events / exclude_events)", () => {
  const pr = { event: "pull_request", action: "opened", eventType: "pull_request.opened" };
  const push = { event: "push", eventType: "push" };
  const bitbucket = { event: "repo:push", eventType: "repo:push" };

  it("passes everything when neither filter is given", () => {
    expect(isFilteredOut(pr, undefined, undefined)).toBe(false);
  });

  it("only_events keeps an event matched by its name", () => {
    expect(isFilteredOut(pr, ["pull_request"], undefined)).toBe(false);
    expect(isFilteredOut(push, ["pull_request"], undefined)).toBe(true);
    expect(isFilteredOut(push, ["issues", "push"], undefined)).toBe(false);
  });

  it("only_events matches on event.action too", () => {
    expect(isFilteredOut(pr, ["pull_request.opened"], undefined)).toBe(false);
    expect(isFilteredOut(pr, ["pull_request.closed"], undefined)).toBe(true);
    expect(isFilteredOut(pr, ["pull_request.*"], undefined)).toBe(false);
    expect(isFilteredOut(pr, ["*.opened"], undefined)).toBe(false);
  });

  it("exclude_events drops an event matched by its name", () => {
    expect(isFilteredOut(pr, undefined, ["pull_request"])).toBe(true);
    expect(isFilteredOut(push, undefined, ["pull_request"])).toBe(false);
  });

  it("exclude_events matches on event.action too", () => {
    expect(isFilteredOut(pr, undefined, ["pull_request.opened"])).toBe(true);
    expect(isFilteredOut(pr, undefined, ["pull_request.closed"])).toBe(false);
    expect(isFilteredOut(pr, undefined, ["*.opened"])).toBe(true);
  });

  it("an empty only_events keeps nothing; an empty exclude_events drops nothing", () => {
    expect(isFilteredOut(push, [], undefined)).toBe(true);
    expect(isFilteredOut(push, undefined, [])).toBe(false);
  });

  it("exclude_events applies after only_events", () => {
    expect(isFilteredOut(pr, ["pull_request"], ["pull_request.opened"])).toBe(true);
    expect(isFilteredOut(pr, ["pull_request"], ["push"])).toBe(false);
  });

  it("reads ':' as '.' in both the event names and the patterns", () => {
    expect(isFilteredOut(pr, ["pull_request:opened"], undefined)).toBe(false);
    expect(isFilteredOut(pr, undefined, ["pull_request:opened"])).toBe(true);
    expect(isFilteredOut(bitbucket, ["repo.push"], undefined)).toBe(false);
    expect(isFilteredOut(bitbucket, ["repo:push"], undefined)).toBe(false);
    expect(isFilteredOut(bitbucket, undefined, ["repo.*"])).toBe(true);
    const twice = { event: "pullrequest:comment:created", eventType: "pullrequest:comment:created" };
    expect(isFilteredOut(twice, ["pullrequest.comment.created"], undefined)).toBe(false);
    expect(isFilteredOut(twice, ["pullrequest:comment:created"], undefined)).toBe(false);
  });
});

describe("isBranchFilteredOut", () => {
  it("passes everything without a branches filter, or an empty one, or without a string ref", () => {
    expect(isBranchFilteredOut("refs/heads/dev", undefined)).toBe(false);
    expect(isBranchFilteredOut("refs/heads/dev", [])).toBe(false);
    expect(isBranchFilteredOut(undefined, ["main"])).toBe(false);
    expect(isBranchFilteredOut(42, ["main"])).toBe(false);
  });

  it("drops a branch that is not listed, by full ref or bare name", () => {
    expect(isBranchFilteredOut("refs/heads/main", ["main"])).toBe(false);
    expect(isBranchFilteredOut("refs/heads/dev", ["main"])).toBe(true);
    expect(isBranchFilteredOut("main", ["main"])).toBe(false);
    expect(isBranchFilteredOut("dev", ["main"])).toBe(true);
    expect(isBranchFilteredOut("refs/heads/release/1.2", ["release/*"])).toBe(false);
  });

  it("passes tags and other non-branch refs", () => {
    expect(isBranchFilteredOut("refs/tags/v1", ["main"])).toBe(false);
    expect(isBranchFilteredOut("refs/remotes/origin/dev", ["main"])).toBe(false);
  });

  it("strips refs/heads/ only at the start of the ref", () => {
    expect(isBranchFilteredOut("feature/refs/heads/x", ["feature/refs/heads/x"])).toBe(false);
    expect(isBranchFilteredOut("refs/heads/refs/heads/x", ["refs/heads/x"])).toBe(false);
  });
});
