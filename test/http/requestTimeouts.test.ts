// A client that sends its request too slowly holds a connection for as long as it likes unless the
// server cuts it off: headers trickled in (slowloris) and a body that stalls are answered 408 with
// the envelope naming the limits, and the connection is closed. Requests sent in time, long-polls
// (whose request arrives at once, however long the answer takes) and idle keep-alive connections
// are not affected. The limits here are short (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS).
import net from "node:net";
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    HTTP_HEADERS_TIMEOUT_MS: "400",
    HTTP_REQUEST_TIMEOUT_MS: "800",
    EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: "2",
  });
});
afterAll(() => server.close());

/** Opens a socket, writes `first`, then `rest` after `delayMs`; resolves with all it receives. */
function slowClient(first: string, rest = "", delayMs = 0): Promise<{ answer: string; closed: boolean }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(Number(port), "127.0.0.1", () => {
      socket.write(first);
      if (rest) setTimeout(() => socket.writable && socket.write(rest), delayMs);
    });
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("close", () => resolve({ answer, closed: true }));
    socket.on("error", reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));

test("headers that never finish are a 408 naming both limits, and the connection closes", async () => {
  const { answer, closed } = await slowClient("GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\nX-Slow: ");
  expect(closed).toBe(true);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(answer).toMatch(/content-type: application\/json/i);
  expect(bodyOf(answer)).toEqual({
    result: "error",
    code: "REQUEST_TIMEOUT",
    msg: "Request not received in time: the limits are 400 ms for its headers and 800 ms for all of it",
    limit: 800,
  });
});

test("a body that stalls is cut off: 408, nothing stored", async () => {
  const auth = Buffer.from(`${server.users.member.email}:${server.users.member.apiKey}`).toString("base64");
  const before = await server.db("messages").count({ n: "*" }).first();
  const body = new URLSearchParams({ type: "stream", to: server.general.name, topic: "t", content: "x" }).toString();
  const head =
    "POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
    `Authorization: Basic ${auth}\r\nContent-Length: ${body.length}\r\n\r\n`;
  const { answer } = await slowClient(head + body.slice(0, 5));
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(bodyOf(answer)).toMatchObject({ result: "error", code: "REQUEST_TIMEOUT" });
  expect(await server.db("messages").count({ n: "*" }).first()).toEqual(before);
});

test("a request sent in time is answered, even in pieces", async () => {
  const { answer } = await slowClient(
    "GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n",
    "Connection: close\r\n\r\n",
    150,
  );
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
});

test("a long-poll outlives the request limit: its request arrived at once", async () => {
  const member = server.as(server.users.member);
  const queue = await member.post("/register", { event_types: JSON.stringify(["message"]) });
  const started = Date.now();
  const res = await member.get("/events", { queue_id: queue.body.queue_id, last_event_id: -1 });
  expect(res.status).toBe(200);
  expect(res.body.events).toEqual([expect.objectContaining({ type: "heartbeat" })]);
  // The heartbeat came after the long-poll timeout (2 s), well past the 800 ms request limit.
  expect(Date.now() - started).toBeGreaterThan(800);
});
