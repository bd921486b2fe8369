// The pure webhook pipeline (src/webhooks/pipeline.ts) called directly on plugins written to a temp
// folder and loaded by the real loader: each step's outcome and each refusal, exactly. No server.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compileTemplate } from "../../src/webhooks/helpers";
import { loadIntegrationFolder } from "../../src/webhooks/loader";
import { runPipeline, urlOptionValues, type Outcome, type WebhookRequest } from "../../src/webhooks/pipeline";
import type { Integration } from "../../src/webhooks/registry";
import { refusalOf } from "../support/apiErrors";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "sb-pipeline-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function writePlugin(
  name: string,
  manifest: Record<string, unknown>,
  schema: Record<string, unknown>,
  templates: Record<string, string>,
  extraFiles: Record<string, string> = {},
): Integration {
  const dir = path.join(root, "integrations", name);
  fs.mkdirSync(path.join(dir, "templates"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "integration.json"),
    JSON.stringify({ name, description: `${name} for tests`, categories: ["misc"], ...manifest }),
  );
  fs.writeFileSync(path.join(dir, "schema.json"), JSON.stringify(schema));
  fs.writeFileSync(path.join(dir, "doc.md"), `# ${name}\n`);
  for (const [file, source] of Object.entries(templates)) fs.writeFileSync(path.join(dir, "templates", file), source);
  for (const [file, source] of Object.entries(extraFiles)) fs.writeFileSync(path.join(dir, file), source);
  return loadIntegrationFolder(dir);
}

const str = { type: "string" };
const gitSchema = {
  type: "object",
  required: ["repo"],
  properties: {
    repo: str,
    ref: str,
    who: str,
    action: str,
    commits: { type: "array", items: { type: "object", properties: { id: str, msg: str } } },
    issue: { type: "object", properties: { n: { type: "integer" }, secret: { type: "boolean" } } },
    tags: { type: "array", items: str },
    delivery: str,
  },
  $defs: { push: { type: "object", required: ["ref", "commits"] } },
};

const git = writePlugin(
  "git",
  {
    displayName: "Git Test",
    eventSource: { header: "X-Event", actionField: "action" },
    defaultTopic: "{{repo}}",
    branchPath: "ref",
    signature: { header: "X-Sig", algorithm: "sha256", prefix: "sha256=" },
    deliveryId: { header: "X-Delivery" },
    urlOptions: [
      { key: "branches", description: "branches" },
      { key: "style", description: "style", default: "short" },
      { key: "extra", description: "no default" },
    ],
    events: {
      push: {
        topic: "{{repo}} / {{branch ref}}",
        schema: "#/$defs/push",
        ignoreWhen: "{{#if (eq (length commits) 0)}}empty{{/if}} ",
      },
      "issue.opened": { template: "issue", branchPath: null, directWhen: "{{#if issue.secret}}yes{{/if}} " },
      "issue.closed": { template: "issue", branchPath: null, direct: true },
      issue: { ignore: true },
      tag: { template: "tag", each: "tags", branchPath: null },
      blank: { template: "blank", branchPath: null },
    },
  },
  gitSchema,
  {
    "push.hbs": "{{who}} pushed {{length commits}} to {{branch ref}} ({{@options.style}}/{{@options.extra}})\n\n\n",
    "issue.hbs":
      "\n\n{{who}} {{@action}} issue {{issue.n}} in {{@integration}} [{{@event}}|{{@eventType}}|{{@eventKey}}]",
    "tag.hbs": "tag {{item}}{{#if @topicOverridden}} (topic set){{/if}}",
    "blank.hbs": "   {{who}}   ",
  },
);

const feed = writePlugin(
  "feed",
  {
    displayName: "Feed Test",
    eventSource: { field: "kind" },
    defaultTopic: "feed",
    unknownEvents: "ignore",
    wrapArray: "entries",
    deliveryId: { field: "meta.id" },
    transform: "transform.js",
    transformOutputs: ["shout"],
    events: {
      entries: { template: "entries", each: "entries" },
      note: { template: "note" },
    },
  },
  {
    type: "object",
    properties: {
      kind: str,
      text: str,
      meta: { type: "object", properties: { id: {} } },
      entries: { type: ["array", "string"], items: { type: ["object", "string", "null"], properties: { t: str } } },
    },
  },
  { "entries.hbs": "entry {{t}} of {{@options.none}}", "note.hbs": "{{text}}\n\n{{shout}}" },
  {
    "transform.js":
      "exports.transform = (payload, ctx) => ({ shout: String(payload.text ?? '').toUpperCase() + '!' + ctx.event });\n",
  },
);

const catchAll = writePlugin(
  "catchall",
  {
    displayName: "Catch All",
    eventSource: { fixed: "thing", actionField: "state" },
    defaultTopic: "all",
    events: { "*": { template: "any" } },
  },
  { type: "object", properties: { state: str } },
  { "any.hbs": "state {{state}}" },
);

const strict = writePlugin(
  "strict",
  {
    displayName: "Strict Test",
    eventSource: { header: "X-Kind" },
    defaultTopic: "strict",
    events: { known: { template: "known" } },
  },
  {
    type: "object",
    required: ["a", "b", "c", "d"],
    properties: { a: str, b: str, c: str, d: str, n: { type: "integer" }, m: { type: "integer" } },
  },
  { "known.hbs": "{{a}}" },
);

const bare = writePlugin(
  "bare",
  {
    displayName: "Bare List",
    eventSource: { fixed: "check" },
    defaultTopic: "checks",
    wrapArray: "checks",
    events: { check: { template: "check", each: "checks" } },
  },
  {
    type: "object",
    minProperties: 1,
    properties: { checks: { type: "array", items: { type: "object", properties: { url: str } } } },
  },
  { "check.hbs": "down: {{url}}" },
);

const conditional = writePlugin(
  "conditional",
  {
    displayName: "Conditional",
    eventSource: { fixed: "thing" },
    defaultTopic: "c",
    events: { thing: { template: "thing" } },
  },
  {
    type: "object",
    properties: { kind: str, b: str },
    if: { properties: { kind: { const: "x" } }, required: ["kind"] },
    then: { required: ["b"] },
  },
  { "thing.hbs": "thing {{b}}" },
);

function request(body: unknown, extra: Partial<WebhookRequest> = {}): WebhookRequest {
  return {
    headers: { "content-type": "application/json", ...(extra.headers ?? {}) },
    query: extra.query ?? {},
    body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
    secret: extra.secret,
    overrides: extra.overrides,
  };
}

function refusal(fn: () => unknown): { code: string; msg: string; extra: Record<string, unknown> } {
  const err = refusalOf(fn);
  return { code: err.code, msg: err.message, extra: err.extra };
}

const pushBody = (ref = "refs/heads/main", commits = [{ id: "1", msg: "m" }]) => ({
  repo: "engine",
  ref,
  who: "ada",
  commits,
});
const sign = (body: Buffer | string, secret: string) =>
  "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex");

describe("runPipeline: rendering", () => {
  it("renders the event's template and topic, with options, trimming blank lines at the ends", () => {
    const outcome = runPipeline(git, request(pushBody(), { headers: { "x-event": "push" } }));
    expect(outcome).toEqual({
      kind: "messages",
      event: { event: "push", action: undefined, eventType: "push" },
      eventKey: "push",
      messages: [{ topic: "engine / main", content: "ada pushed 1 to main (short/)" }],
    });
  });

  it("passes the event data to templates and strips leading blank lines", () => {
    const outcome = runPipeline(
      git,
      request({ repo: "r", who: "bo", action: "opened", issue: { n: 4 } }, { headers: { "x-event": "issue" } }),
    );
    expect(outcome).toEqual({
      kind: "messages",
      event: { event: "issue", action: "opened", eventType: "issue.opened" },
      eventKey: "issue.opened",
      messages: [{ topic: "r", content: "bo opened issue 4 in Git Test [issue|issue.opened|issue.opened]" }],
    });
  });

  it("takes URL options from the query over their defaults", () => {
    const outcome = runPipeline(
      git,
      request(pushBody(), { headers: { "x-event": "push" }, query: { style: "long", extra: "x" } }),
    ) as Extract<Outcome, { kind: "messages" }>;
    expect(outcome.messages[0].content).toBe("ada pushed 1 to main (long/x)");
    expect(urlOptionValues(git, { extra: "e" })).toEqual({ branches: undefined, style: "short", extra: "e" });
    expect(Object.keys(urlOptionValues(feed, { extra: "e" }))).toEqual([]);
  });

  it("uses a non-blank topic parameter over the template, trimmed, and tells templates", () => {
    const body = { repo: "r", tags: ["v1", "v2"] };
    const outcome = runPipeline(git, request(body, { headers: { "x-event": "tag" }, query: { topic: "  mine " } }));
    expect(outcome).toMatchObject({
      kind: "messages",
      messages: [
        { topic: "mine", content: "tag v1 (topic set)" },
        { topic: "mine", content: "tag v2 (topic set)" },
      ],
    });
    const blankTopic = runPipeline(git, request(body, { headers: { "x-event": "tag" }, query: { topic: "   " } }));
    expect(blankTopic).toMatchObject({
      messages: [
        { topic: "r", content: "tag v1" },
        { topic: "r", content: "tag v2" },
      ],
    });
  });

  it("gives direct: true to `direct` events and to events whose directWhen renders text", () => {
    const closed = runPipeline(
      git,
      request({ repo: "r", who: "x", action: "closed", issue: { n: 1 } }, { headers: { "x-event": "issue" } }),
    );
    expect(closed).toMatchObject({ kind: "messages", messages: [{ direct: true }] });
    const secret = runPipeline(
      git,
      request(
        { repo: "r", who: "x", action: "opened", issue: { n: 1, secret: true } },
        { headers: { "x-event": "issue" } },
      ),
    );
    expect(secret).toMatchObject({ kind: "messages", messages: [{ direct: true }] });
    const open = runPipeline(
      git,
      request({ repo: "r", who: "x", action: "opened", issue: { n: 1 } }, { headers: { "x-event": "issue" } }),
    ) as Extract<Outcome, { kind: "messages" }>;
    expect(Object.keys(open.messages[0])).toEqual(["topic", "content"]);
  });

  it("applies an organization's template and topic overrides for the event", () => {
    const overrides = new Map([
      [
        "push",
        { template: compileTemplate("custom {{who}}"), topic: compileTemplate("T {{repo}}", { markdown: false }) },
      ],
    ]);
    expect(runPipeline(git, request(pushBody(), { headers: { "x-event": "push" }, overrides }))).toMatchObject({
      messages: [{ topic: "T engine", content: "custom ada" }],
    });
    const topicOnly = new Map([["push", { topic: compileTemplate("only topic", { markdown: false }) }]]);
    expect(
      runPipeline(git, request(pushBody(), { headers: { "x-event": "push" }, overrides: topicOnly })),
    ).toMatchObject({
      messages: [{ topic: "only topic", content: "ada pushed 1 to main (short/)" }],
    });
    const otherEvent = new Map([["tag", { template: compileTemplate("never") }]]);
    expect(
      runPipeline(git, request(pushBody(), { headers: { "x-event": "push" }, overrides: otherEvent })),
    ).toMatchObject({
      messages: [{ content: "ada pushed 1 to main (short/)" }],
    });
  });

  it("runs the transform with the event and options, adding its output to the view", () => {
    const outcome = runPipeline(feed, request({ kind: "note", text: "hi" }));
    expect(outcome).toEqual({
      kind: "messages",
      event: { event: "note", action: undefined, eventType: "note" },
      eventKey: "note",
      messages: [{ topic: "feed", content: "hi\n\nHI!note" }],
    });
  });

  it("reads the delivery id from a header or a payload field, trimmed and at most 200 characters", () => {
    const fromHeader = runPipeline(git, request(pushBody(), { headers: { "x-event": "push", "x-delivery": " d-1 " } }));
    expect(fromHeader).toMatchObject({ deliveryId: "d-1" });
    const long = "x".repeat(250);
    expect(runPipeline(git, request(pushBody(), { headers: { "x-event": "push", "x-delivery": long } }))).toMatchObject(
      { deliveryId: "x".repeat(200) },
    );
    const blank = runPipeline(git, request(pushBody(), { headers: { "x-event": "push", "x-delivery": "  " } }));
    expect("deliveryId" in blank).toBe(false);
    expect(runPipeline(feed, request({ kind: "note", text: "a", meta: { id: 42 } }))).toMatchObject({
      deliveryId: "42",
    });
    expect(runPipeline(feed, request({ kind: "note", text: "a", meta: { id: "abc" } }))).toMatchObject({
      deliveryId: "abc",
    });
    const objectId = runPipeline(feed, request({ kind: "note", text: "a", meta: { id: { x: 1 } } }));
    expect("deliveryId" in objectId).toBe(false);
    const none = runPipeline(catchAll, request({ state: "s" }));
    expect("deliveryId" in none).toBe(false);
  });

  it("finds the catch-all event for any event and action", () => {
    expect(runPipeline(catchAll, request({ state: "up" }))).toEqual({
      kind: "messages",
      event: { event: "thing", action: "up", eventType: "thing.up" },
      eventKey: "*",
      messages: [{ topic: "all", content: "state up" }],
    });
  });
});

describe("runPipeline: deliveries that post nothing", () => {
  const ignoredAs = (reason: string, eventKey: string | undefined, event: Record<string, unknown>) => ({
    kind: "ignored",
    event,
    ...(eventKey === undefined ? {} : { eventKey }),
    reason,
  });

  it("ignores events marked ignore", () => {
    expect(runPipeline(git, request({ repo: "r", action: "labeled" }, { headers: { "x-event": "issue" } }))).toEqual(
      ignoredAs("event ignored", "issue", { event: "issue", action: "labeled", eventType: "issue.labeled" }),
    );
  });

  it("ignores unknown events when the manifest says so, and reports them as unsupported otherwise", () => {
    expect(runPipeline(feed, request({ kind: "mystery" }))).toEqual({
      kind: "ignored",
      event: { event: "mystery", action: undefined, eventType: "mystery" },
      reason: "event ignored",
    });
    expect(runPipeline(git, request({ repo: "r" }, { headers: { "x-event": "deploy" } }))).toEqual({
      kind: "unsupported",
      event: { event: "deploy", action: undefined, eventType: "deploy" },
    });
  });

  it("filters by only_events and exclude_events, on the event and on event.action", () => {
    const issue = (q: Record<string, string>) =>
      runPipeline(
        git,
        request(
          { repo: "r", who: "x", action: "opened", issue: { n: 1 } },
          { headers: { "x-event": "issue" }, query: q },
        ),
      );
    const filtered = ignoredAs("filtered", "issue.opened", {
      event: "issue",
      action: "opened",
      eventType: "issue.opened",
    });
    expect(issue({ only_events: "push" })).toEqual(filtered);
    expect(issue({ only_events: "issue.opened" }).kind).toBe("messages");
    expect(issue({ only_events: "issue.closed" })).toEqual(filtered);
    expect(issue({ exclude_events: "issue.opened" })).toEqual(filtered);
    expect(issue({ exclude_events: "issue.closed" }).kind).toBe("messages");
  });

  it("filters by branch, except for events that turn the branch filter off", () => {
    const push = (ref: string, branches: string) =>
      runPipeline(git, request(pushBody(ref), { headers: { "x-event": "push" }, query: { branches } }));
    expect(push("refs/heads/dev", "main")).toEqual(
      ignoredAs("branch filtered", "push", { event: "push", action: undefined, eventType: "push" }),
    );
    expect(push("refs/heads/main", "main").kind).toBe("messages");
    const issue = runPipeline(
      git,
      request(
        { repo: "r", who: "x", ref: "refs/heads/dev", action: "opened", issue: { n: 1 } },
        {
          headers: { "x-event": "issue" },
          query: { branches: "main" },
        },
      ),
    );
    expect(issue.kind).toBe("messages");
  });

  it("drops a delivery whose ignoreWhen renders text", () => {
    expect(runPipeline(git, request(pushBody("refs/heads/main", []), { headers: { "x-event": "push" } }))).toEqual(
      ignoredAs("ignoreWhen", "push", { event: "push", action: undefined, eventType: "push" }),
    );
  });

  it("drops a delivery whose messages are all blank, and an `each` that is not a list", () => {
    expect(runPipeline(git, request({ repo: "r", who: "" }, { headers: { "x-event": "blank" } }))).toEqual(
      ignoredAs("empty", "blank", { event: "blank", action: undefined, eventType: "blank" }),
    );
    expect(runPipeline(git, request({ repo: "r", tags: [] }, { headers: { "x-event": "tag" } }))).toEqual(
      ignoredAs("empty", "tag", { event: "tag", action: undefined, eventType: "tag" }),
    );
    expect(runPipeline(feed, request({ kind: "entries", entries: "none" }))).toEqual(
      ignoredAs("empty", "entries", { event: "entries", action: undefined, eventType: "entries" }),
    );
  });

  it("keeps the non-blank messages of an `each` and drops the blank ones", () => {
    expect(runPipeline(git, request({ repo: "r", who: "w" }, { headers: { "x-event": "blank" } }))).toMatchObject({
      messages: [{ topic: "r", content: "   w" }],
    });
    const entries = runPipeline(feed, request({ kind: "entries", entries: [{ t: "a" }, "b", null] }));
    expect(entries).toMatchObject({
      messages: [
        { topic: "feed", content: "entry a of" },
        { topic: "feed", content: "entry  of" },
        { topic: "feed", content: "entry  of" },
      ],
    });
  });
});

describe("runPipeline: bodies", () => {
  it("reads a body without a Content-Type as JSON", () => {
    const outcome = runPipeline(catchAll, {
      headers: {},
      query: {},
      body: Buffer.from(JSON.stringify({ state: "bare" })),
    });
    expect(outcome).toMatchObject({ kind: "messages", messages: [{ content: "state bare" }] });
  });

  it("wraps a bare JSON array into the declared field", () => {
    expect(runPipeline(bare, request([{ url: "a.example" }, { url: "b.example" }]))).toEqual({
      kind: "messages",
      event: { event: "check", action: undefined, eventType: "check" },
      eventKey: "check",
      messages: [
        { topic: "checks", content: "down: a.example" },
        { topic: "checks", content: "down: b.example" },
      ],
    });
  });

  it("names the URL parameter a bad filter came from", () => {
    const push = (query: Record<string, string>) =>
      refusal(() => runPipeline(git, request(pushBody(), { headers: { "x-event": "push" }, query })));
    for (const name of ["only_events", "exclude_events", "branches"]) {
      expect(push({ [name]: '["a",' })).toEqual({
        code: "BAD_REQUEST",
        msg: `Argument "${name}" is not valid JSON.`,
        extra: { var_name: name },
      });
    }
  });
});

describe("runPipeline: refusals", () => {
  it("names a problem with the whole payload at the pointer /", () => {
    expect(refusal(() => runPipeline(bare, request({})))).toEqual({
      code: "INVALID_PAYLOAD",
      msg: "Invalid Bare List payload: / must NOT have fewer than 1 properties",
      extra: { pointers: ["/"] },
    });
  });

  it("reports what a conditional schema requires, without the bare 'if' failure", () => {
    expect(refusal(() => runPipeline(conditional, request({ kind: "x" })))).toEqual({
      code: "INVALID_PAYLOAD",
      msg: "Invalid Conditional payload: /b is missing",
      extra: { pointers: ["/b"] },
    });
    expect(runPipeline(conditional, request({ kind: "y" }))).toMatchObject({ messages: [{ content: "thing" }] });
  });

  it("refuses any delivery for a bot with a secret when the integration cannot be signed", () => {
    expect(refusal(() => runPipeline(feed, request({ kind: "note" }, { secret: "s3cret" })))).toEqual({
      code: "INVALID_SIGNATURE",
      msg:
        "This bot has a webhook secret, but Feed Test deliveries cannot be signed: " +
        "use a bot without a secret for this integration",
      extra: { integration: "feed" },
    });
  });

  it("checks the signature when the bot has a secret, and only then", () => {
    const body = JSON.stringify(pushBody());
    const signed = request(body, { headers: { "x-event": "push", "x-sig": sign(body, "k") }, secret: "k" });
    expect(runPipeline(git, signed).kind).toBe("messages");
    const wrong = request(body, { headers: { "x-event": "push", "x-sig": sign(body, "other") }, secret: "k" });
    expect(refusal(() => runPipeline(git, wrong))).toEqual({
      code: "INVALID_SIGNATURE",
      msg: "The 'X-Sig' signature does not match the request body",
      extra: { header: "X-Sig" },
    });
    const unsigned = request(body, { headers: { "x-event": "push" }, secret: "k" });
    expect(refusal(() => runPipeline(git, unsigned)).msg).toBe("Missing the signature header 'X-Sig'");
    expect(runPipeline(git, request(body, { headers: { "x-event": "push" }, secret: null })).kind).toBe("messages");
    expect(runPipeline(git, request(body, { headers: { "x-event": "push" }, secret: "" })).kind).toBe("messages");
  });

  it("refuses payloads that are not JSON objects", () => {
    const notObject = (displayName: string) => ({
      code: "INVALID_PAYLOAD",
      msg: `Invalid ${displayName} payload: / must be a JSON object`,
      extra: { pointers: ["/"] },
    });
    expect(refusal(() => runPipeline(git, request("[1]", { headers: { "x-event": "push" } })))).toEqual(
      notObject("Git Test"),
    );
    expect(refusal(() => runPipeline(git, request("null", { headers: { "x-event": "push" } })))).toEqual(
      notObject("Git Test"),
    );
    expect(refusal(() => runPipeline(git, request('"text"', { headers: { "x-event": "push" } })))).toEqual(
      notObject("Git Test"),
    );
    // wrapArray turns a bare array into an object, which then needs its event field.
    expect(refusal(() => runPipeline(feed, request([{ t: "a" }])))).toEqual({
      code: "INVALID_PAYLOAD",
      msg: "Invalid Feed Test payload: /kind is missing (it names the event)",
      extra: { pointers: ["/kind"] },
    });
  });

  it("names up to three schema problems, with JSON pointers, root and event schema together", () => {
    expect(refusal(() => runPipeline(git, request({ who: "x" }, { headers: { "x-event": "push" } })))).toEqual({
      code: "INVALID_PAYLOAD",
      msg: "Invalid Git Test payload: /repo is missing; /ref is missing; /commits is missing",
      extra: { pointers: ["/repo", "/ref", "/commits"] },
    });
    expect(refusal(() => runPipeline(strict, request({ n: "x" }, { headers: { "x-kind": "known" } })))).toEqual({
      code: "INVALID_PAYLOAD",
      msg: "Invalid Strict Test payload: /a is missing; /b is missing; /c is missing",
      extra: { pointers: ["/a", "/b", "/c"] },
    });
    expect(
      refusal(() => runPipeline(strict, request({ a: "1", b: "2", c: "3", d: 4 }, { headers: { "x-kind": "known" } }))),
    ).toEqual({
      code: "INVALID_PAYLOAD",
      msg: "Invalid Strict Test payload: /d must be string",
      extra: { pointers: ["/d"] },
    });
  });

  it("checks the schema only for events it will render", () => {
    expect(runPipeline(git, request({ action: "x" }, { headers: { "x-event": "issue" } })).kind).toBe("ignored");
    expect(runPipeline(strict, request({}, { headers: { "x-kind": "unknown" } })).kind).toBe("unsupported");
  });
});
