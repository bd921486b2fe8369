// How this plugin reads a delivery (manifest `contentType: "form-json"`): Slack senders post either
// a JSON body or a form with one `payload=<json>` field, and label them inconsistently. Run through
// the pure pipeline with the plugin as the server loads it.
import path from "node:path";
import { ApiError, loadIntegrations, runPipeline, type Outcome } from "../../test/support/pipeline";

const plugin = loadIntegrations(path.resolve(__dirname, "..")).find((i) => i.name === "slack_incoming")!;
const FORM = "application/x-www-form-urlencoded";

function run(body: string, contentType: string, query: Record<string, string> = {}): Outcome {
  return runPipeline(plugin, { headers: { "content-type": contentType }, query, body: Buffer.from(body) });
}

function failure(fn: () => unknown): { status: number; code: string; msg: string; extra: Record<string, unknown> } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, code: err.code, msg: err.message, extra: err.extra };
    throw err;
  }
  throw new Error("expected an ApiError");
}

const json = JSON.stringify({ text: "*deployed*", channel: "#ops" });
const message = { kind: "messages", messages: [{ topic: "ops", content: "**deployed**" }] };

describe("slack_incoming request bodies", () => {
  it.each([
    ["a JSON body", json, "application/json"],
    ["a JSON body labelled as a form", json, FORM],
    ["a JSON body labelled as text", json, "text/plain"],
    ["a form with payload=", new URLSearchParams({ payload: json }).toString(), FORM],
    [
      "a form with payload= and other fields",
      new URLSearchParams({ token: "x", payload: json }).toString(),
      `${FORM}; charset=utf-8`,
    ],
  ])("accepts %s", (_name, body, contentType) => {
    expect(run(body, contentType)).toMatchObject(message);
  });

  it("answers 400 for a form without payload=, or with payload= that is not JSON", () => {
    expect(failure(() => run("text=hello", FORM))).toMatchObject({
      status: 400,
      code: "REQUEST_VARIABLE_MISSING",
      msg: "Missing 'payload' argument",
      extra: { var_name: "payload" },
    });
    expect(failure(() => run("payload=%7Bnope", FORM))).toMatchObject({
      status: 400,
      code: "INVALID_JSON",
      msg: "Malformed JSON",
    });
    expect(failure(() => run("[1,2]", "application/json"))).toMatchObject({
      status: 400,
      code: "INVALID_PAYLOAD",
      extra: { pointers: ["/"] },
    });
  });

  it("takes the topic from the URL first, then channel, then (no topic)", () => {
    expect(run(json, "application/json", { topic: "Deploys" })).toMatchObject({ messages: [{ topic: "Deploys" }] });
    expect(run(JSON.stringify({ text: "x" }), "application/json")).toMatchObject({
      messages: [{ topic: "(no topic)" }],
    });
  });

  it("refuses a delivery with nothing to show, as Slack does (400 no_text), naming what is missing", () => {
    for (const body of [{ text: null }, { text: "  ", attachments: [{ color: "good" }] }, { icon_emoji: ":zap:" }]) {
      const refused = failure(() => run(JSON.stringify(body), "application/json"));
      expect(refused).toMatchObject({ status: 400, code: "INVALID_PAYLOAD", extra: { pointers: ["/text"] } });
      expect(refused.msg).toMatch(/no_text: nothing to show \(text, blocks and attachments are missing or empty\)/);
    }
  });
});
