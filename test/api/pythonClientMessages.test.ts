// The Python client's message calls on the wire, as zulip/__init__.py sends them (do_api_query:
// form-encoded, non-strings JSON-encoded; uploads as `requests` builds them, the file part without
// a Content-Type): update_message, get_message_history, delete_message, the mark_*_as_read calls,
// upload_file, add_reaction with the reference's emoji names, and an incoming-webhook bot's
// send_message (the one REST call the reference lets such bots make).
import { startTestServer, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function auth(user: TestUser): Record<string, string> {
  return {
    authorization: "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64"),
    "user-agent": "ZulipPython/0.9.0 (Linux; Python 3.11)",
  };
}

async function call(
  path: string,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  request: Record<string, unknown> = {},
  user = server.users.member,
) {
  const encoded = new URLSearchParams(
    Object.entries(request).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  ).toString();
  const headers = auth(user);
  const url = `${server.url}/api/v1/${path}${method === "GET" && encoded ? `?${encoded}` : ""}`;
  if (method !== "GET") headers["content-type"] = "application/x-www-form-urlencoded";
  const res = await fetch(url, { method, headers, body: method === "GET" ? undefined : encoded });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function sendMessage(user: TestUser, content: string) {
  return call("messages", "POST", { type: "stream", to: "general", topic: "python", content }, user);
}

it("update_message, get_message_history, delete_message", async () => {
  const sent = await sendMessage(server.users.member, "draft");
  const id = sent.body.id;
  const edited = await call(`messages/${id}`, "PATCH", { message_id: id, content: "final" });
  expect(edited.body).toMatchObject({ result: "success" });
  // The bot framework's update_message sends the topic along unchanged with change_one.
  const same = await call(`messages/${id}`, "PATCH", {
    message_id: id,
    content: "final!",
    topic: "python",
    propagate_mode: "change_one",
    send_notification_to_old_thread: false,
    send_notification_to_new_thread: true,
  });
  expect(same.body).toMatchObject({ result: "success" });
  const history = await call(`messages/${id}/history`, "GET");
  expect(history.body.message_history.map((s: { content: string }) => s.content)).toEqual(["draft", "final", "final!"]);
  const deleted = await call(`messages/${id}`, "DELETE");
  expect(deleted.body).toEqual({ result: "success", msg: "" });
  expect((await call(`messages/${id}`, "GET")).body.msg).toBe("Invalid message(s)");
});

it("mark_all_as_read, mark_stream_as_read, mark_topic_as_read", async () => {
  const { owner, member } = server.users;
  await sendMessage(owner, "unread one");
  expect(
    (await call("mark_topic_as_read", "POST", { stream_id: server.general.id, topic_name: "python" })).body,
  ).toEqual({ result: "success", msg: "" });
  await sendMessage(owner, "unread two");
  expect((await call("mark_stream_as_read", "POST", { stream_id: server.general.id })).status).toBe(200);
  await sendMessage(owner, "unread three");
  expect((await call("mark_all_as_read", "POST")).body).toMatchObject({ complete: true });
  const state = await call("register", "POST", { fetch_event_types: ["message", "update_message_flags"] }, member);
  expect(state.body.unread_msgs.count).toBe(0);
});

it("upload_file: the file part has a file name and no Content-Type", async () => {
  const boundary = "a1b2c3d4e5f6";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="/tmp/notes.txt"; filename="notes.txt"\r\n\r\n`),
    Buffer.from("plain notes\n"),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: "POST",
    headers: { ...auth(server.users.member), "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
  });
  const json = (await res.json()) as Record<string, any>;
  expect(res.status).toBe(200);
  expect(json).toMatchObject({ result: "success", filename: "notes.txt" });
  const file = await fetch(`${server.url}${json.url}`, { headers: auth(server.users.member) });
  expect(await file.text()).toBe("plain notes\n");
  // A text field (no file name) is still a parameter, not a file.
  const textOnly = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\nvalue\r\n--${boundary}--\r\n`,
  );
  const refused = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: "POST",
    headers: { ...auth(server.users.member), "content-type": `multipart/form-data; boundary=${boundary}` },
    body: textOnly,
  });
  expect(((await refused.json()) as Record<string, unknown>).msg).toBe("You must specify a file to upload");
});

it("add_reaction takes the reference's names and aliases, the same table as Markdown", async () => {
  const id = (await sendMessage(server.users.owner, "react to me")).body.id;
  const cases: [string, string][] = [
    ["thumbs_up", "1f44d"],
    ["+1", "1f44d"],
    ["smile", "1f642"],
    ["big_smile", "1f604"],
    ["heart", "2764"],
    ["working_on_it", "1f6e0"],
  ];
  for (const [name, code] of cases) {
    const res = await call(`messages/${id}/reactions`, "POST", { message_id: id, emoji_name: name });
    expect([name, res.body.result]).toEqual([name, "success"]);
    const message = await call(`messages/${id}`, "GET");
    expect(
      message.body.message.reactions.map((r: { emoji_name: string; emoji_code: string }) => [
        r.emoji_name,
        r.emoji_code,
      ]),
    ).toEqual([[name, code]]);
    const rendered = await call("messages/render", "POST", { content: `:${name}:` });
    expect(rendered.body.rendered).toContain(`emoji-${code}`);
    // Removed by name again (an alias and its emoji are one reaction per user).
    expect((await call(`messages/${id}/reactions`, "DELETE", { emoji_name: name })).body.result).toBe("success");
  }
  const unknown = await call(`messages/${id}/reactions`, "POST", { message_id: id, emoji_name: "not_an_emoji" });
  expect(unknown.body).toMatchObject({ result: "error", msg: "Invalid emoji name" });
});

it("an incoming-webhook bot may send messages, and nothing else", async () => {
  const { bot } = server.users;
  const sent = await sendMessage(bot, "deploy finished");
  expect(sent.status).toBe(200);
  expect(sent.body).toMatchObject({ result: "success", id: expect.any(Number) });
  const dm = await call("messages", "POST", { type: "private", to: [server.users.owner.email], content: "hi" }, bot);
  expect(dm.status).toBe(200);
  for (const [path, method] of [
    ["messages", "GET"],
    [`messages/${sent.body.id}`, "PATCH"],
    [`messages/${sent.body.id}`, "DELETE"],
    ["users/me", "GET"],
  ] as const) {
    const res = await call(
      path,
      method,
      method === "GET" ? { anchor: "newest", num_before: 1, num_after: 0 } : {},
      bot,
    );
    expect([path, method, res.body.msg]).toEqual([path, method, "This API is not available to incoming webhook bots."]);
  }
});
