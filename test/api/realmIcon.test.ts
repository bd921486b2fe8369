// GET /server_settings `realm_icon` names an image this server serves.
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

it("realm_icon (server_settings, through zulip-js) is a PNG this server serves without authentication", async () => {
  const client = await zulipJs(server, server.users.member);
  const settings = await client.server.settings();
  expect(settings.result).toBe("success");
  const icon = new URL(settings.realm_icon);
  // The organization's own URL (EXTERNAL_URL in tests), so only the origin differs from the test server's.
  expect(icon.origin).toBe(new URL(server.config.externalUrl).origin);
  const res = await fetch(`${server.url}${icon.pathname}${icon.search}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  // IHDR: 128 × 128, the size the reference's default icon has.
  expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([128, 128]);
});

it("POST /register's realm_icon is the same URL", async () => {
  const settings = await server.anonymous().get("/server_settings");
  const reg = await server.as(server.users.member).post("/register", { fetch_event_types: ["realm"] });
  expect(reg.body.realm_icon).toBe(settings.body.realm_icon);
});
