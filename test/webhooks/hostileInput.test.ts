// Hostile input found by an independent probe, through the real app on the real database: each
// answer is a 4xx envelope naming what was wrong (never a 500), and a refused delivery stores nothing.
//   - glob filters (branches, only_events, exclude_events) with character classes RE2 refuses
//   - XML element names the parser refuses (__proto__, constructor, prototype)
//   - NUL bytes and unpaired surrogates in rendered webhook messages (REST refuses them)
//   - invalid UTF-8 in multipart text fields (REST and the preview endpoint)
//   - requests without a Host header
//   - a 4 MB message is cut on its render thread, not on the event loop
import net from "node:net";
import { MAX_MESSAGE_LENGTH } from "../../src/limits";
import { batchSize } from "../../src/services/webhooks/deliveryLog";
import { decodeTaskMessage, encodeTaskMessage, TRANSFER_BODY_BYTES } from "../../src/webhooks/pipelineThreads";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    { WEBHOOK_DEDUP_WINDOW_SECONDS: "0" },
    { integrations: ["helloworld", "github", "pivotal"] },
  );
});
afterAll(() => server.close());

const hello = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ featured_title: "Aurora", featured_url: "https://en.wikipedia.org/wiki/Aurora", ...extra });

const githubPush = () =>
  JSON.stringify({
    ref: "refs/heads/main",
    before: "0".repeat(40),
    after: "1".repeat(40),
    created: false,
    deleted: false,
    forced: false,
    compare: "https://github.com/o/r/compare/a...b",
    commits: [],
    head_commit: null,
    repository: { name: "r", full_name: "o/r", html_url: "https://github.com/o/r", private: false },
    pusher: { name: "p" },
    sender: { login: "p", html_url: "https://github.com/p" },
  });

const newestDelivery = async () => {
  await server.deps.webhookOps.log.idle();
  return (await server.as(server.users.owner).get("/webhooks/deliveries", { limit: 1 })).body.deliveries[0];
};

describe("glob filters with character classes RE2 refuses", () => {
  // [raw parameter value, the bad pattern the answer must name]
  const BAD: [string, string][] = [
    ['["[z-a]"]', "[z-a]"],
    ['["[!]"]', "[!]"],
    ['["[^]"]', "[^]"],
    ['["[[:alpha:]]"]', "[[:alpha:]]"],
    ["main,[z-a]", "[z-a]"],
  ];
  const PARAMS = ["branches", "only_events", "exclude_events"];

  it.each(PARAMS)("%s: the webhook answers 400 naming the parameter and the pattern", async (param) => {
    const before = await latestMessageId(server);
    for (const [raw, pattern] of BAD) {
      const res = await postWebhook(server, "github", {
        query: { stream: "general", [param]: raw },
        headers: { "X-GitHub-Event": "push" },
        body: githubPush(),
      });
      expect([res.status, res.body.code, res.body.var_name]).toEqual([400, "BAD_REQUEST", param]);
      expect(res.body.msg).toContain(param);
      expect(res.body.msg).toContain(`'${pattern}'`);
    }
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("an event pattern that only breaks with ':' read as '.' is refused too", async () => {
    // `[0-:]` is a valid range; `[0-.]`, as event filters read it, is reversed.
    const res = await postWebhook(server, "github", {
      query: { stream: "general", only_events: '["[0-:]"]' },
      headers: { "X-GitHub-Event": "push" },
      body: githubPush(),
    });
    expect([res.status, res.body.var_name]).toEqual([400, "only_events"]);
    expect(res.body.msg).toContain("'[0-:]'");
    const branch = await postWebhook(server, "github", {
      query: { stream: "general", branches: '["[0-:]"]' },
      headers: { "X-GitHub-Event": "push" },
      body: githubPush(),
    });
    expect(branch.status).toBe(200); // a branch name is matched as written
  });

  it.each(PARAMS)("%s: the preview reports the same 400", async (param) => {
    for (const [raw, pattern] of BAD) {
      const res = await server.as(server.users.member).post("/webhooks/preview", {
        integration: "github",
        headers: JSON.stringify({ "X-GitHub-Event": "push" }),
        query: JSON.stringify({ [param]: raw }),
        body: githubPush(),
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ outcome: "error", error: { code: "BAD_REQUEST" } });
      expect(res.body.error.msg).toContain(param);
      expect(res.body.error.msg).toContain(`'${pattern}'`);
    }
  });

  it("a replay of such a delivery is logged as the same 400", async () => {
    await postWebhook(server, "github", {
      query: { stream: "general", exclude_events: '["[z-a]"]' },
      headers: { "X-GitHub-Event": "push" },
      body: githubPush(),
    });
    const original = await newestDelivery();
    expect([original.status, original.code]).toEqual([400, "BAD_REQUEST"]);
    const res = await server.as(server.users.owner).post(`/webhooks/deliveries/${original.id}/replay`);
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ replay_of: original.id, status: 400, code: "BAD_REQUEST" });
    expect(res.body.delivery.error).toContain("exclude_events");
    expect(res.body.delivery.error).toContain("'[z-a]'");
  });

  it("valid classes still filter", async () => {
    const res = await postWebhook(server, "github", {
      query: { stream: "general", branches: "dev,[a-m]ain,[!x]ev" },
      headers: { "X-GitHub-Event": "push" },
      body: githubPush(),
    });
    expect(res.status).toBe(200);
    const filtered = await postWebhook(server, "github", {
      query: { stream: "general", branches: "dev,[n-z]ain" },
      headers: { "X-GitHub-Event": "push" },
      body: githubPush(),
    });
    expect(filtered.status).toBe(200);
    expect((await newestDelivery()).ignored_reason).toBe("branch filtered");
  });
});

describe("XML element names the parser refuses", () => {
  const pivotal = (name: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><activity><event_type>story_update</event_type>` +
    `<description>x</description><${name}>1</${name}></activity>`;

  it.each(["__proto__", "constructor", "prototype"])(
    "<%s> is a 400 INVALID_PAYLOAD, webhook and preview",
    async (name) => {
      const before = await latestMessageId(server);
      const res = await postWebhook(server, "pivotal", {
        query: { stream: "general" },
        contentType: "application/xml",
        body: pivotal(name),
      });
      expect([res.status, res.body.code]).toEqual([400, "INVALID_PAYLOAD"]);
      expect(res.body.msg).toContain(name);
      const preview = await server.as(server.users.member).post("/webhooks/preview", {
        integration: "pivotal",
        headers: JSON.stringify({ "Content-Type": "application/xml" }),
        body: pivotal(name),
      });
      expect(preview.body).toMatchObject({ outcome: "error", error: { code: "INVALID_PAYLOAD" } });
      expect(await messagesSince(server, before)).toEqual([]);
    },
  );

  it("the same names as JSON keys or form fields are never a 500", async () => {
    for (const key of ["__proto__", "constructor", "prototype"]) {
      const json = await postWebhook(server, "helloworld", {
        query: { stream: "general" },
        body: `{"featured_title":"T","featured_url":"https://example.com","${key}":{"featured_title":"polluted"}}`,
      });
      expect(json.status).toBe(200);
      const form = await postWebhook(server, "helloworld", {
        query: { stream: "general" },
        contentType: "application/x-www-form-urlencoded",
        body: `payload=${encodeURIComponent(hello())}&${key}=x`,
      });
      expect(form.status).toBe(200);
    }
    expect(({} as Record<string, unknown>).featured_title).toBeUndefined();
  });
});

describe("text a message may not hold", () => {
  it.each([
    ["a NUL byte", "a\\u0000b", "null bytes"],
    ["an unpaired surrogate", "a\\ud800b", "an unpaired surrogate"],
  ])("%s in a rendered webhook message is a 400, as in REST; nothing is stored", async (_what, escaped, problem) => {
    const before = await latestMessageId(server);
    const body = `{"featured_title":"${escaped}","featured_url":"https://example.com"}`;
    const res = await postWebhook(server, "helloworld", { query: { stream: "general" }, body });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_PAYLOAD"]);
    expect(res.body.msg).toContain(problem);
    const preview = await server.as(server.users.member).post("/webhooks/preview", { integration: "helloworld", body });
    expect(preview.body).toMatchObject({ outcome: "error", error: { code: "INVALID_PAYLOAD" } });
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("an unpaired surrogate anywhere in the payload is refused before plugin code sees it", async () => {
    // Found by the fuzz probes: the gocd plugin's encodeURIComponent threw on one (a 500).
    const json = await postWebhook(server, "helloworld", {
      query: { stream: "general" },
      body: '{"featured_title":"T","featured_url":"https://example.com","unused":{"x\\udc00":1}}',
    });
    expect([json.status, json.body.code, json.body.pointers]).toEqual([400, "INVALID_PAYLOAD", ["/unused/x\udc00"]]);
    const xml = await postWebhook(server, "pivotal", {
      query: { stream: "general" },
      contentType: "application/xml",
      body: "<activity><event_type>story_update</event_type><description>&#xD800;</description></activity>",
    });
    expect(xml.status).toBeLessThan(500);
  });

  it("a NUL byte in the URL's topic is refused too", async () => {
    const res = await postWebhook(server, "helloworld", {
      query: { stream: "general", topic: "a\u0000b" },
      body: hello(),
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain("null bytes");
  });
});

/** A multipart body with these text fields, each given as bytes. */
function multipart(fields: [name: string, value: Buffer | string, headers?: string][]): {
  body: Buffer;
  type: string;
} {
  const boundary = "----hostile" + Math.random().toString(16).slice(2);
  const parts = fields.map(([name, value, headers]) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n${headers ?? ""}\r\n`),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from("\r\n"),
    ]),
  );
  return {
    body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe("invalid UTF-8 in multipart text fields", () => {
  const invalid = Buffer.from([0x61, 0xff, 0xfe, 0x62]);
  const sendMultipart = (path: string, fields: Parameters<typeof multipart>[0]) => {
    const { body, type } = multipart(fields);
    return server
      .as(server.users.member)
      .request("POST", path, {}, { headers: { "content-type": type }, rawBody: body });
  };

  it("REST: a 400 naming the field; nothing is stored", async () => {
    const before = await latestMessageId(server);
    const res = await sendMultipart("/messages", [
      ["type", "stream"],
      ["to", "general"],
      ["topic", "t"],
      ["content", invalid],
    ]);
    expect([res.status, res.body.code, res.body.var_name]).toEqual([400, "BAD_REQUEST", "content"]);
    expect(res.body.msg).toContain("not valid UTF-8");
    // Split across chunks or declared `binary`, valid UTF-8 is still read as UTF-8.
    const ok = await sendMultipart("/messages", [
      ["type", "stream"],
      ["to", "general"],
      ["topic", "t"],
      ["content", "caf\u00e9 \u{1F600}", "Content-Transfer-Encoding: binary\r\n"],
    ]);
    expect(ok.status).toBe(200);
    const stored = await messagesSince(server, before);
    expect(stored.map((m) => m.content)).toEqual(["caf\u00e9 \u{1F600}"]);
  });

  it("the preview endpoint (multipart REST) refuses it; a webhook body that is not UTF-8 is a 400", async () => {
    const res = await sendMultipart("/webhooks/preview", [
      ["integration", "helloworld"],
      ["body", Buffer.concat([Buffer.from('{"featured_title":"'), invalid, Buffer.from('"}')])],
    ]);
    expect([res.status, res.body.var_name]).toEqual([400, "body"]);
    const { body, type } = multipart([["payload", invalid]]);
    const webhook = await postWebhook(server, "helloworld", { query: { stream: "general" }, contentType: type, body });
    expect([webhook.status, webhook.body.msg]).toEqual([400, "Request body is not valid UTF-8"]);
  });

  it("any Content-Transfer-Encoding on a text field is answered with the envelope", async () => {
    for (const encoding of ["7bit", "8bit", "base64", "quoted-printable", "x-unknown"]) {
      const res = await sendMultipart("/messages", [
        ["type", "stream"],
        ["to", "general"],
        ["topic", "t"],
        [
          "content",
          encoding === "base64" ? Buffer.from("hi").toString("base64") : "hi",
          `Content-Transfer-Encoding: ${encoding}\r\n`,
        ],
      ]);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("fields named like Object's own properties stay parameters (reported as ignored)", async () => {
    const res = await sendMultipart("/messages", [
      ["type", "stream"],
      ["to", "general"],
      ["topic", "t"],
      ["content", "proto"],
      ["__proto__", "x"],
      ["constructor", "y"],
    ]);
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(["__proto__", "constructor"]);
  });
});

function rawRequest(bytes: string): Promise<string> {
  const port = Number(new URL(server.url).port);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(bytes));
    let answer = "";
    socket.on("data", (d) => (answer += String(d)));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("requests without a Host header", () => {
  it("HTTP/1.1: our 400 envelope, not Node's bare answer", async () => {
    const answer = await rawRequest("GET /api/v1/server_settings HTTP/1.1\r\nConnection: close\r\n\r\n");
    const [head, body] = answer.split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body)).toEqual({
      result: "error",
      msg: "An HTTP/1.1 request must have a Host header",
      code: "BAD_REQUEST",
    });
  });

  it("HTTP/1.0 (where Host is optional): answered as usual", async () => {
    const answer = await rawRequest("GET /api/v1/server_settings HTTP/1.0\r\n\r\n");
    const [head, body] = answer.split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toMatch(/^HTTP\/1\.[01] 200 OK$/);
    expect(JSON.parse(body)).toMatchObject({ result: "success" });
  });
});

describe("a large delivery's work is done on its render thread", () => {
  it("a 4 MB message comes back from the thread already cut to the length limit", async () => {
    const integration = server.deps.integrations.get("helloworld")!;
    const title = "word ".repeat(800_000);
    const result = await server.deps.webhookOps.threads.run(integration, {
      headers: { "content-type": "application/json" },
      query: {},
      body: Buffer.from(hello({ featured_title: title })),
    });
    expect("outcome" in result && result.outcome.kind).toBe("messages");
    const [message] = "outcome" in result && result.outcome.kind === "messages" ? result.outcome.messages : [];
    expect(message.content.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(message.content).toMatch(/\[message truncated\]$/);
  });

  it("a large body crosses to its thread as a transferred buffer, not inside a string", () => {
    const task = { id: 1, dir: "helloworld", request: { headers: {}, query: {} } };
    const big = Buffer.alloc(4 * 1024 * 1024, 0x78);
    const { message, transfer } = encodeTaskMessage(task, big);
    expect(typeof message).toBe("object");
    expect(transfer?.byteLength).toBe(big.length);
    const decoded = decodeTaskMessage(message);
    expect(decoded.task).toEqual(task);
    expect(decoded.body.equals(big)).toBe(true); // (toEqual compares a 4 MB Buffer byte by byte, for minutes)
    const small = encodeTaskMessage(task, Buffer.alloc(TRANSFER_BODY_BYTES - 1, 0x78));
    expect([typeof small.message, small.transfer]).toEqual(["string", undefined]);
  });

  it("the delivery log writes large bodies in INSERTs of bounded size", () => {
    const entries = (n: number, bytes: number) => Array.from({ length: n }, () => ({ body: Buffer.alloc(bytes) }));
    // 4 MB bodies are logged as 256 KB each: 4 per INSERT (1 MB), not 40 (10 MB).
    expect(batchSize(entries(40, 4 * 1024 * 1024), 256 * 1024)).toBe(4);
    expect(batchSize(entries(100, 100), 256 * 1024)).toBe(40);
    expect(batchSize(entries(2, 8 * 1024 * 1024), 16 * 1024 * 1024)).toBe(1);
  });
});
