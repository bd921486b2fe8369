// Fixture folders (integrations/<name>/fixtures/<case>.json|.xml, <case>.expected.json, _defaults.json)
// read into ready-to-send requests, for plugins of each content type built in a temp directory.
import path from "node:path";
import {
  encodeBody,
  headerEventOfCase,
  isErrorCaseName,
  isIgnoreCaseName,
  isPayloadFile,
  loadFixtureCases,
  refusalToRecord,
  stringFields,
  unexercisedEvents,
} from "../../src/webhooks/fixtures";
import { loadIntegrationFolder } from "../../src/webhooks/loader";
import type { Integration } from "../../src/webhooks/registry";
import { goodPlugin, useTempDir, writeFiles, type Files } from "../support/pluginFolders";

const tmp = useTempDir("sb-fixture-cases-");
const FORM = "application/x-www-form-urlencoded";

/** A plugin (its manifest fields over a minimal one) loaded from the temp directory. */
function plugin(extra: Record<string, unknown> = {}, files: Files = {}, name = "demo"): Integration {
  const dir = path.join(tmp.dir(), "integrations", name);
  writeFiles(dir, goodPlugin(name, { "schema.json": '{"type":"object"}', ...files }, extra));
  return loadIntegrationFolder(dir);
}

/** A plugin's fixtures folder, as the loader names it. */
const fixturesOf = (name: string) => path.join(tmp.dir(), "integrations", name, "fixtures");
const writeFixtures = (name: string, files: Files) => writeFiles(fixturesOf(name), files);

describe("payload files and case names", () => {
  it("takes .json, .xml and raw .txt files as payloads, not expected files or _-prefixed ones", () => {
    expect(
      ["a.json", "b.xml", "dir/c.json", "a.expected.json", "_defaults.json", "dir/_x.xml", "a.txt", "a.json.bak"].map(
        isPayloadFile,
      ),
    ).toEqual([true, true, true, false, false, false, true, false]);
    expect(["_notes.txt", "a.txt.bak", "a.md"].map(isPayloadFile)).toEqual([false, false, false]);
  });

  it("reads error and ignore words between _, ., - and spaces, in any case", () => {
    expect(
      ["push-error", "push.invalid", "push unsupported", "PUSH__ERROR", "erroneous", "push_errors"].map(
        isErrorCaseName,
      ),
    ).toEqual([true, true, true, true, false, false]);
    expect(["a-ignore", "a.ignored", "a excluded", "A__FILTERED", "ignores", "filter"].map(isIgnoreCaseName)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it("explains a refused error result, naming the status, code, message and the words to use", () => {
    expect(refusalToRecord("push__tag", { error: { status: 400, code: "INVALID_PAYLOAD", msg: "bad /ref" } })).toBe(
      "push__tag: the server answered 400 INVALID_PAYLOAD (bad /ref), but the case is not named as an error case. " +
        "Fix the plugin, or, if the error is what this case tests, rename it with one of the words error, invalid, " +
        "unsupported (e.g. error__push__tag) or write its expected file by hand",
    );
    expect(refusalToRecord("x", { error: { status: 500, code: "INTERNAL" } })).toBe(
      "x: the server answered 500 INTERNAL (), but the case is not named as an error case. " +
        "Fix the plugin, or, if the error is what this case tests, rename it with one of the words error, invalid, " +
        "unsupported (e.g. error__x) or write its expected file by hand",
    );
  });

  it("explains a refused ignored result, naming the words to use", () => {
    expect(refusalToRecord("push__tag", { ignored: true })).toBe(
      "push__tag: the delivery was ignored (no message), but the case is not named as an ignore case. Fix the " +
        "plugin, or, if ignoring is what this case tests, rename it with one of the words ignore, ignored, excluded, " +
        "filtered (e.g. ignore__push__tag) or write its expected file by hand",
    );
  });

  it("records errors, ignored results and messages for cases named for them", () => {
    expect(refusalToRecord("error__x", { error: { status: 400, code: "C" } })).toBeUndefined();
    expect(refusalToRecord("x__filtered", { ignored: true })).toBeUndefined();
    expect(refusalToRecord("error__x", { ignored: true })).toBe(
      "error__x: the delivery was ignored (no message), but the case is not named as an ignore case. Fix the " +
        "plugin, or, if ignoring is what this case tests, rename it with one of the words ignore, ignored, excluded, " +
        "filtered (e.g. ignore__error__x) or write its expected file by hand",
    );
    expect(refusalToRecord("push", { topic: "t", content: "c", ignored: false })).toBeUndefined();
  });

  it("sends a header case as its first part, skipping one leading error or ignore marker", () => {
    expect(
      ["push__tag", "ignore__push__tag", "error__push", "push", "error", "push__error__x", "a_b__c"].map(
        headerEventOfCase,
      ),
    ).toEqual(["push", "push", "push", "push", "error", "push", "a_b"]);
  });
});

describe("stringFields and encodeBody", () => {
  it("turns payload fields into strings, JSON for anything not a string", () => {
    expect(stringFields({ a: "x", n: 3, b: true, o: { k: [1] }, z: null })).toEqual({
      a: "x",
      n: "3",
      b: "true",
      o: '{"k":[1]}',
      z: "null",
    });
    expect(stringFields(null)).toEqual({});
    expect(stringFields(undefined)).toEqual({});
  });

  const body = (integration: Integration, text: string, type?: string) => {
    const encoded = encodeBody(integration, text, type);
    return { contentType: encoded.contentType, body: encoded.body.toString() };
  };

  it("sends JSON, XML and query plugins' payloads as written, as application/json", () => {
    for (const contentType of [undefined, "json", "xml", "query"])
      expect(body(plugin(contentType ? { contentType } : {}), '{"a": 1}')).toEqual({
        contentType: "application/json",
        body: '{"a": 1}',
      });
  });

  it("form-encodes the fields of a form plugin's payload", () => {
    expect(body(plugin({ contentType: "form" }), '{"a": "x y", "n": 2}')).toEqual({
      contentType: FORM,
      body: "a=x+y&n=2",
    });
  });

  it("sends a form-json plugin's payload in its form field, `payload` by default", () => {
    expect(body(plugin({ contentType: "form-json" }), '{"a":1}')).toEqual({
      contentType: FORM,
      body: "payload=%7B%22a%22%3A1%7D",
    });
    expect(body(plugin({ contentType: "form-json", formField: "data" }), "[]")).toEqual({
      contentType: FORM,
      body: "data=%5B%5D",
    });
  });

  it("follows a case's content type: raw unless it is form-encoded for a form plugin", () => {
    expect(body(plugin({ contentType: "form" }), '{"a":1}', "application/json")).toEqual({
      contentType: "application/json",
      body: '{"a":1}',
    });
    expect(body(plugin({ contentType: "form" }), '{"a":1}', `${FORM}; charset=utf-8`)).toEqual({
      contentType: `${FORM}; charset=utf-8`,
      body: "a=1",
    });
    expect(body(plugin(), '{"a":1}', FORM)).toEqual({ contentType: FORM, body: '{"a":1}' });
    expect(body(plugin({ contentType: "query" }), '{"a":1}', FORM)).toEqual({ contentType: FORM, body: "a=1" });
  });
});

describe("loadFixtureCases", () => {
  it("has no cases for a plugin without a fixture folder", () => {
    expect(loadFixtureCases(plugin())).toEqual([]);
  });

  it("reads each payload file in name order with its expected file, skipping other files", () => {
    const integration = plugin();
    writeFixtures("demo", {
      "b.json": '{"title":"B"}',
      "a.json": '{"title":"A"}',
      "a.expected.json": '{"topic":"t","content":"c"}',
      "notes.md": "x",
      "_defaults.json": "{}",
    });
    const dir = fixturesOf("demo");
    expect(loadFixtureCases(integration)).toEqual([
      {
        name: "a",
        payloadPath: path.join(dir, "a.json"),
        expectedPath: path.join(dir, "a.expected.json"),
        expected: { topic: "t", content: "c" },
        headers: {},
        query: {},
        contentType: "application/json",
        body: Buffer.from('{"title":"A"}'),
        payload: { title: "A" },
      },
      {
        name: "b",
        payloadPath: path.join(dir, "b.json"),
        expectedPath: path.join(dir, "b.expected.json"),
        expected: undefined,
        headers: {},
        query: {},
        contentType: "application/json",
        body: Buffer.from('{"title":"B"}'),
        payload: { title: "B" },
      },
    ]);
  });

  it("sends a .txt case's bytes as they are, as text/plain unless its expected file names the type", () => {
    const integration = plugin();
    const multipart = '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n--b--\r\n';
    writeFixtures("demo", {
      "plain.txt": "not { json",
      "form.txt": multipart,
      "form.expected.json": '{"contentType":"multipart/form-data; boundary=b"}',
    });
    const [form, plain] = loadFixtureCases(integration);
    expect([form.name, form.contentType, form.body.toString(), form.payload]).toEqual([
      "form",
      "multipart/form-data; boundary=b",
      multipart,
      null,
    ]);
    expect([plain.name, plain.contentType, plain.body.toString(), plain.payload]).toEqual([
      "plain",
      "text/plain",
      "not { json",
      null,
    ]);
  });

  it("lists cases in name order, whatever order the folder lists them in", () => {
    const names = ["m", "c", "zz", "a", "q", "b", "y", "d"];
    writeFixtures("demo", Object.fromEntries(names.map((n) => [`${n}.json`, "{}"])));
    expect(loadFixtureCases(plugin()).map((c) => c.name)).toEqual([...names].sort());
  });

  it("names a case by its file name without the final .json or .xml only", () => {
    const integration = plugin();
    writeFixtures("demo", { "v1.json_body.json": "{}", "v2.xml_body.xml": "<a/>" });
    expect(loadFixtureCases(integration).map((c) => [c.name, path.basename(c.expectedPath)])).toEqual([
      ["v1.json_body", "v1.json_body.expected.json"],
      ["v2.xml_body", "v2.xml_body.expected.json"],
    ]);
  });

  it("layers headers: _defaults.json, then the event header for header plugins, then the case's own", () => {
    const integration = plugin(
      { eventSource: { header: "X-Event" }, events: { push: {}, hello: {} } },
      { "templates/push.hbs": "p" },
    );
    writeFixtures("demo", {
      "_defaults.json": JSON.stringify({ headers: { "X-Token": "t", "X-Event": "default" } }),
      "ignore__push__tag.json": "{}",
      "hello.json": "{}",
      "hello.expected.json": JSON.stringify({ headers: { "X-Event": "custom", "X-Extra": "1" } }),
    });
    expect(loadFixtureCases(integration).map((c) => [c.name, c.headers])).toEqual([
      ["hello", { "X-Token": "t", "X-Event": "custom", "X-Extra": "1" }],
      ["ignore__push__tag", { "X-Token": "t", "X-Event": "push" }],
    ]);
  });

  it("layers query parameters and content type: _defaults.json, then the case's own", () => {
    const integration = plugin({ contentType: "form" });
    writeFixtures("demo", {
      "_defaults.json": JSON.stringify({ query: { a: "1", b: "1" }, contentType: "application/json" }),
      "one.json": '{"x":1}',
      "one.expected.json": JSON.stringify({ query: { b: "2" } }),
      "two.json": '{"x":2}',
      "two.expected.json": JSON.stringify({ contentType: FORM }),
    });
    expect(loadFixtureCases(integration).map((c) => [c.name, c.query, c.contentType, c.body.toString()])).toEqual([
      ["one", { a: "1", b: "2" }, "application/json", '{"x":1}'],
      ["two", { a: "1", b: "1" }, FORM, "x=2"],
    ]);
  });

  it("sends a query plugin's payload fields as the URL query with an empty body", () => {
    const integration = plugin({ contentType: "query" });
    writeFixtures("demo", {
      "_defaults.json": JSON.stringify({ query: { project: "p", event: "default" } }),
      "a.json": '{"event":"x","n":3}',
      "b.json": '{"event":"y"}',
      "b.expected.json": JSON.stringify({ query: { n: "9" }, contentType: "text/plain" }),
    });
    expect(loadFixtureCases(integration).map((c) => [c.query, c.contentType, c.body.length, c.payload])).toEqual([
      [{ event: "default", n: "3", project: "p" }, "application/json", 0, { event: "x", n: 3 }],
      [{ event: "default", project: "p", n: "9" }, "text/plain", 0, { event: "y" }],
    ]);
  });

  it("sends XML cases as written, as application/xml unless the case says otherwise, with the parsed payload", () => {
    const integration = plugin({ contentType: "xml" });
    writeFixtures("demo", {
      "a.xml": "<note><id>0042</id></note>",
      "b.xml": "<note>",
      "b.expected.json": JSON.stringify({ contentType: "text/xml" }),
    });
    expect(
      loadFixtureCases(integration).map((c) => [c.name, c.contentType, c.body.toString(), c.payload, c.query]),
    ).toEqual([
      ["a", "application/xml", "<note><id>0042</id></note>", { note: { id: "0042" } }, {}],
      ["b", "text/xml", "<note>", null, {}],
    ]);
  });

  it("treats an XML case of a query plugin as XML, not as query fields", () => {
    const integration = plugin({ contentType: "query" });
    writeFixtures("demo", { "a.xml": "<a><b>1</b></a>" });
    expect(loadFixtureCases(integration).map((c) => [c.query, c.contentType, c.body.toString()])).toEqual([
      [{}, "application/xml", "<a><b>1</b></a>"],
    ]);
  });
});

describe("the fixtures folder and unexercisedEvents", () => {
  it("reads the plugin's own fixtures folder, which the loader puts on the Integration", () => {
    const integration = plugin();
    expect(integration.fixturesDir).toBe(fixturesOf("demo"));
    writeFixtures("demo", { "a.json": "{}" });
    expect(loadFixtureCases({ ...integration, fixturesDir: path.join(tmp.dir(), "elsewhere") })).toEqual([]);
    expect(loadFixtureCases(integration).map((c) => c.payloadPath)).toEqual([path.join(fixturesOf("demo"), "a.json")]);
  });

  it("lists the events no case reaches, reading the event header case-insensitively", () => {
    const integration = plugin(
      {
        eventSource: { header: "X-Event", actionField: "action" },
        events: { push: {}, "issue.opened": {}, issue: {}, hello: {} },
      },
      { "templates/push.hbs": "p", "templates/issue.hbs": "i" },
    );
    writeFixtures("demo", {
      "push.json": "{}",
      "issue__open.json": '{"action":"opened"}',
      "missing_header.json": "{}",
      "missing_header.expected.json": JSON.stringify({ headers: { "X-Event": "" } }),
    });
    const cases = loadFixtureCases(integration);
    expect(unexercisedEvents(integration, cases)).toEqual(["issue", "hello"]);
    expect(unexercisedEvents(integration, [])).toEqual(["push", "issue.opened", "issue", "hello"]);
  });

  it("reads a bare-array case's event from the field the array is wrapped into (wrapArray)", () => {
    const integration = plugin(
      { wrapArray: "events", eventSource: { field: "events.0.kind" }, events: { sent: {}, hello: {} } },
      { "templates/sent.hbs": "s" },
    );
    writeFixtures("demo", { "sent.json": '[{"kind":"sent"}]' });
    expect(unexercisedEvents(integration, loadFixtureCases(integration))).toEqual(["hello"]);
  });

  it("finds events named by a payload field, and skips a case missing that field", () => {
    const integration = plugin(
      { eventSource: { field: "kind" }, events: { a: {}, b: {}, hello: {} } },
      {
        "templates/a.hbs": "a",
        "templates/b.hbs": "b",
      },
    );
    writeFixtures("demo", { "a.json": '{"kind":"a"}', "none.json": "{}", "other.json": '{"kind":"zzz"}' });
    expect(unexercisedEvents(integration, loadFixtureCases(integration))).toEqual(["b", "hello"]);
  });
});
