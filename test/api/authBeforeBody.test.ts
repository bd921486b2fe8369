// Credentials are checked from the headers before any body is read: a refused upload is answered
// while the client is still sending, and nothing of it reaches the disk.
import fs from "node:fs";
import http from "node:http";
import { startTestServer, type TestServer } from "../support/harness";
import { postWebhook } from "../support/webhooks";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const BOUNDARY = "----switchboard-test-boundary";
const MB = 1024 * 1024;

/**
 * Starts a 10 MB multipart upload but sends only its first 64 KB, then waits for the answer.
 * A server that reads the body before checking credentials never answers (the test times out).
 */
function partialUpload(authorization?: string): Promise<{ status: number; body: any; filesDuring: string[] }> {
  const url = new URL(server.url);
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${BOUNDARY}--\r\n`;
  const total = Buffer.byteLength(head) + 10 * MB + Buffer.byteLength(tail);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/api/v1/user_uploads",
        headers: {
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
          "content-length": String(total),
          ...(authorization ? { authorization } : {}),
        },
      },
      (res) => {
        const filesDuring = fs.readdirSync(server.config.uploadsDir, { recursive: true }) as string[];
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), filesDuring });
          req.destroy();
        });
      },
    );
    req.on("error", (err) => (err.message.includes("socket hang up") ? undefined : reject(err)));
    req.write(head);
    req.write(Buffer.alloc(64 * 1024, 1));
  });
}

it("no credentials: 401 before the body is sent, and no temp file", async () => {
  const res = await partialUpload();
  expect(res.status).toBe(401);
  expect(res.body.code).toBe("UNAUTHORIZED");
  expect(res.filesDuring).toEqual([]);
});

it("a wrong key: 401 before the body is sent, and no temp file", async () => {
  const res = await partialUpload(
    "Basic " + Buffer.from(`${server.users.member.email}:${"x".repeat(32)}`).toString("base64"),
  );
  expect(res.status).toBe(401);
  expect(res.filesDuring).toEqual([]);
});

it("a webhook with a wrong key is refused before its body is read", async () => {
  const url = new URL(server.url);
  const res = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: `/api/v1/external/helloworld?api_key=${"x".repeat(32)}&stream=general`,
        headers: { "content-type": "application/json", "content-length": String(4 * MB) },
      },
      (r) => {
        resolve(r.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on("error", (err) => (err.message.includes("socket hang up") ? undefined : reject(err)));
    req.write("{");
  });
  expect(res).toBe(401);
});

it("authenticated requests still read their bodies", async () => {
  const sent = await server
    .as(server.users.member)
    .post("/messages", { type: "stream", to: "general", topic: "body", content: "read after auth" });
  expect(sent.status).toBe(200);
  const hook = await postWebhook(server, "helloworld", {
    query: { stream: "general" },
    body: JSON.stringify({ featured_title: "T", featured_url: "https://example.com/t" }),
  });
  expect(hook.status).toBe(200);
});
