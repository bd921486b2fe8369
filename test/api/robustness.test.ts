// Every REST route, called with hostile input, answers a 4xx/2xx envelope — never a 500.
// Split into many small tests (one per garbage set × user, one per integration × content type) so
// that none sends more than a few hundred requests: each stays within seconds on a loaded machine.
import { apiRouter } from "../../src/api";
import { startTestServer, type TestServer } from "../support/harness";
import { ODD_BODIES } from "../support/oddBodies";
import { pluginNames } from "../support/pluginFolders";
import { postWebhook } from "../support/webhooks";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: "all" });
});
afterAll(async () => {
  await server.close();
});

const GARBAGE: Record<string, string>[] = [
  {},
  {
    subscriptions: "[{",
    principals: "{}",
    to: "[[1]]",
    content: "",
    topic: "\u0000",
    type: "stream",
    op: "dance",
    stream_id: "-1",
  },
  {
    subscriptions: '[{"name": 5}]',
    data: '[{"id": "x", "value": {}}]',
    emoji_name: "",
    pattern: "(",
    url_template: "{",
    anchor: "sideways",
    num_before: "-5",
    num_after: "1e9",
    narrow: '[{"operator": 1}]',
  },
  {
    order: "[1,1,1]",
    ordered_linkifier_ids: "null",
    invitee_emails: ",,,",
    stream_ids: '"x"',
    invite_as: "7",
    invite_expires_in_minutes: "-1",
    token: "zz",
    appid: "",
    event_types: "[1]",
    queue_id: "../../etc",
  },
  {
    name: "x".repeat(5000),
    description: "y".repeat(5000),
    field_type: "99",
    field_data: "[]",
    hint: "\uffff",
    is_archived: "maybe",
    secret: "s".repeat(500),
    to: "1,2,3",
    principals: "[999999]",
  },
];

const USERS = ["member", "owner", "guest"] as const;

describe("no route answers 500 to malformed parameters", () => {
  GARBAGE.forEach((params, index) => {
    for (const who of USERS) {
      it(`garbage set ${index} as ${who}`, async () => {
        const router = apiRouter(server.deps);
        const failures: string[] = [];
        for (const layer of router.stack) {
          // A route without parameters is the same request for every id: sent once.
          const routes = new Set(
            ["1", "999999", "abc"].map((idValue) =>
              String(layer.path)
                .replace(/^\/api\/v1/, "")
                .replace(/:[a-z_]+(\([^)]*\))?/g, idValue),
            ),
          );
          for (const method of layer.methods.filter((m) => m !== "HEAD")) {
            for (const route of routes) {
              const res = await server
                .as(server.users[who])
                .request(method, route, params, { query: method === "GET" || method === "DELETE" });
              if (res.status >= 500) failures.push(`${method} ${route} → ${res.status} ${res.body.msg}`);
            }
          }
        }
        expect(failures).toEqual([]);
      });
    }
  });
});

const INTEGRATION_FOLDERS = pluginNames();

// Every event of every plugin gets these bodies, as JSON and as a form, in the pure tier
// (test/unit/oddPayloads.test.ts); here each plugin gets each body once through the app (HTTP, the
// body limits, the bot, storing), for its first event when it reads the event from a header, as
// JSON or as a form by turns (shifted by one from one plugin to the next, so both forms of every
// body reach the app through half the plugins).
const CONTENT_TYPES = ["application/json", "application/x-www-form-urlencoded"];

describe("no integration answers 500 to odd payloads", () => {
  it("covers every loaded integration", () => {
    expect([...server.deps.integrations.names()].sort()).toEqual(INTEGRATION_FOLDERS);
  });

  INTEGRATION_FOLDERS.forEach((name, pluginIndex) => {
    it(name, async () => {
      const integration = server.deps.integrations.get(name)!;
      const source = integration.manifest.eventSource;
      const headers: Record<string, string> =
        "header" in source ? { [source.header]: [...integration.events.keys()][0].split(".")[0] } : {};
      const failures: string[] = [];
      for (const [bodyIndex, body] of ODD_BODIES.entries()) {
        const contentType = CONTENT_TYPES[(bodyIndex + pluginIndex) % CONTENT_TYPES.length];
        const res = await postWebhook(server, name, { body, contentType, headers, query: { stream: "general" } });
        if (res.status >= 500) failures.push(`${contentType} ${body.slice(0, 40)} → ${res.status} ${res.body.msg}`);
      }
      expect(failures).toEqual([]);
    });
  });
});
