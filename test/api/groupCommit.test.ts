// Group commit (services/messages/groupCommit.ts): concurrent sends share one transaction. The
// tests hold the batch loop (MessageSender.hold) while the sends are accepted, so which sends
// share a batch is known without depending on timing; they then check every send got its own
// id, rows and flags, that events come after the commit in id order, and that one bad send
// (invalid, invalidated before its write, or refused by the database) fails alone.
import { insertRows } from "../../src/db/knex";
import { upsertSubscriptions } from "../../src/db/subscriptions";
import { BATCH_LIMITS } from "../../src/services/messages/groupCommit";
import { startTestServer, usingMysql, type TestServer, type TestUser } from "../support/harness";
import type { ApiResponse } from "../support/client";
import { postWebhook } from "../support/webhooks";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const sender = () => server.deps.messageSender;

/** Waits for a condition the app reaches by itself (no deadline of its own: Jest's timeout is it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Starts the requests with the batch loop held, waits until `accepted` of them are queued, releases. */
async function inOneBatch<T>(accepted: number, start: () => Promise<T>[]): Promise<T[]> {
  const release = sender().hold();
  const before = sender().stats.batches;
  let settled = 0;
  const requests = start().map((p) => p.finally(() => void (settled += 1)));
  try {
    // A send refused before it is queued settles at once; the others wait in the queue.
    await until(() => sender().pending === accepted && settled === requests.length - accepted);
  } finally {
    release();
  }
  const results = await Promise.all(requests);
  if (accepted > 0) expect(sender().stats.batches).toBe(before + 1);
  return results;
}

const post = (user: TestUser, params: Record<string, unknown>) => server.as(user).post("/messages", params);
const toGeneral = (user: TestUser, topic: string, content: string) =>
  post(user, { type: "stream", to: "general", topic, content });

async function register(user: TestUser): Promise<string> {
  const res = await server.as(user).post("/register", { event_types: ["message"] });
  expect(res.status).toBe(200);
  return res.body.queue_id;
}

async function messageEvents(user: TestUser, queueId: string): Promise<{ id: number; content: string }[]> {
  const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  expect(res.status).toBe(200);
  return res.body.events.filter((e: { type: string }) => e.type === "message").map((e: any) => e.message);
}

const generalSubscribers = () => {
  const { owner, admin, member, other } = server.users;
  return [owner, admin, member, other].map((u) => u.id).sort((a, b) => a - b);
};

it("commits 30 concurrent sends in one batch: each its own id, row, recipients and flags", async () => {
  const { member, other, owner } = server.users;
  const sends = Array.from({ length: 30 }, (_, i) =>
    i % 3 === 2
      ? { kind: "dm" as const, content: `dm ${i}` }
      : { kind: "stream" as const, content: i % 3 === 0 ? `hi @**${other.full_name}** ${i}` : `plain ${i}` },
  );
  const responses = await inOneBatch(30, () =>
    sends.map((s, i) =>
      s.kind === "dm"
        ? post(member, { type: "direct", to: [owner.id], content: s.content })
        : toGeneral(member, `batch ${i % 4}`, s.content),
    ),
  );
  expect(responses.map((r) => r.status)).toEqual(sends.map(() => 200));
  const ids = responses.map((r) => r.body.id as number);
  expect(new Set(ids).size).toBe(30);
  expect(sender().stats.largestBatch).toBeGreaterThanOrEqual(30);

  const rows = await server.db("messages").whereIn("id", ids);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  for (const [i, s] of sends.entries()) {
    const row = byId.get(ids[i])!;
    expect(row).toMatchObject({
      content: s.content,
      sender_id: member.id,
      type: s.kind === "dm" ? "private" : "stream",
    });
    if (s.kind === "stream") expect(row.topic).toBe(`batch ${i % 4}`);
    const recipients = await server.db("user_messages").where({ message_id: ids[i] }).orderBy("user_id");
    const expected = s.kind === "dm" ? [member.id, owner.id].sort((a, b) => a - b) : generalSubscribers();
    expect(recipients.map((r) => r.user_id)).toEqual(expected);
    for (const r of recipients) {
      const read = r.user_id === member.id ? 1 : 0;
      const mentioned = s.content.startsWith("hi @") && r.user_id === other.id ? 8 : 0;
      expect([r.user_id, r.flags]).toEqual([r.user_id, read | mentioned]);
    }
  }
  // Every message of the batch has the same timestamp, written at commit time.
  expect(new Set(rows.map((r) => Number(r.date_sent))).size).toBe(1);
});

it("gives increasing ids in the order sends were accepted, and publishes only after the commit, in id order", async () => {
  const { member, other } = server.users;
  const queueId = await register(other);
  const release = sender().hold();
  const requests: Promise<ApiResponse>[] = [];
  try {
    for (let i = 0; i < 6; i++) {
      requests.push(toGeneral(member, "order", `accepted ${i}`));
      await until(() => sender().pending === i + 1); // the next send is accepted after this one
    }
    // Accepted but not committed: nothing stored, nobody told.
    expect(await server.db("messages").where({ topic: "order" })).toEqual([]);
    expect(await messageEvents(other, queueId)).toEqual([]);
  } finally {
    release();
  }
  const ids = (await Promise.all(requests)).map((r) => r.body.id as number);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  const events = await messageEvents(other, queueId);
  expect(events.map((m) => [m.id, m.content])).toEqual(ids.map((id, i) => [id, `accepted ${i}`]));
});

it("refuses an invalid send alone with its 4xx while its concurrent neighbours succeed", async () => {
  const { member } = server.users;
  const responses = await inOneBatch(8, () => [
    ...Array.from({ length: 4 }, (_, i) => toGeneral(member, "neighbours", `before ${i}`)),
    post(member, { type: "stream", to: "no such channel", topic: "x", content: "lost" }),
    post(member, { type: "direct", to: [424242], content: "to nobody" }),
    toGeneral(member, "neighbours", "   "),
    ...Array.from({ length: 4 }, (_, i) => toGeneral(member, "neighbours", `after ${i}`)),
  ]);
  expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 400, 400, 400, 200, 200, 200, 200]);
  expect(responses[5].body.msg).toBe("Invalid user ID 424242");
  expect(responses[6].body.msg).toBe("Message must not be empty");
  const stored = await server.db("messages").where({ topic: "neighbours" });
  const sent = responses.filter((r) => r.status === 200).map((r) => r.body.id);
  expect(new Map(stored.map((m) => [Number(m.id), m.content]))).toEqual(
    new Map(sent.map((id, i) => [id, i < 4 ? `before ${i}` : `after ${i - 4}`])),
  );
});

it("a send whose channel is deleted after it was validated fails alone, with the channel's 4xx", async () => {
  const { owner, member } = server.users;
  const created = await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "doomed" }] });
  expect(created.status).toBe(200);
  const doomed = await server.db("streams").where({ name_key: "doomed" }).first();
  const fallbacks = sender().stats.fallbacks;
  const release = sender().hold();
  let responses: ApiResponse[];
  try {
    const requests = [
      toGeneral(member, "survivors", "first"),
      post(owner, { type: "stream", to: doomed.id, topic: "t", content: "into the void" }),
      toGeneral(member, "survivors", "last"),
    ];
    await until(() => sender().pending === 3);
    // Gone between validation and write: the batch's INSERT breaks the channel's foreign key.
    await server.db("subscriptions").where({ stream_id: doomed.id }).del();
    await server.db("streams").where({ id: doomed.id }).del();
    release();
    responses = await Promise.all(requests);
  } finally {
    release();
  }
  expect(sender().stats.fallbacks).toBe(fallbacks + 1);
  expect(responses.map((r) => r.status)).toEqual([200, 400, 200]);
  expect(responses[1].body.code).toBe("STREAM_DOES_NOT_EXIST");
  expect(responses[1].body.msg).toBe(`Channel with ID '${doomed.id}' does not exist`);
  const stored = await server.db("messages").where({ topic: "survivors" }).orderBy("id");
  expect(new Map(stored.map((m) => [Number(m.id), m.content]))).toEqual(
    new Map([
      [responses[0].body.id, "first"],
      [responses[2].body.id, "last"],
    ]),
  );
});

it("a send the database refuses fails alone (500); its neighbours are stored and published", async () => {
  const { member, other } = server.users;
  const queueId = await register(other);
  // Only the database knows this rule: validation passes, the INSERT fails.
  await server.db.raw(
    usingMysql()
      ? "CREATE TRIGGER refuse_poison BEFORE INSERT ON messages FOR EACH ROW " +
          "BEGIN IF NEW.topic = 'poison' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'; END IF; END"
      : "CREATE TRIGGER refuse_poison BEFORE INSERT ON messages WHEN NEW.topic = 'poison' " +
          "BEGIN SELECT RAISE(ABORT, 'refused'); END",
  );
  let responses: ApiResponse[];
  try {
    responses = await inOneBatch(5, () => [
      toGeneral(member, "healthy", "one"),
      toGeneral(member, "healthy", "two"),
      toGeneral(member, "poison", "bad"),
      toGeneral(member, "healthy", "three"),
      toGeneral(member, "healthy", "four"),
    ]);
  } finally {
    await server.db.raw("DROP TRIGGER refuse_poison");
  }
  expect(responses.map((r) => r.status)).toEqual([200, 200, 500, 200, 200]);
  expect(responses[2].body.code).toBe("INTERNAL_SERVER_ERROR");
  expect(await server.db("messages").where({ topic: "poison" })).toEqual([]);
  const sent = new Map<number, string>();
  for (const [i, c] of ["one", "two", "", "three", "four"].entries()) if (c) sent.set(responses[i].body.id, c);
  const events = await messageEvents(other, queueId);
  expect(new Map(events.map((m) => [m.id, m.content]))).toEqual(sent);
  const eventIds = events.map((m) => m.id);
  expect(eventIds).toEqual([...eventIds].sort((a, b) => a - b)); // published in id order
});

it("batches webhook deliveries with REST sends, each delivery's messages together", async () => {
  const { member, bot } = server.users;
  const before = Number((await server.db("messages").max({ m: "id" }).first())?.m ?? 0);
  const body = JSON.stringify({ featured_title: "Aurora", featured_url: "https://en.wikipedia.org/wiki/Aurora" });
  const responses = await inOneBatch(6, () => [
    postWebhook(server, "helloworld", { body, query: { stream: "general", topic: "hook 0" } }),
    toGeneral(member, "rest", "between"),
    postWebhook(server, "helloworld", { body, query: { stream: "general", topic: "hook 1" } }),
    postWebhook(server, "helloworld", { body, query: { topic: "hook 2" } }), // a direct message to the owner
    toGeneral(member, "rest", "after"),
    postWebhook(server, "helloworld", { body, query: { stream: "general", topic: "hook 3" } }),
  ]);
  expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  const hooks = await server.db("messages").where({ sender_id: bot.id }).where("id", ">", before);
  expect(hooks.map((m) => [m.topic, m.type, m.client]).sort()).toEqual([
    ["", "private", "ZulipHelloWorldWebhook"],
    ["hook 0", "stream", "ZulipHelloWorldWebhook"],
    ["hook 1", "stream", "ZulipHelloWorldWebhook"],
    ["hook 3", "stream", "ZulipHelloWorldWebhook"],
  ]);
  const rest = await server.db("messages").where({ topic: "rest" }).orderBy("id");
  expect(new Set(rest.map((m) => Number(m.id)))).toEqual(new Set([responses[1].body.id, responses[4].body.id]));
});

it("cuts a long queue into batches of at most the bound", async () => {
  const { member } = server.users;
  const count = BATCH_LIMITS.maxMessages + 6;
  const before = sender().stats.batches;
  const release = sender().hold();
  const requests = Array.from({ length: count }, (_, i) => toGeneral(member, "bounded", `n${i}`));
  try {
    await until(() => sender().pending === count);
  } finally {
    release();
  }
  const responses = await Promise.all(requests);
  expect(responses.every((r) => r.status === 200)).toBe(true);
  expect(sender().stats.batches).toBe(before + 2);
  expect(sender().stats.largestBatch).toBe(BATCH_LIMITS.maxMessages);
  const stored = await server.db("messages").where({ topic: "bounded" });
  expect(new Set(stored.map((m) => Number(m.id)))).toEqual(new Set(responses.map((r) => r.body.id)));
});

it("writes a batch of more recipient rows than one SQLite INSERT may hold, without falling back", async () => {
  // 600 subscribers: two messages are 1,200 recipient rows, more than SQLite's 500-term compound
  // SELECT (Knex's multi-row INSERT there) could take in one statement.
  const { owner } = server.users;
  expect((await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "crowd" }] })).status).toBe(
    200,
  );
  const stream = await server.db("streams").where({ name: "crowd" }).first();
  const { id: _id, ...template } = await server.db("users").where({ id: server.users.member.id }).first();
  const crowd = Array.from({ length: 599 }, (_, i) => ({
    ...template,
    email: `crowd${i}@test.example`,
    delivery_email: `crowd${i}@test.example`,
    email_key: `crowd${i}@test.example`,
    full_name: `Crowd ${i}`,
    api_key_hash: `crowd-${i}`,
  }));
  await insertRows(server.db, "users", crowd);
  const ids = (await server.db("users").where("email", "like", "crowd%").select("id")).map((r) => Number(r.id));
  await upsertSubscriptions(
    server.db,
    ids.map((user_id) => ({ user_id, stream_id: stream.id })),
  );
  const fallbacks = sender().stats.fallbacks;
  const responses = await inOneBatch(2, () => [
    post(owner, { type: "stream", to: "crowd", topic: "many", content: "one" }),
    post(owner, { type: "stream", to: "crowd", topic: "many", content: "two" }),
  ]);
  expect(responses.map((r) => r.status)).toEqual([200, 200]);
  expect(sender().stats.fallbacks).toBe(fallbacks);
  for (const r of responses) {
    const rows = await server.db("user_messages").where({ message_id: r.body.id }).count<{ n: number }[]>({ n: "*" });
    expect(Number(rows[0].n)).toBe(600);
  }
});

it("a send whose upload is deleted between validation and write is still stored, without the link row", async () => {
  const { member } = server.users;
  const form = new FormData();
  form.append("file", new Blob(["soon gone"]), "gone.txt");
  const auth = "Basic " + Buffer.from(`${member.email}:${member.apiKey}`).toString("base64");
  const uploaded = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: "POST",
    body: form,
    headers: { authorization: auth },
  }).then((r) => r.json() as Promise<{ uri: string }>);
  const attachment = await server
    .db("attachments")
    .where({ path_id: uploaded.uri.replace("/user_uploads/", "") })
    .first();

  const release = sender().hold();
  const sent = toGeneral(member, "gone", `[the file](${uploaded.uri})`);
  try {
    await until(() => sender().pending === 1);
    expect((await server.as(member).delete(`/attachments/${attachment.id}`)).status).toBe(200);
  } finally {
    release();
  }
  const res = await sent;
  expect(res.status).toBe(200);
  expect(await server.db("messages").where({ id: res.body.id }).first()).toMatchObject({ topic: "gone" });
  expect(await server.db("attachment_messages").where({ message_id: res.body.id })).toEqual([]);
});

// SQLite only: its driver is synchronous, so preparing a send never waits for I/O and the six sends
// are all queued before the loop's yield ends, every time. (On MySQL a send's preparation may wait
// for a read, and which batch it joins then depends on timing.)
(usingMysql() ? it.skip : it)(
  "sends started together share a batch without being held, though SQLite never yields",
  async () => {
    const { member } = server.users;
    const send = (content: string) =>
      sender().send({
        realm: server.realm,
        sender: member,
        destination: { type: "stream", stream: "general", topic: "together" },
        content,
      });
    await send("warm-up"); // caches filled: preparing a send then reads nothing
    const before = { ...sender().stats };
    const ids = await Promise.all(["a", "b", "c", "d", "e", "f"].map((c) => send(c)));
    expect(sender().stats.batches).toBe(before.batches + 1);
    expect(sender().stats.messages).toBe(before.messages + 6);
    const stored = await server
      .db("messages")
      .whereIn(
        "id",
        ids.map((r) => r.id),
      )
      .orderBy("id");
    expect(stored.map((m) => m.content)).toEqual(["a", "b", "c", "d", "e", "f"]);
  },
);
