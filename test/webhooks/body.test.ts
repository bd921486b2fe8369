// parseWebhookBody: each manifest contentType, with the Content-Type labels senders really use.
import { MAX_XML_BYTES, MAX_XML_DEPTH, parseWebhookBody, queryPayload } from "../../src/webhooks/body";
import { JsonTooDeepError } from "../../src/json";
import { ApiError } from "../../src/errors";
import type { Manifest } from "../../src/webhooks/manifest";
import { apiErrorOf } from "../support/apiErrors";

const FORM = "application/x-www-form-urlencoded";
const manifest = (contentType: Manifest["contentType"]) => ({ contentType }) as Manifest;
const parse = (mode: Manifest["contentType"], body: string, type: string) =>
  parseWebhookBody(manifest(mode), Buffer.from(body), type);

function code(fn: () => unknown): string {
  const err = apiErrorOf(fn);
  return err ? `${err.status} ${err.code}: ${err.message}` : "no error";
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

describe("parseWebhookBody: content types and labels", () => {
  it("treats a manifest without contentType as json", () => {
    expect(parseWebhookBody({} as Manifest, Buffer.from("payload=%5B1%5D"), FORM)).toEqual([1]);
    expect(code(() => parseWebhookBody({} as Manifest, Buffer.from("a=1"), "text/plain"))).toBe(
      "400 INVALID_JSON: Malformed JSON",
    );
  });

  it("json: reads the payload= field only from a form-labelled body (any case, with parameters)", () => {
    expect(parse("json", "payload=%7B%22a%22%3A1%7D", "Application/X-WWW-Form-URLEncoded; charset=utf-8")).toEqual({
      a: 1,
    });
    expect(code(() => parse("json", "payload=%7B%22a%22%3A1%7D", "text/plain"))).toBe(
      "400 INVALID_JSON: Malformed JSON",
    );
    expect(code(() => parse("json", "x-payload=1", `x-${FORM}`))).toBe("400 INVALID_JSON: Malformed JSON");
  });

  it("json: a form-labelled body without a payload field is parsed as JSON text", () => {
    expect(code(() => parse("json", "other=%7B%7D", FORM))).toBe("400 INVALID_JSON: Malformed JSON");
    expect(parse("json", "  [1,2]", FORM)).toEqual([1, 2]);
    expect(parse("json", "7", FORM)).toBe(7);
  });

  it("answers a too-deep JSON body with the depth limit (not 'malformed'), as an ApiError that crosses threads", () => {
    const deep = "[".repeat(101) + "]".repeat(101);
    const limitMessage = `400 BAD_REQUEST: ${new JsonTooDeepError(100).message}`;
    expect(code(() => parse("json", deep, "application/json"))).toBe(limitMessage);
    expect(code(() => parse("form-json", `payload=${encodeURIComponent(deep)}`, FORM))).toBe(limitMessage);
  });

  it("form: JSON-typed labels (application/json, vendor +json, any case) are parsed as JSON", () => {
    expect(parse("form", "[1]", "application/json")).toEqual([1]);
    expect(parse("form", "7", "application/json")).toBe(7);
    expect(parse("form", '"s"', "application/vnd.api+json; charset=utf-8")).toBe("s");
    expect(parse("form", "null", "APPLICATION/JSON")).toBeNull();
    expect(parse("form", "7", "text/json")).toEqual({ "7": "" });
    expect(parse("form", "a=[1]", "text/plain")).toEqual({ a: "[1]" });
    expect(parse("form", "7", "x-application/json")).toEqual({ "7": "" });
  });

  it("form: an empty body is an empty object", () => {
    expect(parse("form", "", FORM)).toEqual({});
  });

  it("form-json: the manifest's formField names the field holding the JSON", () => {
    const m = { contentType: "form-json", formField: "data" } as Manifest;
    expect(parseWebhookBody(m, Buffer.from("data=%5B2%5D&payload=1"), FORM)).toEqual([2]);
    expect(code(() => parseWebhookBody(m, Buffer.from("payload=1"), FORM))).toBe(
      "400 REQUEST_VARIABLE_MISSING: Missing 'data' argument",
    );
    try {
      parseWebhookBody(m, Buffer.from("payload=1"), FORM);
    } catch (err) {
      expect((err as ApiError).extra).toEqual({ var_name: "data" });
    }
    const inherited = { contentType: "form-json", formField: "constructor" } as Manifest;
    expect(code(() => parseWebhookBody(inherited, Buffer.from("a=1"), FORM))).toBe(
      "400 REQUEST_VARIABLE_MISSING: Missing 'constructor' argument",
    );
  });

  it("query: the URL query minus the framework's parameters; the body is not read", () => {
    const query = {
      api_key: "k",
      stream: "s",
      topic: "t",
      only_events: "a",
      exclude_events: "b",
      project: "p",
      x: "1",
    };
    expect(parseWebhookBody(manifest("query"), Buffer.from("{nope"), "application/json", query)).toEqual({
      project: "p",
      x: "1",
    });
    expect(parseWebhookBody(manifest("query"), Buffer.from(""), "")).toEqual({});
    expect(queryPayload({ Stream: "kept", topic: "dropped" })).toEqual({ Stream: "kept" });
  });
});

describe("parseWebhookBody: XML", () => {
  const xml = (body: string, type = "application/xml") => parse("xml", body, type);

  it("keeps attributes (prefixed @_) and text (#text), all as trimmed strings", () => {
    expect(
      xml('<?xml version="1.0"?><build id="0042" ok="true"><name>  main  </name><n type="integer">007</n></build>'),
    ).toEqual({
      build: { "@_id": "0042", "@_ok": "true", name: "main", n: { "#text": "007", "@_type": "integer" } },
    });
  });

  it("drops processing instructions, decodes XML entities but not HTML ones", () => {
    expect(xml('<?xml-stylesheet href="a.xsl"?><a>x &amp; &lt;y&gt; &copy;</a>')).toEqual({ a: "x & <y> &copy;" });
  });

  it("still parses a JSON body under a JSON label or that looks like JSON", () => {
    expect(xml('{"a":1}', "text/xml")).toEqual({ a: 1 });
    expect(xml("[1]", "application/json")).toEqual([1]);
  });

  it("refuses document type declarations in any case", () => {
    const refused = "400 INVALID_PAYLOAD: Invalid Service payload: XML document type declarations are not accepted";
    const m = { contentType: "xml", displayName: "Service" } as Manifest;
    expect(code(() => parseWebhookBody(m, Buffer.from("<!doctype a><a/>"), "text/xml"))).toBe(refused);
    expect(code(() => parseWebhookBody(m, Buffer.from('<a><!ENTITY x "y"></a>'), "text/xml"))).toBe(refused);
    try {
      parseWebhookBody(m, Buffer.from("<!DOCTYPE a><a/>"), "text/xml");
    } catch (err) {
      expect((err as ApiError).extra).toEqual({ pointers: ["/"] });
    }
  });

  it("refuses invalid XML with the parser's line and reason", () => {
    const m = { contentType: "xml", displayName: "Service" } as Manifest;
    expect(code(() => parseWebhookBody(m, Buffer.from("<a>\n<b></a>"), "text/xml"))).toBe(
      "400 INVALID_PAYLOAD: Invalid Service payload: not valid XML (line 2: Expected closing tag 'b' (opened in line 2, col 1) instead of closing tag 'a'.)",
    );
  });

  it("accepts exactly MAX_XML_DEPTH nested elements and refuses one more", () => {
    const nest = (n: number, inner = "x") => "<e>".repeat(n) + inner + "</e>".repeat(n);
    const m = { contentType: "xml", displayName: "Service" } as Manifest;
    let value: unknown = "x";
    for (let i = 0; i < MAX_XML_DEPTH; i++) value = { e: value };
    expect(parseWebhookBody(m, Buffer.from(nest(MAX_XML_DEPTH)), "text/xml")).toEqual(value);
    expect(code(() => parseWebhookBody(m, Buffer.from(nest(MAX_XML_DEPTH + 1)), "text/xml"))).toBe(
      "400 INVALID_PAYLOAD: Invalid Service payload: XML nested deeper than 64 elements",
    );
  });

  it("counts elements with longer names and attributes towards the depth", () => {
    const m = { contentType: "xml", displayName: "Service" } as Manifest;
    const nest = (n: number) => '<el a="1">'.repeat(n) + "x" + "</el>".repeat(n);
    expect(code(() => parseWebhookBody(m, Buffer.from(nest(MAX_XML_DEPTH + 1)), "text/xml"))).toBe(
      "400 INVALID_PAYLOAD: Invalid Service payload: XML nested deeper than 64 elements",
    );
  });

  it("counts depth by open elements: siblings, self-closing and closed elements do not add up", () => {
    const m = { contentType: "xml", displayName: "Service" } as Manifest;
    const siblings = "<r>" + "<e>x</e>".repeat(MAX_XML_DEPTH + 2) + "</r>";
    expect(parseWebhookBody(m, Buffer.from(siblings), "text/xml")).toEqual({
      r: { e: Array(MAX_XML_DEPTH + 2).fill("x") },
    });
    const selfClosing = "<e>".repeat(MAX_XML_DEPTH - 1) + "<s/><s />".repeat(3) + "</e>".repeat(MAX_XML_DEPTH - 1);
    let value: unknown = { s: Array(6).fill("") };
    for (let i = 1; i < MAX_XML_DEPTH - 1; i++) value = { e: value };
    expect(parseWebhookBody(m, Buffer.from(selfClosing), "text/xml")).toEqual({ e: value });
  });

  it("refuses bodies over MAX_XML_BYTES (counted in bytes, not characters) before parsing", () => {
    const m = { contentType: "xml", displayName: "Service" } as Manifest;
    const tooBig = "400 INVALID_PAYLOAD: Invalid Service payload: XML bodies are limited to 1048576 bytes";
    // Exactly at the limit, the size check passes and the next check (no DOCTYPE) answers.
    const atLimit = "<!DOCTYPE a>" + " ".repeat(MAX_XML_BYTES - 12);
    expect(code(() => parseWebhookBody(m, Buffer.from(atLimit), "text/xml"))).toBe(
      "400 INVALID_PAYLOAD: Invalid Service payload: XML document type declarations are not accepted",
    );
    expect(code(() => parseWebhookBody(m, Buffer.from(atLimit + " "), "text/xml"))).toBe(tooBig);
    const wide = "<!DOCTYPE a>" + "é".repeat(MAX_XML_BYTES / 2 - 5);
    expect(code(() => parseWebhookBody(m, Buffer.from(wide), "text/xml"))).toBe(tooBig);
  });
});
