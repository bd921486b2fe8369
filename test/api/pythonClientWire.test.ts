// The official Python client cannot be installed here, so this suite sends exactly what it
// sends: HTTP Basic auth, GET parameters in the query string, other methods form-encoded with
// every non-string value JSON-encoded (zulip/__init__.py do_api_query). The calls are the
// issue's: server settings, a channel message, a DM, reading them back, register and events.
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** One Python-client call: request dict → form (or query) with json.dumps for non-strings. */
async function call(
  path: string,
  method: "GET" | "POST" | "DELETE",
  request: Record<string, unknown>,
  user = server.users.owner,
) {
  const encoded = new URLSearchParams(
    Object.entries(request).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  ).toString();
  const headers: Record<string, string> = {
    authorization: "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64"),
    "user-agent": "ZulipPython/0.9.0 (Linux; Python 3.11)",
  };
  const url = `${server.url}/api/v1/${path}${method === "GET" && encoded ? `?${encoded}` : ""}`;
  if (method !== "GET") headers["content-type"] = "application/x-www-form-urlencoded";
  const res = await fetch(url, { method, headers, body: method === "GET" ? undefined : encoded });
  return (await res.json()) as Record<string, any>;
}

it("get_server_settings, send_message (channel and DM), get_messages, register, get_events", async () => {
  expect(await call("server_settings", "GET", {})).toMatchObject({ result: "success", zulip_feature_level: 507 });

  const queue = await call("register", "POST", { event_types: ["message"] }, server.users.member);
  expect(queue).toMatchObject({ result: "success", last_event_id: -1 });

  const channel = await call("messages", "POST", {
    type: "stream",
    to: "general",
    topic: "python",
    content: "from python",
  });
  expect(channel).toMatchObject({ result: "success", id: expect.any(Number) });
  const dm = await call("messages", "POST", {
    type: "private",
    to: [server.users.member.email],
    content: "dm from python",
  });
  expect(dm).toMatchObject({ result: "success" });

  const read = await call(
    "messages",
    "GET",
    {
      anchor: "newest",
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: "channel", operand: "general" }],
      apply_markdown: false,
    },
    server.users.member,
  );
  expect(read.messages.map((m: { content: string }) => m.content)).toContain("from python");

  const events = await call(
    "events",
    "GET",
    { queue_id: queue.queue_id, last_event_id: -1, dont_block: true },
    server.users.member,
  );
  expect(events.events.map((e: { message: { id: number } }) => e.message.id)).toEqual([channel.id, dm.id]);

  expect(await call("events", "DELETE", { queue_id: queue.queue_id }, server.users.member)).toEqual({
    result: "success",
    msg: "",
  });
});

it("render_message: renders, and {} gets REQUEST_VARIABLE_MISSING as in the reference's doc test", async () => {
  expect(await call("messages/render", "POST", { content: "**hi**" })).toEqual({
    result: "success",
    msg: "",
    rendered: "<p><strong>hi</strong></p>",
  });
  expect(await call("messages/render", "POST", {})).toEqual({
    result: "error",
    code: "REQUEST_VARIABLE_MISSING",
    msg: "Missing 'content' argument",
    var_name: "content",
  });
});
