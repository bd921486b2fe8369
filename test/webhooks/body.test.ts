// parseWebhookBody: each manifest contentType, with the Content-Type labels senders really use.
import {
  MAX_XML_BYTES,
  MAX_XML_DEPTH,
  parseWebhookBody,
  queryPayload,
  withoutTrailingCommas,
} from "../../src/webhooks/body";
import { MAX_WEBHOOK_MULTIPART_PARTS } from "../../src/limits";
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

describe("parseWebhookBody: multipart, plain text with header metadata, lenient JSON", () => {
  const multipart = (parts: string[], boundary = "b0") =>
    Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("") + `--${boundary}--\r\n`);
  const field = (name: string, value: string, extra = "") =>
    `Content-Disposition: form-data; name="${name}"${extra}\r\n\r\n${value}`;
  const MP = "multipart/form-data; boundary=b0";

  it("form: a multipart body's text parts are the fields; file parts are left out", () => {
    const body = multipart([
      field("title", "Hi"),
      field("message", "two\r\nlines é"),
      field("files[0]", "\u0000\u0001binary", '; filename="a.png"\r\nContent-Type: image/png'),
    ]);
    expect(parseWebhookBody(manifest("form"), body, MP)).toEqual({ title: "Hi", message: "two\r\nlines é" });
  });

  it("form: a multipart body with bare LF line ends (a body saved as a text file) reads the same", () => {
    const lf = Buffer.from(
      '--b0\nContent-Disposition: form-data; name="title"\n\nHi\n--b0\n' +
        'Content-Disposition: form-data; name="empty"\n\n\n--b0\n' +
        'Content-Disposition: form-data; name="text"\n\ntwo\nlines\n--b0--\n',
    );
    expect(parseWebhookBody(manifest("form"), lf, MP)).toEqual({ title: "Hi", empty: "", text: "two\nlines" });
  });

  it("form with formField: the JSON part (Discord's payload_json) is the payload, from multipart or urlencoded", () => {
    const m = { contentType: "form", formField: "payload_json" } as Manifest;
    const json = field("payload_json", '{"content":"x"}', "\r\nContent-Type: application/json");
    expect(parseWebhookBody(m, multipart([json, field("files[0]", "..", '; filename="f"')]), MP)).toEqual({
      content: "x",
    });
    expect(parseWebhookBody(m, Buffer.from("payload_json=%7B%22a%22%3A1%7D"), FORM)).toEqual({ a: 1 });
    // Without the field, the form's own fields are the payload.
    expect(parseWebhookBody(m, Buffer.from("content=hi"), FORM)).toEqual({ content: "hi" });
    expect(parseWebhookBody(manifest("form"), Buffer.from("payload_json=%7B%7D"), FORM)).toEqual({
      payload_json: "{}",
    });
  });

  it("form-json: the named part of a multipart body, or REQUEST_VARIABLE_MISSING", () => {
    const m = { contentType: "form-json", formField: "payload_json" } as Manifest;
    expect(parseWebhookBody(m, multipart([field("payload_json", "[1]")]), MP)).toEqual([1]);
    expect(code(() => parseWebhookBody(m, multipart([field("other", "1")]), MP))).toBe(
      "400 REQUEST_VARIABLE_MISSING: Missing 'payload_json' argument",
    );
  });

  it("refuses malformed multipart bodies with a 400 naming what is wrong, and more parts than the limit", () => {
    const p = (body: Buffer, type = MP) => code(() => parseWebhookBody(manifest("form"), body, type));
    expect(p(multipart([field("a", "1")]), "multipart/form-data")).toBe(
      "400 BAD_REQUEST: Malformed multipart body: the Content-Type has no boundary",
    );
    expect(p(Buffer.from("nothing here"))).toBe(
      "400 BAD_REQUEST: Malformed multipart body: no part starts with the boundary",
    );
    expect(p(Buffer.from(`--b0\r\n${field("a", "1")}\r\n`))).toBe(
      "400 BAD_REQUEST: Malformed multipart body: the closing boundary is missing",
    );
    expect(p(Buffer.from("--b0\r\nno header end--b0--"))).toBe(
      "400 BAD_REQUEST: Malformed multipart body: a part has no header section",
    );
    const many = Array.from({ length: MAX_WEBHOOK_MULTIPART_PARTS + 1 }, (_, i) => field(`f${i}`, "x"));
    expect(p(multipart(many))).toBe(
      `400 BAD_REQUEST: Malformed multipart body: more than ${MAX_WEBHOOK_MULTIPART_PARTS} parts`,
    );
    expect(Object.keys(parseWebhookBody(manifest("form"), multipart(many.slice(1)), MP) as object)).toHaveLength(
      MAX_WEBHOOK_MULTIPART_PARTS,
    );
    const invalidUtf8 = Buffer.concat([
      Buffer.from(`--b0\r\n${field("a", "")}`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from("\r\n--b0--"),
    ]);
    expect(p(invalidUtf8)).toBe("400 BAD_REQUEST: Request body is not valid UTF-8");
  });

  it("text: the body is one field (any label, even form), JSON still JSON; headerFields fill what the body lacks", () => {
    const m = {
      contentType: "text",
      textField: "message",
      headerFields: { title: ["Title", "X-Title", "t"], priority: ["Priority"], token: ["Authorization", "Cookie"] },
    } as unknown as Manifest;
    const headers = { "x-title": " Door ", priority: "5", authorization: "Bearer secret", cookie: "s=1" };
    expect(parseWebhookBody(m, Buffer.from("Ding dong"), "text/plain", {}, headers)).toEqual({
      message: "Ding dong",
      title: "Door",
      priority: "5",
    });
    expect(parseWebhookBody(m, Buffer.from("a=b&c"), FORM, {}, {})).toEqual({ message: "a=b&c" });
    expect(parseWebhookBody(m, Buffer.from('{"message":"m","title":"own"}'), "application/json", {}, headers)).toEqual({
      message: "m",
      title: "own",
      priority: "5",
    });
    expect(parseWebhookBody({ contentType: "text" } as Manifest, Buffer.from("x"), "")).toEqual({ body: "x" });
  });

  it("lenientJson: trailing commas are accepted (outside strings only); other manifests refuse them", () => {
    const m = { contentType: "json", lenientJson: true } as Manifest;
    const text = '{"a":[1,2,],"b":{"c":"x,}",},\n}';
    expect(parseWebhookBody(m, Buffer.from(text), "application/json")).toEqual({ a: [1, 2], b: { c: "x,}" } });
    expect(withoutTrailingCommas('["\\",]",]')).toBe('["\\",]"]');
    expect(code(() => parseWebhookBody(manifest("json"), Buffer.from(text), "application/json"))).toBe(
      "400 INVALID_JSON: Malformed JSON",
    );
    expect(code(() => parseWebhookBody(m, Buffer.from('{"a":,}'), "application/json"))).toBe(
      "400 INVALID_JSON: Malformed JSON",
    );
  });
});
