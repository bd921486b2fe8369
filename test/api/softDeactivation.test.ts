// Soft deactivation (services/users/softDeactivation.ts): sends to channels write no rows for
// long-idle subscribers; their next request writes the rows they missed before it is handled.
import { nowSeconds } from "../../src/db/rows";
import { upsertSubscriptions } from "../../src/db/subscriptions";
import { softDeactivateIdleUsers } from "../../src/services/users/softDeactivation";
import { createUser } from "../../src/services/users/users";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;
let idleOne: TestUser;
let idleTwo: TestUser;
const DAY = 86_400;

beforeAll(async () => {
  server = await startTestServer();
  const make = async (n: number) => {
    const email = `idle${n}@example.com`;
    const made = await createUser(server.db, server.realm.id, { email, fullName: `Idle ${n}` });
    return { ...made.user, apiKey: made.apiKey } as TestUser;
  };
  idleOne = await make(1);
  idleTwo = await make(2);
  await upsertSubscriptions(
    server.db,
    [idleOne, idleTwo].map((u) => ({ user_id: u.id, stream_id: server.general.id })),
  );
});
afterAll(async () => {
  await server.close();
});

/** Makes the user look away for `days` days (as if their last request was then), then runs the job. */
async function goIdle(user: TestUser, days = 40): Promise<number[]> {
  await server
    .db("users")
    .where({ id: user.id })
    .update({ last_active_at: nowSeconds() - days * DAY });
  return softDeactivateIdleUsers(server.db, { inactiveDays: 28 });
}

const send = (user: TestUser, params: Record<string, unknown>) => server.as(user).post("/messages", params);
const toGeneral = (user: TestUser, content: string, topic = "idle") =>
  send(user, { type: "stream", to: "general", topic, content });

async function rowOf(user: TestUser, messageId: number): Promise<number | undefined> {
  const row = await server.db("user_messages").where({ user_id: user.id, message_id: messageId }).first();
  return row === undefined ? undefined : Number(row.flags);
}

async function isIdle(user: TestUser): Promise<boolean> {
  const row = await server.db("users").where({ id: user.id }).first("long_term_idle");
  return Boolean(row.long_term_idle);
}

it("the job marks idle only the humans inactive for the days (never bots, never the recently active)", async () => {
  const { member, bot } = server.users;
  await server
    .db("users")
    .where({ id: bot.id })
    .update({ last_active_at: nowSeconds() - 90 * DAY });
  await server
    .db("users")
    .where({ id: member.id })
    .update({ last_active_at: nowSeconds() - 27 * DAY });
  const marked = await goIdle(idleOne);
  expect(marked).toContain(idleOne.id);
  expect(marked).not.toContain(bot.id);
  expect(marked).not.toContain(member.id);
  expect(await isIdle(idleOne)).toBe(true);
  // Their rows are complete up to the newest message at that moment.
  const newest = Number((await server.db("messages").max({ m: "id" }).first())?.m ?? 0);
  const row = await server.db("users").where({ id: idleOne.id }).first("last_active_message_id");
  expect(Number(row.last_active_message_id)).toBe(newest);
  // Running again marks nobody twice.
  expect(await softDeactivateIdleUsers(server.db, { inactiveDays: 28 })).not.toContain(idleOne.id);
  await server.db("users").where({ id: member.id }).update({ last_active_at: nowSeconds() });
});

it("a send to a channel skips idle subscribers' rows, unless it mentions them; a direct message never does", async () => {
  const { member } = server.users;
  await goIdle(idleOne);
  await goIdle(idleTwo);
  const plain = await toGeneral(member, "nobody in particular");
  const mention = await toGeneral(member, "hello @**Idle 2**");
  const dm = await send(member, { type: "direct", to: [idleOne.id], content: "are you there?" });
  expect([plain.status, mention.status, dm.status]).toEqual([200, 200, 200]);
  expect(await rowOf(idleOne, plain.body.id)).toBeUndefined();
  expect(await rowOf(idleTwo, plain.body.id)).toBeUndefined();
  expect(await rowOf(member, plain.body.id)).toBe(1); // the sender's own, read
  expect(await rowOf(idleTwo, mention.body.id)).toBe(8); // mentioned
  expect(await rowOf(idleOne, mention.body.id)).toBeUndefined();
  expect(await rowOf(idleOne, dm.body.id)).toBe(0);
  expect(await isIdle(idleOne)).toBe(true); // being written to is not activity
});

it("an idle user's next request writes the rows they missed, unread, and they are active again", async () => {
  const { member } = server.users;
  await goIdle(idleTwo);
  const before = await toGeneral(member, "while you were away");
  const mention = await toGeneral(member, "@**Idle 2** look");
  expect(await rowOf(idleTwo, before.body.id)).toBeUndefined();
  const registered = await server.as(idleTwo).post("/register", {});
  expect(registered.status).toBe(200);
  expect(await isIdle(idleTwo)).toBe(false);
  expect(await rowOf(idleTwo, before.body.id)).toBe(0);
  expect(await rowOf(idleTwo, mention.body.id)).toBe(8); // the row they had keeps its flags
  // What they read is what they would have read had they never left: both there, unread.
  const page = await server.as(idleTwo).get("/messages", {
    anchor: "newest",
    num_before: 5,
    num_after: 0,
    narrow: JSON.stringify([{ operator: "channel", operand: "general" }]),
  });
  expect(page.status).toBe(200);
  const flagsById = new Map(page.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]));
  expect(flagsById.get(before.body.id)).toEqual([]);
  expect(flagsById.get(mention.body.id)).toEqual(["mentioned"]);
  // And their sends' neighbours write their rows again.
  const after = await toGeneral(member, "welcome back");
  expect(await rowOf(idleTwo, after.body.id)).toBe(0);
});

it("a user who comes back while a send is being written gets its row and its event", async () => {
  const { member } = server.users;
  await goIdle(idleOne);
  const release = server.deps.messageSender.hold();
  let sent;
  let queueId: string;
  try {
    sent = toGeneral(member, "in flight");
    while (server.deps.messageSender.pending === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // Prepared while idleOne was idle: left out. Now they come back, before the send is written.
    const registered = await server.as(idleOne).post("/register", { event_types: ["message"] });
    expect(registered.status).toBe(200);
    queueId = registered.body.queue_id;
    expect(await isIdle(idleOne)).toBe(false);
  } finally {
    release();
  }
  const res = await sent;
  expect(res.status).toBe(200);
  expect(await rowOf(idleOne, res.body.id)).toBe(0);
  const events = await server.as(idleOne).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  const messages = events.body.events.filter((e: { type: string }) => e.type === "message");
  expect(messages.map((e: { message: { id: number }; flags: string[] }) => [e.message.id, e.flags])).toEqual([
    [res.body.id, []],
  ]);
});

it("being subscribed to a channel while idle: the missed rows are written first, none from before the subscription", async () => {
  const { owner, member } = server.users;
  const created = await server.as(owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "backroom" }],
    invite_only: true,
    history_public_to_subscribers: false,
  });
  expect(created.status).toBe(200);
  const secret = await send(owner, { type: "stream", to: "backroom", topic: "t", content: "before you came" });
  await goIdle(idleOne);
  const missed = await toGeneral(member, "missed in general");
  const added = await server.as(owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "backroom" }],
    principals: [idleOne.id],
  });
  expect(added.status).toBe(200);
  expect(await isIdle(idleOne)).toBe(false);
  expect(await rowOf(idleOne, missed.body.id)).toBe(0);
  const later = await send(owner, { type: "stream", to: "backroom", topic: "t", content: "after" });
  // Back, they see the channel's messages since they joined it, not the ones before.
  expect(await rowOf(idleOne, secret.body.id)).toBeUndefined();
  expect(await rowOf(idleOne, later.body.id)).toBe(0);
});

it("a message older than the point an idle user's rows are complete up to still gets their row", async () => {
  const { member } = server.users;
  await goIdle(idleOne);
  // As when the job read the newest id while this send's INSERT was not yet committed.
  await server.db("users").where({ id: idleOne.id }).update({ last_active_message_id: 2_000_000_000 });
  const res = await toGeneral(member, "committed late");
  expect(res.status).toBe(200);
  expect(await rowOf(idleOne, res.body.id)).toBe(0);
  expect(await isIdle(idleOne)).toBe(true);
});
