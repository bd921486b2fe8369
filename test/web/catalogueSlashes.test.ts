// The catalogue's URLs with and without a trailing slash: `/integrations`, `/integrations/` and
// `/integrations/<name>/` all reach a page (senders and people add or drop the slash).
import { startTestServer, type TestServer } from "../support/harness";

describe("/integrations URLs with or without a trailing slash", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["github", "buildbot"] });
  });
  afterAll(() => server.close());

  const get = (path: string) => fetch(`${server.url}${path}`, { redirect: "manual" });

  it("serves /integrations/ and redirects /integrations to it", async () => {
    expect((await get("/integrations/")).status).toBe(200);
    const res = await get("/integrations");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/integrations/");
  });

  it("redirects /integrations/<name>/ to the integration's page, keeping the query", async () => {
    const res = await get("/integrations/buildbot/?bot_id=3");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/integrations/buildbot?bot_id=3");
    const page = await fetch(`${server.url}/integrations/buildbot/`);
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${server.url}/integrations/buildbot`);
    expect(await page.text()).toContain("<h1>Buildbot</h1>");
  });

  it("an unknown name with a trailing slash ends on the not-found page", async () => {
    const page = await fetch(`${server.url}/integrations/no_such_thing/`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("no_such_thing");
  });
});
