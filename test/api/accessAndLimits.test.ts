// Access and limits (docs/security.md, "Access and limits"): the bots of a deactivated user stop
// posting, invitations are bounded, a user's event queues are capped, and a key changed by another
// process is refused at once. Each case is a probe of the security review that found the hole.
import { BOT_TYPE, ROLE } from "../../src/db/rows";
import { createBot, createUser, regenerateApiKey, setUserActive } from "../../src/services/users/users";
import {
  startSecondServer,
  startTestServer,
  type SecondServer,
  type TestServer,
  type TestUser,
} from "../support/harness";
import { postWebhook } from "../support/webhooks";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["helloworld"] });
});
afterAll(async () => {
  await server.close();
});

let counter = 0;
async function freshUser(srv: TestServer, role: number = ROLE.member): Promise<TestUser> {
  const n = ++counter;
  const { user, apiKey } = await createUser(srv.db, srv.realm.id, {
    email: `probe${n}@test.example`,
    fullName: `Probe ${n}`,
    role,
  });
  return { ...user, apiKey };
}

async function freshBot(srv: TestServer, owner: TestUser, botType: number): Promise<TestUser> {
  const n = ++counter;
  const { user, apiKey } = await createBot(srv.db, srv.realm.id, {
    email: `probe-bot${n}@test.example`,
    fullName: `Probe Bot ${n}`,
    ownerId: owner.id,
    botType,
  });
  return { ...user, apiKey };
}

const helloworld = (srv: TestServer, bot: TestUser) =>
  postWebhook(srv, "helloworld", {
    user: bot,
    query: { stream: "general", topic: "probe" },
    body: JSON.stringify({ featured_title: "t", featured_url: "https://example.com/x", featured_article: "a" }),
  });

describe("deactivating a user deactivates their bots", () => {
  it("stops the user's webhook bots, tells clients, and does not bring the bots back on reactivation", async () => {
    const owner = await freshUser(server);
    const hook = await freshBot(server, owner, BOT_TYPE.incomingWebhook);
    const generic = await freshBot(server, owner, BOT_TYPE.generic);
    const othersBot = await freshBot(server, server.users.other, BOT_TYPE.incomingWebhook);
    expect((await helloworld(server, hook)).status).toBe(200);

    const watcher = await server.as(server.users.member).post("/register", { event_types: ["realm_user"] });
    const ownerQueue = await server.as(owner).post("/register", { event_types: ["realm_bot"] });
    expect(ownerQueue.status).toBe(200);

    await server.deps.bus.publish(await setUserActive(server.db, owner.id, false));
    const refused = await helloworld(server, hook);
    expect([refused.status, refused.body.code]).toEqual([401, "USER_DEACTIVATED"]);
    expect((await server.as(generic).get("/users/me")).body.code).toBe("USER_DEACTIVATED");
    expect((await helloworld(server, othersBot)).status).toBe(200); // someone else's bot is untouched

    const seen = await server
      .as(server.users.member)
      .get("/events", { queue_id: watcher.body.queue_id, last_event_id: -1, dont_block: true });
    expect(seen.body.events.map((e: { person: unknown }) => e.person)).toEqual([
      { user_id: owner.id, is_active: false },
      { user_id: hook.id, is_active: false },
      { user_id: generic.id, is_active: false },
    ]);

    await setUserActive(server.db, owner.id, true);
    expect((await server.as(owner).get("/users/me")).status).toBe(200);
    expect((await helloworld(server, hook)).body.code).toBe("USER_DEACTIVATED");
    await setUserActive(server.db, hook.id, true);
    expect((await helloworld(server, hook)).status).toBe(200);
    expect((await server.as(generic).get("/users/me")).body.code).toBe("USER_DEACTIVATED");
  });

  it("sends the bot's owner a realm_bot update for each bot", async () => {
    const owner = await freshUser(server);
    const hook = await freshBot(server, owner, BOT_TYPE.incomingWebhook);
    const notifications = await setUserActive(server.db, owner.id, false);
    expect(notifications.filter((n) => n.event.type === "realm_bot")).toEqual([
      {
        realmId: server.realm.id,
        userIds: [owner.id],
        event: { type: "realm_bot", op: "update", bot: { user_id: hook.id, is_active: false } },
      },
    ]);
  });
});

describe.each([
  ["in memory", {}],
  ["in Redis", { REDIS_URL: "redis://127.0.0.1:6379" }],
])("event queues per user, %s", (_name, env: Record<string, string>) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ ...env, EVENT_QUEUE_MAX_PER_USER: "3", EVENT_QUEUE_MAX_IDLE_SECONDS: "120" });
  });
  afterAll(async () => {
    await srv.close();
  });

  const poll = (user: TestUser, queueId: string, extra: Record<string, unknown> = {}) =>
    srv.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true, ...extra });

  it("drops the least recently used queue past EVENT_QUEUE_MAX_PER_USER; its client gets BAD_EVENT_QUEUE_ID", async () => {
    const { member, other } = srv.users;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await srv.as(member).post("/register", {})).body.queue_id);
    const othersQueue = (await srv.as(other).post("/register", {})).body.queue_id;
    expect((await poll(member, ids[0])).status).toBe(200); // the first is used again: the second is now the oldest
    const fourth = (await srv.as(member).post("/register", {})).body.queue_id;
    const gone = await poll(member, ids[1]);
    expect([gone.status, gone.body.code, gone.body.queue_id]).toEqual([400, "BAD_EVENT_QUEUE_ID", ids[1]]);
    for (const id of [ids[0], ids[2], fourth]) expect((await poll(member, id)).status).toBe(200);
    expect((await poll(other, othersQueue)).status).toBe(200); // another user's queues do not count
    // Registering again is the way back, and costs that user's next oldest queue.
    const fifth = (await srv.as(member).post("/register", {})).body.queue_id;
    expect((await poll(member, ids[0])).body.code).toBe("BAD_EVENT_QUEUE_ID");
    expect((await poll(member, fifth)).status).toBe(200);
  });

  it("answers a long-poll waiting on the dropped queue with BAD_EVENT_QUEUE_ID", async () => {
    const { admin } = srv.users;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await srv.as(admin).post("/register", {})).body.queue_id);
    const waiting = poll(admin, ids[0], { dont_block: false });
    // Its poll began first: it is the least recently used when the others are polled after it.
    for (const id of ids.slice(1)) expect((await poll(admin, id)).status).toBe(200);
    expect((await srv.as(admin).post("/register", {})).status).toBe(200);
    const answered = await waiting;
    expect([answered.status, answered.body.code]).toEqual([400, "BAD_EVENT_QUEUE_ID"]);
  });

  it("bounds idle_queue_timeout by EVENT_QUEUE_MAX_IDLE_SECONDS", async () => {
    const asked = await srv.as(srv.users.guest).post("/register", { idle_queue_timeout: "86400" });
    expect(asked.body.idle_queue_timeout_secs).toBe(120);
    const mobile = await srv.as(srv.users.guest).post("/register", { idle_queue_timeout: "mobile" });
    expect(mobile.body.idle_queue_timeout_secs).toBe(120);
    const short = await srv.as(srv.users.guest).post("/register", { idle_queue_timeout: "30" });
    expect(short.body.idle_queue_timeout_secs).toBe(30);
  });
});

describe("a key changed by another process is refused at once", () => {
  // Two servers sharing Redis and the database, and an operator's process (the CLI) with no Redis:
  // its changes announce nothing, so only the database can tell the servers.
  let first: TestServer;
  let second: SecondServer;
  let operator: SecondServer;
  beforeAll(async () => {
    first = await startTestServer({ REDIS_URL: "redis://127.0.0.1:6379" });
    second = await startSecondServer(first);
    operator = await startSecondServer(first, { REDIS_URL: "" });
  });
  afterAll(async () => {
    await operator.close();
    await second.close();
    await first.close();
  });

  const me = (
    srv: { as(user: TestUser): { get(path: string): Promise<{ status: number; body: any }> } },
    user: TestUser,
  ) => srv.as(user).get("/users/me");

  it("an old key, on every server, as soon as the new one is written", async () => {
    const user = await freshUser(first);
    for (const srv of [first, second]) expect((await me(srv, user)).status).toBe(200); // cached now
    expect(operator.deps.config.redisUrl).toBeUndefined();
    const newKey = await regenerateApiKey(operator.deps.db, user.id);
    for (const srv of [first, second]) {
      const old = await me(srv, user);
      expect([old.status, old.body.code]).toEqual([401, "UNAUTHORIZED"]);
      expect((await me(srv, { ...user, apiKey: newKey })).status).toBe(200);
    }
  });

  it("a deactivated user's and bot's keys, on every server, as soon as the deactivation is written", async () => {
    const user = await freshUser(first);
    const bot = await freshBot(first, user, BOT_TYPE.generic);
    for (const srv of [first, second]) {
      expect((await me(srv, user)).status).toBe(200);
      expect((await me(srv, bot)).status).toBe(200);
    }
    await setUserActive(operator.deps.db, user.id, false);
    for (const srv of [first, second]) {
      expect((await me(srv, user)).body.code).toBe("USER_DEACTIVATED");
      expect((await me(srv, bot)).body.code).toBe("USER_DEACTIVATED");
    }
  });
});
