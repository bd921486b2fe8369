// GET /api/v1/integrations: the public catalogue built from the plugin folders.
import { startTestServer, type TestServer } from "../support/harness";

describe("GET /integrations", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: "all" });
  });
  afterAll(() => server.close());

  it("lists every plugin folder without authentication", async () => {
    const res = await server.anonymous().get("/integrations");
    expect(res.status).toBe(200);
    const byName = Object.fromEntries((res.body.integrations as any[]).map((i) => [i.name, i]));
    expect(byName.helloworld).toEqual({
      name: "helloworld",
      display_name: "Hello World",
      description: expect.any(String),
      categories: ["misc"],
      events: ["hello", "goodbye"],
      ignored_events: [],
      event_source: { field: "event" },
      url_options: [],
      signature: null,
      webhook_url: "/api/v1/external/helloworld",
      doc: "integrations/helloworld/doc.md",
    });
    expect(byName.alertmanager).toMatchObject({
      display_name: "Prometheus Alertmanager",
      categories: ["monitoring"],
      events: ["firing", "resolved"],
      url_options: [
        { key: "name", description: expect.any(String), default: "alertname" },
        { key: "desc", description: expect.any(String) },
      ],
    });
  });

  it("reports unknown parameters as ignored", async () => {
    const res = await server.anonymous().get("/integrations", { category: "misc" });
    expect(res.body.ignored_parameters_unsupported).toEqual(["category"]);
  });
});
