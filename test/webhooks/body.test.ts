// parseWebhookBody: each manifest contentType, with the Content-Type labels senders really use.
import { parseWebhookBody } from "../../src/webhooks/body";
import { ApiError } from "../../src/errors";
import type { Manifest } from "../../src/webhooks/manifest";

const FORM = "application/x-www-form-urlencoded";
const manifest = (contentType: Manifest["contentType"]) => ({ contentType }) as Manifest;
const parse = (mode: Manifest["contentType"], body: string, type: string) =>
  parseWebhookBody(manifest(mode), Buffer.from(body), type);

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.code}: ${err.message}`;
    throw err;
  }
  return "no error";
}

describe("parseWebhookBody", () => {
  it("json: JSON under any label, or a payload= form field", () => {
    expect(parse("json", '{"a":1}', "application/json")).toEqual({ a: 1 });
    expect(parse("json", '{"a":1}', FORM)).toEqual({ a: 1 });
    expect(parse("json", "payload=%7B%22a%22%3A1%7D", FORM)).toEqual({ a: 1 });
    expect(code(() => parse("json", "a=1", FORM))).toBe("400 INVALID_JSON: Malformed JSON");
  });

  it("form: the fields are the payload; a JSON body still works", () => {
    expect(parse("form", "a=1&b=x+y", FORM)).toEqual({ a: "1", b: "x y" });
    expect(parse("form", '{"a":1}', FORM)).toEqual({ a: 1 });
  });

  it("form-json: payload=<json>, or a JSON body under any label", () => {
    expect(parse("form-json", "payload=%7B%22a%22%3A1%7D", FORM)).toEqual({ a: 1 });
    expect(parse("form-json", '{"a":1}', "application/json")).toEqual({ a: 1 });
    expect(parse("form-json", ' {"a":1}', FORM)).toEqual({ a: 1 });
    expect(parse("form-json", '{"a":1}', "text/plain")).toEqual({ a: 1 });
    expect(code(() => parse("form-json", "text=hi", FORM))).toBe(
      "400 REQUEST_VARIABLE_MISSING: Missing 'payload' argument",
    );
    expect(code(() => parse("form-json", "payload=%7Bnope", FORM))).toBe("400 INVALID_JSON: Malformed JSON");
    expect(code(() => parse("form-json", '{"a":', FORM))).toBe("400 INVALID_JSON: Malformed JSON");
  });
});
