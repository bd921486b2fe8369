// Secrets never reach the logs: API keys in URLs and auth headers are redacted.
import { startTestServer, type TestServer } from "../support/harness";

const lines: string[] = [];
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    { LOG_LEVEL: "info" },
    { logDestination: { write: (line: string) => void lines.push(line) } },
  );
});
afterAll(async () => {
  await server.close();
});

it("logs one line per request with the API key redacted from URL and headers", async () => {
  const key = server.users.member.apiKey;
  await server.as(server.users.member).get("/users/me", { api_key: key });
  await fetch(`${server.url}/api/v1/external/helloworld?api_key=${server.users.bot.apiKey}&stream=general`, {
    method: "POST",
    body: "{}",
  });
  await server.as(server.users.member).post("/messages", { type: "stream", to: "nowhere", content: "x", topic: "t" });
  const text = lines.join("");
  expect(text).toContain('"url":"/api/v1/users/me?api_key=[redacted]"');
  expect(text).toContain("/api/v1/external/helloworld?api_key=[redacted]&stream=general");
  expect(text).not.toContain(key);
  expect(text).not.toContain(server.users.bot.apiKey);
  expect(text).not.toContain(Buffer.from(`${server.users.member.email}:${key}`).toString("base64"));
});
