// Answers that Node, the router or a parser used to give outside the JSON envelope, and nesting
// that used to crash a recursive JSON.stringify: every one is now an envelope with a code.
import net from "node:net";
import { MAX_JSON_DEPTH } from "../../src/json";
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MAX_BODY_BYTES: "65536" });
});
afterAll(() => server.close());

const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

async function raw(method: string, path: string, init: RequestInit = {}) {
  const res = await fetch(server.url + path, { method, ...init });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type") ?? "", allow: res.headers.get("allow"), text };
}

/** Writes bytes straight to the socket and returns the whole answer (for requests fetch cannot send). */
function rawSocket(bytes: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(bytes));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("JSON nesting depth", () => {
  it("a 10,000-deep JSON body is a 400 naming the limit", async () => {
    const res = await raw("POST", "/api/v1/messages", {
      headers: {
        "content-type": "application/json",
        authorization:
          "Basic " + Buffer.from(`${server.users.member.email}:${server.users.member.apiKey}`).toString("base64"),
      },
      body: `{"a": ${deep(10_000)}}`,
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: `JSON is nested too deeply: the limit is ${MAX_JSON_DEPTH} levels`,
      limit: MAX_JSON_DEPTH,
    });
  });

  it("without credentials the body is not even read: an envelope, never a 500", async () => {
    for (const path of ["/api/v1/server_settings", "/api/v1/messages"]) {
      const res = await raw("POST", path, {
        headers: { "content-type": "application/json" },
        body: `{"a": ${deep(10_000)}}`,
      });
      expect(res.status).toBeLessThan(500);
      expect(JSON.parse(res.text).result).toBe("error");
    }
  });

  it("a deep JSON-encoded parameter is a 400 naming the limit", async () => {
    const res = await server.as(server.users.member).get("/messages", {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: deep(MAX_JSON_DEPTH + 1),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "BAD_REQUEST", limit: MAX_JSON_DEPTH });
  });

  it("nesting at the limit is still parsed (and then judged on its content)", async () => {
    const res = await server.as(server.users.member).get("/messages", {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: deep(MAX_JSON_DEPTH),
    });
    expect(res.status).toBe(400);
    expect(res.body.limit).toBeUndefined();
    expect(res.body.code).toBe("BAD_REQUEST");
  });
});

describe("methods the router does not serve", () => {
  it.each([
    ["DELETE", "/api/v1/users/me", "GET"],
    ["PUT", "/api/v1/messages", "POST"],
    ["TRACE", "/api/v1/server_settings", "GET"],
  ])("%s %s is a 405 envelope with the allowed methods", async (method, path, allowed) => {
    const res = await raw(method, path);
    expect(res.status).toBe(405);
    expect(res.type).toMatch(/^application\/json/);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ result: "error", code: "METHOD_NOT_ALLOWED" });
    expect(body.allowed_methods).toContain(allowed);
    expect(res.allow).toContain(allowed);
  });

  it("OPTIONS answers with the envelope and the allowed methods", async () => {
    const res = await raw("OPTIONS", "/api/v1/messages");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ result: "success", msg: "", allowed_methods: ["POST", "HEAD", "GET"] });
  });
});

describe("requests Node refuses before the app sees them", () => {
  it("a 20 KB URL is a 431 envelope naming the limit", async () => {
    const res = await raw("GET", `/api/v1/server_settings?x=${"a".repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.text)).toMatchObject({ result: "error", code: "REQUEST_HEADERS_TOO_LARGE" });
  });

  it("a body longer than its Content-Length (junk after it) is a 400 envelope", async () => {
    const answer = await rawSocket(
      "POST /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Content-Length: 3\r\n\r\na=1 garbage that is not a request\r\n\r\n",
    );
    // Node may refuse the junk before or after answering the first request: every answer is an envelope.
    const answers = answer.split(/(?=HTTP\/1\.1 )/);
    for (const a of answers) expect(a).toMatch(/content-type: application\/json/i);
    const last = answers[answers.length - 1];
    expect(last).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(last.slice(last.indexOf("\r\n\r\n") + 4))).toMatchObject({
      result: "error",
      code: "BAD_REQUEST",
    });
  });
});

describe("multipart limits name the limit that applied", () => {
  it("a text field over the body limit is a 413 naming the text-field limit, not the upload limit", async () => {
    const form = new FormData();
    form.append("type", "stream");
    form.append("to", "general");
    form.append("topic", "big");
    form.append("content", "x".repeat(100_000));
    const res = await fetch(server.url + "/api/v1/messages", {
      method: "POST",
      headers: {
        authorization:
          "Basic " + Buffer.from(`${server.users.member.email}:${server.users.member.apiKey}`).toString("base64"),
      },
      body: form,
    });
    const body = (await res.json()) as { msg: string };
    expect(res.status).toBe(413);
    expect(body).toMatchObject({ code: "REQUEST_TOO_LARGE", limit: 65536 });
    expect(body.msg).toBe("Multipart text is too large: the limit is 65536 bytes");
  });
});

describe("text parameters", () => {
  const send = (fields: Record<string, string>) =>
    fetch(server.url + "/api/v1/messages", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization:
          "Basic " + Buffer.from(`${server.users.member.email}:${server.users.member.apiKey}`).toString("base64"),
      },
      body: JSON.stringify({ type: "stream", to: "general", topic: "t", content: "c", ...fields }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  it("a NUL byte in content or topic is refused, naming the parameter", async () => {
    expect(await send({ content: "a\u0000b" })).toEqual({
      status: 400,
      body: { result: "error", code: "BAD_REQUEST", msg: "content must not contain null bytes", var_name: "content" },
    });
    expect((await send({ topic: "x\u0000" })).body).toMatchObject({ var_name: "topic" });
  });

  it("a lone surrogate (a JSON \\ud800 escape) is refused; a real astral character is fine", async () => {
    const lone = await fetch(server.url + "/api/v1/messages", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization:
          "Basic " + Buffer.from(`${server.users.member.email}:${server.users.member.apiKey}`).toString("base64"),
      },
      body: '{"type":"stream","to":"general","topic":"t","content":"bad \\ud800 half"}',
    });
    expect(lone.status).toBe(400);
    expect(((await lone.json()) as { msg: string }).msg).toBe(
      "content contains an unpaired surrogate (invalid Unicode)",
    );
    expect((await send({ content: "fine 🎉" })).status).toBe(200);
  });
});

describe("images in messages", () => {
  it("a remote image is linked, not embedded; an uploaded one is embedded", async () => {
    const client = server.as(server.users.member);
    const sent = await client.post("/messages", {
      type: "stream",
      to: "general",
      topic: "images",
      content: "![tracker](https://third-party.example/pixel.png) and ![ours](/user_uploads/1/ab/cat.png)",
    });
    expect(sent.status).toBe(200);
    const got = await client.get(`/messages/${sent.body.id}`);
    const html: string = got.body.message.content;
    expect(html).not.toContain('<img src="https://third-party.example');
    expect(html).toContain('<a href="https://third-party.example/pixel.png">tracker</a>');
    expect(html).toContain('<img src="/user_uploads/1/ab/cat.png" alt="ours">');
  });
});
