// Every REST route, called with hostile input, answers a 4xx/2xx envelope — never a 500.
import { apiRouter } from "../../src/api";
import { startTestServer, type TestServer } from "../support/harness";
import { postWebhook } from "../support/webhooks";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const GARBAGE: Record<string, string>[] = [
  {},
  { subscriptions: "[{", principals: "{}", to: "[[1]]", content: "", topic: "\u0000", type: "stream", op: "dance", stream_id: "-1" },
  { subscriptions: '[{"name": 5}]', data: '[{"id": "x", "value": {}}]', emoji_name: "", pattern: "(", url_template: "{", anchor: "sideways", num_before: "-5", num_after: "1e9", narrow: '[{"operator": 1}]' },
  { order: "[1,1,1]", ordered_linkifier_ids: "null", invitee_emails: ",,,", stream_ids: '"x"', invite_as: "7", invite_expires_in_minutes: "-1", token: "zz", appid: "", event_types: "[1]", queue_id: "../../etc" },
  { name: "x".repeat(5000), description: "y".repeat(5000), field_type: "99", field_data: "[]", hint: "\uffff", is_archived: "maybe", secret: "s".repeat(500), to: "1,2,3", principals: "[999999]" },
];

it("no route answers 500 to malformed parameters", async () => {
  const router = apiRouter(server.deps);
  const failures: string[] = [];
  for (const layer of router.stack) {
    for (const method of layer.methods.filter((m) => m !== "HEAD")) {
      for (const idValue of ["1", "999999", "abc"]) {
        const path = String(layer.path).replace(/^\/api\/v1/, "").replace(/:[a-z_]+(\([^)]*\))?/g, idValue);
        for (const params of GARBAGE) {
          for (const user of [server.users.member, server.users.owner, server.users.guest]) {
            const res = await server.as(user).request(method, path, params, { query: method === "GET" || method === "DELETE" });
            if (res.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(params).slice(0, 80)} → ${res.status} ${res.body.msg}`);
          }
        }
      }
    }
  }
  expect(failures).toEqual([]);
});

it("no integration answers 500 to odd payloads, for any of its events", async () => {
  const bodies = ["", "null", "[]", "{}", '{"a": 1}', "not json", '{"commits": null, "alerts": "x", "text": 5, "blocks": [null, 1, {"type": 7}], "attachments": {}}', "payload=%7B%7D"];
  const failures: string[] = [];
  for (const name of server.deps.integrations.names()) {
    const integration = server.deps.integrations.get(name)!;
    const header = "header" in integration.manifest.eventSource ? (integration.manifest.eventSource as { header: string }).header : undefined;
    const events = [...integration.events.keys(), "no-such-event"];
    for (const event of events) {
      for (const body of bodies) {
        for (const contentType of ["application/json", "application/x-www-form-urlencoded"]) {
          const headers: Record<string, string> = header ? { [header]: event.split(".")[0] } : {};
          const res = await postWebhook(server, name, { body, contentType, headers, query: { stream: "general" } });
          if (res.status >= 500) failures.push(`${name} ${event} ${contentType} ${body.slice(0, 40)} → ${res.status} ${res.body.msg}`);
        }
      }
    }
  }
  expect(failures).toEqual([]);
});
