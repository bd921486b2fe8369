// Manifest `reply` (the success answer's extra fields): the loader's checks, naming the file and
// field, and what the pure pipeline renders for known, ignored and unlisted events.
import path from "node:path";
import { IntegrationLoadError, loadIntegrationFolder } from "../../src/webhooks/loader";
import { runPipeline } from "../../src/webhooks/pipeline";
import { ApiError } from "../../src/errors";
import { MAX_WEBHOOK_REPLY_FIELD_CHARS } from "../../src/limits";
import { goodPlugin, useTempDir, writeFiles, type Files } from "../support/pluginFolders";

const tmp = useTempDir("sb-reply-");

const SCHEMA = JSON.stringify({
  type: "object",
  properties: { type: { type: "string" }, challenge: { type: "string" }, title: { type: "string" } },
});

function load(extra: Record<string, unknown>, files: Files = {}) {
  const dir = path.join(tmp.dir(), "integrations", "demo");
  writeFiles(dir, goodPlugin("demo", { "schema.json": SCHEMA, ...files }, extra));
  return loadIntegrationFolder(dir, tmp.dir());
}

function problems(extra: Record<string, unknown>, files: Files = {}): string[] {
  try {
    load(extra, files);
  } catch (err) {
    expect(err).toBeInstanceOf(IntegrationLoadError);
    return (err as IntegrationLoadError).problems;
  }
  throw new Error("the plugin loaded");
}

const verification = {
  eventSource: { field: "type", default: "hello" },
  reply: { msg: "Received {{type}}" },
  events: {
    hello: {},
    url_verification: { ignore: true, reply: { challenge: "{{challenge}}", msg: "Verified" } },
  },
  unknownEvents: "ignore",
};

const replyOf = (outcome: unknown) => (outcome as { reply?: unknown }).reply;

const run = (integration: ReturnType<typeof load>, payload: unknown, query: Record<string, string> = {}) =>
  runPipeline(integration, {
    headers: { "content-type": "application/json" },
    query,
    body: Buffer.from(JSON.stringify(payload)),
  });

describe("reply: what the pipeline answers", () => {
  it("renders an ignored event's own fields over the manifest's, as plain text (not Markdown-escaped)", () => {
    const outcome = run(load(verification), { type: "url_verification", challenge: "3eZb*_x<y>" });
    expect(outcome).toMatchObject({ kind: "ignored", reason: "event ignored" });
    expect(replyOf(outcome)).toEqual({ challenge: "3eZb*_x<y>", msg: "Verified" });
  });

  it("gives a message event the manifest's fields, and an unlisted event (unknownEvents ignore) them too", () => {
    const integration = load(verification);
    expect(run(integration, { type: "hello", title: "t" })).toMatchObject({
      kind: "messages",
      reply: { msg: "Received hello" },
    });
    expect(run(integration, { type: "other" })).toEqual(
      expect.objectContaining({ kind: "ignored", reply: { msg: "Received other" } }),
    );
  });

  it("leaves out a field that renders empty, and has no reply at all when every field is empty", () => {
    const integration = load({ ...verification, reply: { note: "{{title}}" } });
    expect(replyOf(run(integration, { type: "url_verification" }))).toEqual({ msg: "Verified" });
    expect(run(integration, { type: "hello" })).not.toHaveProperty("reply");
  });

  it("gives a filtered delivery its answer fields too (it is still a success)", () => {
    const outcome = run(load(verification), { type: "hello" }, { exclude_events: "hello" });
    expect(outcome).toMatchObject({ kind: "ignored", reason: "filtered", reply: { msg: "Received hello" } });
  });

  it("gives an unsupported event (a 200 answer too) the manifest's fields, never an event's", () => {
    const integration = load({ ...verification, unknownEvents: "error" });
    const outcome = run(integration, { type: "other", challenge: "c" });
    expect(outcome.kind).toBe("unsupported");
    expect(replyOf(outcome)).toEqual({ msg: "Received other" });
  });

  it(`refuses a rendered value over ${MAX_WEBHOOK_REPLY_FIELD_CHARS} characters with a 400 naming the field and limit`, () => {
    const integration = load(verification);
    const long = "x".repeat(MAX_WEBHOOK_REPLY_FIELD_CHARS + 1);
    let thrown: unknown;
    try {
      run(integration, { type: "url_verification", challenge: long });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 400, code: "INVALID_PAYLOAD" });
    expect((thrown as Error).message).toMatch(/'challenge' would be longer than 1000 characters/);
    // Exactly at the limit is fine.
    const atLimit = run(integration, { type: "url_verification", challenge: long.slice(1) });
    expect(atLimit).toMatchObject({ reply: { challenge: long.slice(1) } });
  });
});

describe("reply: what the loader refuses", () => {
  it("names the envelope's own fields and malformed names, in the manifest and in an event", () => {
    expect(
      problems({ reply: { result: "x", Msg: "y" }, events: { hello: { reply: { code: "1", "9a": "z" } } } }),
    ).toEqual([
      "integrations/demo/integration.json: /reply/result: 'result' is the answer envelope's own field",
      "integrations/demo/integration.json: /reply/Msg: an answer field name must match ^[a-z_][a-z0-9_]{0,39}$",
      "integrations/demo/integration.json: /events/hello/reply/code: 'code' is the answer envelope's own field",
      "integrations/demo/integration.json: /events/hello/reply/9a: an answer field name must match ^[a-z_][a-z0-9_]{0,39}$",
    ]);
    expect(problems({ reply: { ["a".repeat(41)]: "x" } })).toHaveLength(1);
  });

  it("refuses more than 8 fields, an empty value and a value over 1000 characters, by pointer", () => {
    const nine = Object.fromEntries([...Array(9).keys()].map((i) => [`f${i}`, "x"]));
    expect(problems({ reply: nine })).toEqual([
      "integrations/demo/integration.json: /reply: must NOT have more than 8 properties",
    ]);
    expect(problems({ events: { hello: { reply: { msg: "" } } } })).toEqual([
      "integrations/demo/integration.json: /events/hello/reply/msg: must NOT have fewer than 1 characters",
    ]);
    expect(problems({ reply: { msg: "x".repeat(1001) } })).toEqual([
      "integrations/demo/integration.json: /reply/msg: must NOT have more than 1000 characters",
    ]);
  });

  it("refuses a field that does not compile, and one reading a path the schema does not declare", () => {
    expect(problems({ reply: { msg: "{{#if}}" } })[0]).toMatch(/^integrations\/demo\/integration.json: \/reply\/msg: /);
    expect(problems({ reply: { msg: "{{nosuch helper}}" } })[0]).toMatch(/\/reply\/msg: /);
    // Checked for ignored events too, where no other template is.
    expect(problems({ events: { hello: {}, bye: { ignore: true, reply: { challenge: "{{chalenge}}" } } } })).toEqual([
      "integrations/demo/integration.json: /events/bye/reply/challenge: line 1: 'chalenge' is not declared in " +
        "schema.json (declare it as an optional property, or list the transform's output in transformOutputs)",
    ]);
  });

  it("does not let a field read what only messages see (outputs, transform outputs)", () => {
    const lines = problems({ outputs: { shown: "{{title}}" }, reply: { msg: "{{shown}}" } });
    expect(lines).toEqual([expect.stringMatching(/\/reply\/msg: line 1: 'shown' is not declared in schema.json/)]);
  });
});

describe("reply in the fixture format", () => {
  it("is recorded beside the message or `ignored` by the pure replay", async () => {
    const { dryRunDelivery } = await import("../../src/services/webhooks/dryRun");
    const integration = load(verification);
    const request = (payload: unknown) => ({
      headers: { "content-type": "application/json" },
      query: { stream: "general" },
      body: Buffer.from(JSON.stringify(payload)),
    });
    expect(dryRunDelivery(integration, request({ type: "url_verification", challenge: "k" }))).toEqual({
      ignored: true,
      reply: { challenge: "k", msg: "Verified" },
    });
    expect(dryRunDelivery(integration, request({ type: "hello", title: "t" }))).toEqual({
      topic: "demo",
      content: "Hello t",
      reply: { msg: "Received hello" },
    });
  });
});
