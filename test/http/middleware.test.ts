// The HTTP contract's middleware (error handler, body parser, envelope, Node server) on a small real
// Koa app over real HTTP, with no database: what every endpoint inherits from src/http/.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import Router from "@koa/router";
import pino from "pino";
import { ApiError, Errors } from "../../src/errors";
import { bodyParser } from "../../src/http/bodyParser";
import { ok } from "../../src/http/envelope";
import { errorHandler, type ErrorHandlerOptions } from "../../src/http/errorHandler";
import { P, parseParams } from "../../src/http/params";
import { createHttpServer } from "../../src/http/server";
import { JsonTooDeepError } from "../../src/json";

const MAX_BODY = 2000;
const MAX_UPLOAD = 3000;
const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-http-mw-"));
const logLines: Record<string, unknown>[] = [];
const outages: unknown[] = [];
const unreachable = new Error("connect ECONNREFUSED (test outage)");

function buildApp(handlerOptions: ErrorHandlerOptions, withLogger = true): Koa {
  const app = new Koa();
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk, _enc, done) {
        logLines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    }),
  );
  app.use(async (ctx, next) => {
    ctx.state.requestId = ctx.get("x-request-id") || "req-1";
    if (withLogger) ctx.state.log = logger;
    await next();
  });
  app.use(errorHandler(handlerOptions));
  app.use(bodyParser({ maxBodyBytes: MAX_BODY, maxUploadBytes: MAX_UPLOAD, uploadDir }));
  const router = new Router();
  router.all("/echo", (ctx) => ok(ctx, { params: ctx.state.rawParams }));
  router.all("/declared", (ctx) => {
    const { a } = parseParams(ctx, { a: P.string() });
    ok(ctx, { a });
  });
  router.post("/only-post", (ctx) => ok(ctx));
  router.get("/api-error", () => {
    throw new ApiError("RATE_LIMIT_HIT", "slow down", { "retry-after": 3 }, { headers: { "Retry-After": "3" } });
  });
  router.get("/api-success-error", () => {
    throw new ApiError("BAD_REQUEST", "odd but 2xx", { extra: 1 }, { status: 202 });
  });
  router.get("/too-deep", () => {
    throw new JsonTooDeepError(7);
  });
  router.get("/koa-413", () => {
    throw Object.assign(new Error("big"), { status: 413 });
  });
  router.get("/formidable-413", () => {
    throw Object.assign(new Error("big file"), { httpCode: 413 });
  });
  router.get("/raw-body-413", () => {
    throw Object.assign(new Error("big"), { type: "entity.too.large" });
  });
  router.get("/client-4xx", () => {
    throw Object.assign(new Error("no such thing"), { statusCode: 409 });
  });
  router.get("/client-4xx-quiet", () => {
    throw Object.assign(new Error(""), { status: 400 });
  });
  router.get("/server-5xx", () => {
    throw Object.assign(new Error("upstream"), { status: 502 });
  });
  router.get("/status-499", () => {
    throw Object.assign(new Error("edge"), { httpCode: 499 });
  });
  router.get("/text", (ctx) => {
    ctx.body = "plain text";
  });
  router.get("/two", (ctx) => ok(ctx));
  router.post("/two", (ctx) => ok(ctx));
  router.get("/api-200", () => {
    throw new ApiError("BAD_REQUEST", "exactly 200", {}, { status: 200 });
  });
  router.get("/api-300", () => {
    throw new ApiError("BAD_REQUEST", "a 300", {}, { status: 300 });
  });
  router.get("/status-500", () => {
    throw Object.assign(new Error("five hundred"), { status: 500 });
  });
  router.get("/status-text", () => {
    throw Object.assign(new Error("text status"), { status: "404" });
  });
  router.get("/throw-null", () => {
    throw null; // what a careless library might do
  });
  router.get("/crash", () => {
    throw new Error("secret internals");
  });
  router.get("/outage", () => {
    throw unreachable;
  });
  router.get("/empty-404", (ctx) => {
    ctx.status = 404;
  });
  router.get("/body-404", (ctx) => {
    ctx.status = 404;
    ctx.body = { result: "error", msg: "Gone", code: "NOT_FOUND" };
  });
  router.get("/envelope-405", (ctx) => {
    ctx.status = 405;
    ctx.body = { result: "error", msg: "own", code: "METHOD_NOT_ALLOWED" };
  });
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}

interface Started {
  url: string;
  port: number;
  close(): Promise<void>;
}

async function start(app: Koa): Promise<Started> {
  const server = createHttpServer(app, { headersTimeoutMs: 20_000, requestTimeoutMs: 120_000 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let main: Started;
let plain: Started;
let bare: Started;

beforeAll(async () => {
  main = await start(
    buildApp({
      isDatabaseUnreachable: (err) => err === unreachable,
      onDatabaseUnreachable: (err) => outages.push(err),
      retryAfterSeconds: 9,
    }),
  );
  plain = await start(buildApp({}));
  bare = await start(buildApp({ isDatabaseUnreachable: (err) => err === unreachable }, false));
});

afterAll(async () => {
  await main.close();
  await plain.close();
  await bare.close();
  fs.rmSync(uploadDir, { recursive: true, force: true });
});

async function call(
  pathAndQuery: string,
  init: RequestInit = {},
  server: Started = main,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(server.url + pathAndQuery, init);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
}

/** Sends raw bytes and returns the raw answer (for requests fetch would not send). */
function rawRequest(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(bytes));
    let answer = "";
    socket.on("data", (d) => (answer += String(d)));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const urlencoded = { "content-type": "application/x-www-form-urlencoded" };
const json = { "content-type": "application/json" };

describe("error handler", () => {
  it("answers an unknown path with the NOT_FOUND envelope", async () => {
    const res = await call("/nowhere");
    expect([res.status, res.body]).toEqual([404, { result: "error", msg: "Endpoint not found", code: "NOT_FOUND" }]);
    expect((await call("/empty-404")).body).toEqual({ result: "error", msg: "Endpoint not found", code: "NOT_FOUND" });
  });

  it("keeps a handler's own 404 body", async () => {
    const res = await call("/body-404");
    expect([res.status, res.body]).toEqual([404, { result: "error", msg: "Gone", code: "NOT_FOUND" }]);
  });

  it("turns the router's 405 into an envelope naming the allowed methods", async () => {
    const res = await call("/only-post", { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({
      result: "error",
      msg: "Method GET is not allowed here; allowed: POST",
      code: "METHOD_NOT_ALLOWED",
      allowed_methods: ["POST"],
    });
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("turns the router's 501 for an unknown method into the same envelope", async () => {
    const res = await call("/only-post", { method: "PURGE" });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({
      result: "error",
      msg: "Method PURGE is not allowed here; allowed: POST",
      code: "METHOD_NOT_ALLOWED",
      allowed_methods: ["POST"],
    });
  });

  it("lists every allowed method of a path with several", async () => {
    const res = await call("/two", { method: "DELETE" });
    expect([res.status, res.body.allowed_methods, res.headers.get("allow")]).toEqual([
      405,
      ["HEAD", "GET", "POST"],
      "HEAD, GET, POST",
    ]);
  });

  it("leaves a handler's non-envelope 200 answer alone", async () => {
    const res = await fetch(main.url + "/text");
    expect([res.status, await res.text()]).toEqual([200, "plain text"]);
  });

  it("keeps a handler's own 405 envelope", async () => {
    const res = await call("/envelope-405");
    expect([res.status, res.body]).toEqual([405, { result: "error", msg: "own", code: "METHOD_NOT_ALLOWED" }]);
  });

  it("answers OPTIONS with the allowed methods in a success envelope", async () => {
    const res = await call("/only-post", { method: "OPTIONS" });
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "", allowed_methods: ["POST"] }]);
    const echo = await call("/echo", { method: "OPTIONS" });
    expect(echo.body).toEqual({ result: "success", msg: "", params: {} });
  });

  it("writes an ApiError as its envelope with its status, extras and headers", async () => {
    const res = await call("/api-error");
    expect([res.status, res.body]).toEqual([
      429,
      { result: "error", msg: "slow down", code: "RATE_LIMIT_HIT", "retry-after": 3 },
    ]);
    expect(res.headers.get("retry-after")).toBe("3");
  });

  it("marks an ApiError with a 2xx status as a success", async () => {
    const res = await call("/api-success-error");
    expect([res.status, res.body]).toEqual([
      202,
      { result: "success", msg: "odd but 2xx", code: "BAD_REQUEST", extra: 1 },
    ]);
  });

  it("calls an ApiError with a status from 200 to 299 a success, and 300 an error", async () => {
    expect((await call("/api-200")).body).toEqual({ result: "success", msg: "exactly 200", code: "BAD_REQUEST" });
    const three = await call("/api-300", { redirect: "manual" });
    expect([three.status, three.body]).toEqual([300, { result: "error", msg: "a 300", code: "BAD_REQUEST" }]);
  });

  it("answers library errors with status 500, a non-numeric status or no error at all as a 500", async () => {
    for (const route of ["/status-500", "/status-text", "/throw-null"]) {
      const res = await call(route, { headers: { "x-request-id": "r" } });
      expect([route, res.status, res.body]).toEqual([
        route,
        500,
        { result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR", request_id: "r" },
      ]);
    }
  });

  it("answers a 500 even where no request logger is set", async () => {
    const res = await call("/crash", { headers: { "x-request-id": "quiet" } }, bare);
    expect([res.status, res.body.request_id]).toEqual([500, "quiet"]);
  });

  it("answers an outage with the default Retry-After when told nothing else, reporting to no one", async () => {
    const res = await call("/outage", {}, bare);
    expect([res.status, res.body["retry-after"], res.headers.get("retry-after")]).toEqual([503, 5, "5"]);
  });

  it("translates the nesting limit and size errors of the libraries", async () => {
    expect((await call("/too-deep")).body).toEqual({
      result: "error",
      msg: "JSON is nested too deeply: the limit is 7 levels",
      code: "BAD_REQUEST",
      limit: 7,
    });
    for (const route of ["/koa-413", "/formidable-413", "/raw-body-413"]) {
      const res = await call(route);
      expect([route, res.status, res.body]).toEqual([
        route,
        413,
        { result: "error", msg: "Request body is too large", code: "REQUEST_TOO_LARGE" },
      ]);
    }
  });

  it("keeps a library's 4xx status and message, with a default message", async () => {
    const res = await call("/client-4xx");
    expect([res.status, res.body]).toEqual([409, { result: "error", msg: "no such thing", code: "BAD_REQUEST" }]);
    const quiet = await call("/client-4xx-quiet");
    expect([quiet.status, quiet.body]).toEqual([400, { result: "error", msg: "Bad request", code: "BAD_REQUEST" }]);
    const edge = await call("/status-499");
    expect([edge.status, edge.body]).toEqual([499, { result: "error", msg: "edge", code: "BAD_REQUEST" }]);
  });

  it("answers anything else as a logged 500 carrying the request id and no internals", async () => {
    logLines.length = 0;
    for (const route of ["/crash", "/server-5xx"]) {
      const res = await call(route, { headers: { "x-request-id": `rid-${route}` } });
      expect([res.status, res.body]).toEqual([
        500,
        { result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR", request_id: `rid-${route}` },
      ]);
    }
    expect(logLines.map((l) => [l.msg, l.requestId, (l.err as { message: string }).message])).toEqual([
      ["unhandled error", "rid-/crash", "secret internals"],
      ["unhandled error", "rid-/server-5xx", "upstream"],
    ]);
  });

  it("answers an unreachable database with 503 and Retry-After, and reports it", async () => {
    outages.length = 0;
    const res = await call("/outage");
    expect([res.status, res.body]).toEqual([
      503,
      {
        result: "error",
        msg: "The database is unreachable; try again shortly",
        code: "SERVICE_UNAVAILABLE",
        "retry-after": 9,
      },
    ]);
    expect(res.headers.get("retry-after")).toBe("9");
    expect(outages).toEqual([unreachable]);
  });

  it("without outage options, the same error is an ordinary 500", async () => {
    const res = await call("/outage", {}, plain);
    expect([res.status, (res.body as { code: string }).code]).toEqual([500, "INTERNAL_SERVER_ERROR"]);
  });
});

describe("body parser", () => {
  it("reads the query string", async () => {
    expect((await call("/echo?a=1&b=x%20y")).body.params).toEqual({ a: "1", b: "x y" });
  });

  it("reads an urlencoded body over the query string", async () => {
    const res = await call("/echo?a=query&q=1", { method: "POST", headers: urlencoded, body: form({ a: "body" }) });
    expect(res.body.params).toEqual({ a: "body", q: "1" });
  });

  it("reads a JSON object, keeping non-string values as their JSON text", async () => {
    const res = await call("/echo?z=1", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ s: "text", n: 5, list: [1, 2], obj: { k: true }, none: null }),
    });
    expect(res.body.params).toEqual({ z: "1", s: "text", n: "5", list: "[1,2]", obj: '{"k":true}', none: "null" });
  });

  it("treats a blank JSON body as no parameters", async () => {
    expect((await call("/echo?k=v", { method: "POST", headers: json, body: "  \n" })).body.params).toEqual({ k: "v" });
  });

  it("refuses JSON bodies that are not an object of parameters", async () => {
    const expected = {
      result: "error",
      msg: "A JSON request body must be an object of parameters",
      code: "BAD_REQUEST",
    };
    for (const body of ["[1]", "null", '"text"', "3"]) {
      const res = await call("/echo", { method: "POST", headers: json, body });
      expect([body, res.status, res.body]).toEqual([body, 400, expected]);
    }
  });

  it("answers malformed JSON with INVALID_JSON and deep JSON with the nesting limit", async () => {
    const broken = await call("/echo", { method: "POST", headers: json, body: '{"a":' });
    expect([broken.status, broken.body]).toEqual([
      400,
      { result: "error", msg: "Malformed JSON", code: "INVALID_JSON" },
    ]);
    const deep = await call("/echo", {
      method: "POST",
      headers: json,
      body: `{"a":${"[".repeat(120)}${"]".repeat(120)}}`,
    });
    expect([deep.status, deep.body]).toEqual([
      400,
      { result: "error", msg: "JSON is nested too deeply: the limit is 100 levels", code: "BAD_REQUEST", limit: 100 },
    ]);
  });

  it("refuses a body over the limit, and accepts one at it", async () => {
    const over = await call("/echo", { method: "POST", headers: urlencoded, body: `a=${"x".repeat(MAX_BODY)}` });
    expect([over.status, over.body]).toEqual([
      413,
      {
        result: "error",
        msg: `Request body is too large: the limit is ${MAX_BODY} bytes`,
        code: "REQUEST_TOO_LARGE",
        limit: MAX_BODY,
      },
    ]);
    const at = await call("/echo", { method: "POST", headers: urlencoded, body: `a=${"x".repeat(MAX_BODY - 2)}` });
    expect(at.body.params).toEqual({ a: "x".repeat(MAX_BODY - 2) });
  });

  it("answers a body cut short by the client (half-closed before Content-Length) as malformed", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ port: main.port, host: "127.0.0.1", allowHalfOpen: true }, () => {
        socket.write(
          "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
            "Content-Length: 100\r\n\r\na=1",
        );
        socket.end();
      });
      let text = "";
      socket.on("data", (d) => (text += String(d)));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      result: "error",
      msg: "Malformed HTTP request",
      code: "BAD_REQUEST",
    });
  });

  it("refuses a body that is not UTF-8", async () => {
    const res = await call("/echo", { method: "POST", headers: urlencoded, body: Buffer.from([0x61, 0x3d, 0xff]) });
    expect([res.status, res.body]).toEqual([
      400,
      { result: "error", msg: "Request body is not valid UTF-8", code: "BAD_REQUEST" },
    ]);
  });

  it("ignores the body of a GET with a Content-Length but reads a chunked one", async () => {
    const sized = await rawRequest(
      main.port,
      "GET /echo?q=1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Content-Length: 3\r\nConnection: close\r\n\r\na=1",
    );
    expect(JSON.parse(sized.slice(sized.indexOf("\r\n\r\n") + 4))).toEqual({
      result: "success",
      msg: "",
      params: { q: "1" },
    });
    const chunked = await rawRequest(
      main.port,
      "GET /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\na=1\r\n0\r\n\r\n",
    );
    const bodyText = chunked.slice(chunked.indexOf("\r\n\r\n") + 4);
    // A chunked answer: the JSON sits between the chunk-size lines.
    expect(bodyText).toContain('"params":{"a":"1"}');
  });

  it("reads multipart fields over the query string", async () => {
    const data = new FormData();
    data.append("a", "multi");
    data.append("b", "2");
    const res = await call("/echo?a=query&c=3", { method: "POST", body: data });
    expect(res.body.params).toEqual({ a: "multi", b: "2", c: "3" });
  });

  it("refuses too many multipart fields, naming the limit", async () => {
    const data = new FormData();
    for (let i = 0; i < 1001; i++) data.append(`f${i}`, "v");
    const res = await call("/echo", { method: "POST", body: data });
    expect([res.status, res.body]).toEqual([
      400,
      { result: "error", msg: "Too many multipart fields: the limit is 1000", code: "BAD_REQUEST" },
    ]);
  });

  it("refuses multipart text and files over their limits", async () => {
    const text = new FormData();
    text.append("a", "x".repeat(MAX_BODY + 10));
    const textRes = await call("/echo", { method: "POST", body: text });
    expect([textRes.status, textRes.body]).toEqual([
      413,
      {
        result: "error",
        msg: `Multipart text is too large: the limit is ${MAX_BODY} bytes`,
        code: "REQUEST_TOO_LARGE",
        limit: MAX_BODY,
      },
    ]);
    const file = new FormData();
    file.append("upload", new Blob(["y".repeat(MAX_UPLOAD + 10)]), "big.txt");
    const fileRes = await call("/echo", { method: "POST", body: file });
    expect([fileRes.status, fileRes.body]).toEqual([
      413,
      {
        result: "error",
        msg: `Upload is too large: the limit is ${MAX_UPLOAD} bytes`,
        code: "REQUEST_TOO_LARGE",
        limit: MAX_UPLOAD,
      },
    ]);
  });

  it("refuses a malformed multipart body", async () => {
    const res = await call("/echo", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
      body: '--zzz\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
    });
    expect(res.status).toBe(400);
    expect((res.body.msg as string).startsWith("Malformed multipart body: ")).toBe(true);
    expect(res.body.code).toBe("BAD_REQUEST");
  });

  it("leaves no temporary upload files behind, answered or refused", async () => {
    const small = new FormData();
    small.append("upload", new Blob(["hello"]), "a.txt");
    expect((await call("/echo", { method: "POST", body: small })).status).toBe(200);
    const big = new FormData();
    big.append("upload", new Blob(["z".repeat(MAX_UPLOAD * 2)]), "b.txt");
    expect((await call("/echo", { method: "POST", body: big })).status).toBe(413);
    expect(fs.readdirSync(uploadDir)).toEqual([]);
  });

  it("refuses a query string with bad percent-encoding", async () => {
    const res = await call("/echo?a=%E0%A4%A");
    expect([res.status, res.body]).toEqual([
      400,
      { result: "error", msg: "Query string is not valid: bad percent-encoding or invalid UTF-8", code: "BAD_REQUEST" },
    ]);
  });
});

describe("success envelope", () => {
  it("lists undeclared parameters as ignored_parameters_unsupported, and only when there are some", async () => {
    expect((await call("/declared?a=1&b=2&c=3")).body).toEqual({
      result: "success",
      msg: "",
      a: "1",
      ignored_parameters_unsupported: ["b", "c"],
    });
    expect((await call("/declared?a=1")).body).toEqual({ result: "success", msg: "", a: "1" });
  });

  it("keeps parameters named like Object's own properties as parameters, in the query, a form and JSON", async () => {
    const ignored = (res: { body: Record<string, unknown> }) => res.body.ignored_parameters_unsupported;
    expect(ignored(await call("/declared?a=1&__proto__=2&toString=3&constructor=4"))).toEqual([
      "__proto__",
      "toString",
      "constructor",
    ]);
    const form = await call("/declared", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1&__proto__=x&hasOwnProperty=y",
    });
    expect([form.body.a, ignored(form)]).toEqual(["1", ["__proto__", "hasOwnProperty"]]);
    const json = await call("/declared", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a": "1", "__proto__": {"polluted": true}}',
    });
    expect([json.body.a, ignored(json)]).toEqual(["1", ["__proto__"]]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("Node server errors", () => {
  it("answers a malformed request line with the JSON envelope", async () => {
    const answer = await rawRequest(main.port, "NOT HTTP AT ALL\r\n\r\n");
    const [head, body] = answer.split("\r\n\r\n");
    expect(head.split("\r\n")).toEqual([
      "HTTP/1.1 400 Bad Request",
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
    ]);
    expect(JSON.parse(body)).toEqual({ result: "error", msg: "Malformed HTTP request", code: "BAD_REQUEST" });
  });

  it("answers oversized headers with 431 naming the limit", async () => {
    const answer = await rawRequest(main.port, `GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20000)}\r\n\r\n`);
    const [head, body] = answer.split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(JSON.parse(body)).toEqual({
      result: "error",
      msg: "Request headers (URL included) are too large: the limit is 16384 bytes",
      code: "REQUEST_HEADERS_TOO_LARGE",
      limit: 16384,
    });
  });
});

describe("Errors used by the contract", () => {
  it("names the allowed methods only when there are some", () => {
    const none = Errors.methodNotAllowed("GET", []);
    expect([none.message, none.headers]).toEqual(["Method GET is not allowed here", {}]);
  });
});
