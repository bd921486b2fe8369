// Guessing API keys is throttled per client IP and per email; a key works only on its own
// organization's host (a bare host is the root organization's).
import http from "node:http";
import { createRealm } from "../../src/services/realms/realms";
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
const BUDGET = 5;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: String(BUDGET), RATE_LIMIT_WINDOW_SECONDS: "600" });
});
afterAll(() => server.close());

/** GET /api/v1/users/me from a chosen loopback address with a chosen Host (fetch can set neither). */
function getMe(
  email: string,
  key: string,
  options: { from?: string; host?: string } = {},
): Promise<{ status: number; body: any; retryAfter?: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: url.hostname,
        port: url.port,
        path: "/api/v1/users/me",
        localAddress: options.from ?? "127.0.0.1",
        headers: {
          authorization: "Basic " + Buffer.from(`${email}:${key}`).toString("base64"),
          ...(options.host ? { host: options.host } : {}),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text),
            retryAfter: res.headers["retry-after"] as string,
          }),
        );
      },
    );
    req.on("error", reject);
  });
}

const wrongKey = "x".repeat(32);

it("an IP that keeps sending wrong keys gets 429 with Retry-After for them; correct keys from it still work", async () => {
  const ip = "127.0.0.11";
  for (let i = 0; i < BUDGET; i++) {
    expect((await getMe(`nobody${i}@test.example`, wrongKey, { from: ip })).status).toBe(401);
  }
  const refused = await getMe("nobody@test.example", wrongKey, { from: ip });
  expect(refused.status).toBe(429);
  expect(refused.body.code).toBe("RATE_LIMIT_HIT");
  expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  // One client's wrong key must not lock out the others behind the same IP (a NAT, a shared sender).
  const { member } = server.users;
  const me = await getMe(member.email, member.apiKey, { from: ip });
  expect(me.status).toBe(200);
  expect(me.body.email).toBe(member.email);
  expect((await getMe("nobody@test.example", wrongKey, { from: ip })).status).toBe(429);
});

it("wrong keys for one email from many IPs hit the email's budget; its correct key still works", async () => {
  const { other } = server.users;
  for (let i = 0; i < BUDGET; i++) {
    expect((await getMe(other.email, wrongKey, { from: `127.0.1.${i + 1}` })).status).toBe(401);
  }
  const refused = await getMe(other.email, wrongKey, { from: "127.0.1.50" });
  expect(refused.status).toBe(429);
  expect((await getMe(other.email, wrongKey, { from: "127.0.1.51" })).status).toBe(429);
  expect((await getMe(other.email, other.apiKey, { from: "127.0.1.52" })).status).toBe(200);
});

describe("a key is valid only on its organization's host", () => {
  let outsider: { email: string; key: string };
  beforeAll(async () => {
    const created = await createRealm(server.db, {
      subdomain: "other",
      name: "Other Org",
      owner: { email: "boss@other.example", fullName: "Other Boss" },
    });
    outsider = { email: created.owner.email, key: created.ownerApiKey };
  });

  it("another organization's key is refused on the bare host", async () => {
    const res = await getMe(outsider.email, outsider.key, { from: "127.0.2.1" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      result: "error",
      code: "UNAUTHORIZED",
      msg: "Account is not associated with this subdomain",
    });
  });

  it("and accepted on its own subdomain", async () => {
    const res = await getMe(outsider.email, outsider.key, { from: "127.0.2.1", host: "other.localhost" });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(outsider.email);
  });

  it("the root organization's key is refused on another subdomain", async () => {
    const { member } = server.users;
    expect((await getMe(member.email, member.apiKey, { from: "127.0.2.1", host: "other.localhost" })).status).toBe(401);
  });
});
