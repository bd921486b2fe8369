// Manifest `channel` (event spec, families, eventDefaults): a plain-text template naming the channel
// a message goes to instead of the URL's `stream`. The loader's checks and what the pure pipeline
// and the fixture replay make of it.
import path from "node:path";
import { IntegrationLoadError, loadIntegrationFolder } from "../../src/webhooks/loader";
import { runPipeline } from "../../src/webhooks/pipeline";
import { dryRunDelivery } from "../../src/services/webhooks/dryRun";
import { MAX_WEBHOOK_DELIVERY_CHANNELS } from "../../src/limits";
import { goodPlugin, useTempDir, writeFiles, type Files } from "../support/pluginFolders";

const tmp = useTempDir("sb-channel-");

const SCHEMA = JSON.stringify({
  type: "object",
  properties: {
    kind: { type: "string" },
    room: { type: "string" },
    title: { type: "string" },
    personal: { type: "boolean" },
    items: { type: "array", items: { type: "object", properties: { room: { type: "string" } } } },
  },
});

function load(extra: Record<string, unknown>, files: Files = {}) {
  const dir = path.join(tmp.dir(), "integrations", "demo");
  writeFiles(
    dir,
    goodPlugin("demo", { "schema.json": SCHEMA, "templates/hello.hbs": "Hello {{title}}", ...files }, extra),
  );
  return loadIntegrationFolder(dir, tmp.dir());
}

function problems(extra: Record<string, unknown>): string[] {
  try {
    load(extra);
  } catch (err) {
    expect(err).toBeInstanceOf(IntegrationLoadError);
    return (err as IntegrationLoadError).problems;
  }
  throw new Error("the plugin loaded");
}

const request = (payload: unknown) => ({
  headers: { "content-type": "application/json" },
  query: { stream: "general" },
  body: Buffer.from(JSON.stringify(payload)),
});
const messagesOf = (integration: ReturnType<typeof load>, payload: unknown) => {
  const outcome = runPipeline(integration, request(payload));
  if (outcome.kind !== "messages") throw new Error(`no messages: ${outcome.kind}`);
  return outcome.messages;
};

describe("channel: what the pipeline renders", () => {
  it("names the channel when the template renders non-blank text (trimmed), else leaves the URL's stream", () => {
    const integration = load({ events: { hello: { channel: "{{#if room}}  {{room}} {{/if}}" } } });
    expect(messagesOf(integration, { title: "a", room: "dev *ops*" })).toEqual([
      { topic: "demo", content: "Hello a", channel: "dev *ops*" },
    ]);
    expect(messagesOf(integration, { title: "b" })).toEqual([{ topic: "demo", content: "Hello b" }]);
    expect(messagesOf(integration, { title: "c", room: "   " })).toEqual([{ topic: "demo", content: "Hello c" }]);
  });

  it("is inherited from eventDefaults and families, reads outputs, and null cancels an inherited one", () => {
    const integration = load({
      eventSource: { field: "kind" },
      outputs: { target: "{{room}}-team" },
      eventDefaults: { channel: "{{target}}" },
      families: { "build:*": { channel: "builds" } },
      events: { hello: {}, "build:done": { template: "hello" }, quiet: { template: "hello", channel: null } },
    });
    expect(messagesOf(integration, { kind: "hello", room: "web" })[0].channel).toBe("web-team");
    expect(messagesOf(integration, { kind: "build:done", room: "web" })[0].channel).toBe("builds");
    expect(messagesOf(integration, { kind: "quiet", room: "web" })[0]).not.toHaveProperty("channel");
  });

  it("renders per `each` item, and a direct message never names a channel", () => {
    const integration = load({
      events: { hello: { each: "items", channel: "{{item.room}}", directWhen: "{{#if personal}}me{{/if}}" } },
    });
    expect(messagesOf(integration, { title: "t", items: [{ room: "a" }, { room: "b" }, {}] })).toEqual([
      { topic: "demo", content: "Hello t", channel: "a" },
      { topic: "demo", content: "Hello t", channel: "b" },
      { topic: "demo", content: "Hello t" },
    ]);
    expect(messagesOf(integration, { title: "t", personal: true, items: [{ room: "a" }] })).toEqual([
      { topic: "demo", content: "Hello t", direct: true },
    ]);
  });

  it(`refuses a delivery naming more than ${MAX_WEBHOOK_DELIVERY_CHANNELS} channels, and a name with a NUL byte`, () => {
    const integration = load({ events: { hello: { each: "items", channel: "{{item.room}}" } } });
    const rooms = (n: number) => [...Array(n).keys()].map((i) => ({ room: `r${i}` }));
    expect(messagesOf(integration, { items: rooms(MAX_WEBHOOK_DELIVERY_CHANNELS) })).toHaveLength(10);
    expect(dryRunDelivery(integration, request({ items: rooms(MAX_WEBHOOK_DELIVERY_CHANNELS + 1) }))).toEqual({
      error: {
        status: 400,
        code: "INVALID_PAYLOAD",
        msg: "Invalid Demo payload: its messages name 11 channels, more than 10 (MAX_WEBHOOK_DELIVERY_CHANNELS)",
      },
    });
    expect(dryRunDelivery(integration, request({ items: [{ room: "a\u0000b" }] }))).toMatchObject({
      error: { status: 400, code: "INVALID_PAYLOAD", msg: expect.stringContaining("the channel it renders to") },
    });
  });

  it("is recorded in the fixture format beside the message", () => {
    const integration = load({ events: { hello: { channel: "{{room}}" } } });
    expect(dryRunDelivery(integration, request({ title: "x", room: "ops" }))).toEqual({
      topic: "demo",
      content: "Hello x",
      channel: "ops",
    });
    expect(dryRunDelivery(integration, request({ title: "x" }))).toEqual({ topic: "demo", content: "Hello x" });
  });
});

describe("channel: what the loader refuses", () => {
  it("names the pointer of a channel template reading a path the schema does not declare, wherever it is set", () => {
    const hint = "(declare it as an optional property, or list the transform's output in transformOutputs)";
    expect(problems({ events: { hello: { channel: "{{rooom}}" } } })).toEqual([
      `integrations/demo/integration.json: /events/hello/channel: line 1: 'rooom' is not declared in schema.json ${hint}`,
    ]);
    expect(problems({ eventDefaults: { channel: "{{rooom}}" } })).toEqual([
      `integrations/demo/integration.json: /eventDefaults/channel: line 1: 'rooom' is not declared in schema.json ${hint}`,
    ]);
  });

  it("refuses a template that does not compile, an empty one and one that is not text", () => {
    expect(problems({ events: { hello: { channel: "{{#if room}}" } } })[0]).toMatch(
      /^integrations\/demo\/integration.json: \/events\/hello\/channel: /,
    );
    expect(problems({ events: { hello: { channel: "" } } })).toEqual([
      "integrations/demo/integration.json: /events/hello/channel: must NOT have fewer than 1 characters",
    ]);
    expect(problems({ eventDefaults: { channel: 7 } })).toEqual([
      "integrations/demo/integration.json: /eventDefaults/channel: must be string,null",
    ]);
  });

  it("checks the tables a channel template uses", () => {
    expect(problems({ events: { hello: { channel: '{{table "rooms" room "name"}}' } } })).toEqual([
      expect.stringMatching(
        /^integrations\/demo\/integration.json: \/events\/hello\/channel: .*table 'rooms' is not declared/,
      ),
    ]);
  });
});
