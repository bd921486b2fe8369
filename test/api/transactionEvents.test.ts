// Events are published only after the transaction that produced them commits (db/transaction.ts).
// Subscribing someone else to an existing channel builds a `subscription add` event and then, in
// the same transaction, sends them a Notification Bot message. A database trigger makes that
// message's insert fail, so the transaction rolls back after the event was built: nobody may hear
// of it. Without the trigger the same request delivers both events (the test can see them).
import { startTestServer, usingMysql, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const created = await server.as(server.users.owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "quiet" }],
  });
  expect(created.status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

async function failMessageInserts(): Promise<void> {
  await server.db.raw(
    usingMysql()
      ? "CREATE TRIGGER fail_message_insert BEFORE INSERT ON messages FOR EACH ROW " +
          "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'"
      : "CREATE TRIGGER fail_message_insert BEFORE INSERT ON messages " +
          "BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
  );
}

async function register(user: TestUser): Promise<string> {
  const res = await server.as(user).post("/register", { event_types: ["subscription", "message"] });
  expect(res.status).toBe(200);
  return res.body.queue_id;
}

async function eventTypes(user: TestUser, queueId: string): Promise<string[]> {
  const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  expect(res.status).toBe(200);
  return res.body.events.map((e: { type: string; op?: string }) => (e.op ? `${e.type} ${e.op}` : e.type));
}

async function memberIsSubscribed(): Promise<boolean> {
  const stream = await server.db("streams").where({ name_key: "quiet" }).first();
  const sub = await server.db("subscriptions").where({ user_id: server.users.member.id, stream_id: stream.id }).first();
  return Boolean(sub && sub.active);
}

const subscribeMember = () =>
  server.as(server.users.owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "quiet" }],
    principals: [server.users.member.id],
  });

it("publishes nothing when the transaction rolls back", async () => {
  const queueId = await register(server.users.member);
  await failMessageInserts();
  try {
    const res = await subscribeMember();
    expect(res.status).toBe(500);
  } finally {
    await server.db.raw("DROP TRIGGER fail_message_insert");
  }
  expect(await eventTypes(server.users.member, queueId)).toEqual([]);
  expect(await memberIsSubscribed()).toBe(false);
});

it("publishes the events once the same request commits", async () => {
  const queueId = await register(server.users.member);
  const res = await subscribeMember();
  expect(res.status).toBe(200);
  expect(await eventTypes(server.users.member, queueId)).toEqual(["subscription add", "message"]);
  expect(await memberIsSubscribed()).toBe(true);
});
