// Self-serve bots through the real app: POST / GET /bots, PATCH / DELETE /bots/{id}, key
// regeneration, reactivation, who may create which kind (can_create_bots_group,
// can_create_write_only_bots_group through PATCH /realm), the realm_bot / realm_user / realm events,
// and /register's realm_bots and realm_can_create_* state.
import { createRealm } from "../../src/services/realms/realms";
import { createUser } from "../../src/services/users/users";
import { ApiClient } from "../support/client";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.as(server.users.owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "secret" }],
    invite_only: true,
  });
});
afterAll(async () => {
  await server.close();
});

const as = (user: TestUser) => server.as(user);
// last_active_at moves with every request (soft deactivation's bookkeeping), so it is left out.
const userRows = async () =>
  (await server.db("users").orderBy("id")).map(({ last_active_at: _, ...row }: Record<string, unknown>) => row);
let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}`;

async function groupId(name: string): Promise<number> {
  return (await server.db("user_groups").where({ realm_id: server.realm.id, name }).first()).id;
}

/** Error with exact status/code/msg, and no user row changed. */
async function expectRefused(
  user: TestUser,
  method: "post" | "get" | "patch" | "delete",
  path: string,
  params: Record<string, unknown>,
  expected: { code: string; msg: string },
) {
  const before = await userRows();
  const res = await as(user)[method](path, params);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ result: "error", ...expected });
  expect(await userRows()).toEqual(before);
}

async function createBot(user: TestUser, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const short = unique("b");
  const res = await as(user).post("/bots", { full_name: `Bot ${short}`, short_name: short, bot_type: 2, ...params });
  expect(res.status).toBe(200);
  return { ...res.body, short };
}

async function queue(user: TestUser, types = ["realm_bot", "realm_user", "realm"]): Promise<() => Promise<any[]>> {
  const res = await as(user).post("/register", { event_types: types });
  expect(res.status).toBe(200);
  const { queue_id } = res.body;
  return async () =>
    (await as(user).get("/events", { queue_id, last_event_id: -1, dont_block: true })).body.events.filter(
      (e: any) => e.type !== "heartbeat",
    );
}

async function setPolicy(admin: TestUser, bots: string, writeOnly: string): Promise<void> {
  const res = await as(admin).patch("/realm", {
    can_create_bots_group: { new: await groupId(bots) },
    can_create_write_only_bots_group: { new: await groupId(writeOnly) },
  });
  expect(res.body).toEqual({ result: "success", msg: "" });
}

describe("POST /bots", () => {
  it("creates an incoming-webhook bot owned by the caller, whose key works, with events", async () => {
    const { member, admin, other } = server.users;
    const memberEvents = await queue(member);
    const adminEvents = await queue(admin);
    const otherEvents = await queue(other);
    const res = await as(member).post("/bots", {
      full_name: "  GitHub notifier ",
      short_name: "github",
      bot_type: 2,
      default_sending_stream: "general",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      user_id: expect.any(Number),
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      avatar_url: null,
      default_sending_stream: "general",
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
    const row = await server.db("users").where({ id: res.body.user_id }).first();
    expect(row).toMatchObject({
      email: "github-bot@localhost",
      full_name: "GitHub notifier",
      bot_type: 2,
      bot_owner_id: member.id,
      realm_id: server.realm.id,
      default_sending_stream_id: server.general.id,
    });
    // The key posts through the webhook endpoint (incoming-webhook bots may use nothing else).
    const delivery = await fetch(
      `${server.url}/api/v1/external/helloworld?api_key=${res.body.api_key}&stream=general&topic=hi`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ featured_title: "x", featured_url: "https://example.org", zen: "z" }),
      },
    );
    expect(delivery.status).toBe(200);

    const botDict = {
      user_id: res.body.user_id,
      default_sending_stream: "general",
      default_events_register_stream: null,
      default_all_public_streams: false,
      services: [],
    };
    for (const events of [memberEvents, adminEvents]) {
      const got = await events();
      expect(got).toContainEqual(expect.objectContaining({ type: "realm_bot", op: "add", bot: botDict }));
      expect(got).toContainEqual(
        expect.objectContaining({
          type: "realm_user",
          op: "add",
          person: expect.objectContaining({ user_id: res.body.user_id, is_bot: true, bot_owner_id: member.id }),
        }),
      );
    }
    const seenByOther = await otherEvents();
    expect(seenByOther.filter((e) => e.type === "realm_bot")).toEqual([]);
    expect(seenByOther).toContainEqual(expect.objectContaining({ type: "realm_user", op: "add" }));
  });

  it("creates a generic bot whose key uses the REST API", async () => {
    const created = await createBot(server.users.member, { bot_type: 1 });
    const row = await server.db("users").where({ id: created.user_id }).first();
    const me = await new ApiClient(server.url, row.email, created.api_key).get("/users/me");
    expect(me.body).toMatchObject({ user_id: created.user_id, is_bot: true, bot_type: 1 });
  });

  it("refuses guests, bots and bad input, writing nothing", async () => {
    const { guest, genericBot, member } = server.users;
    const good = { full_name: "Fine Name", short_name: "fine", bot_type: 2 };
    await expectRefused(guest, "post", "/bots", good, { code: "BAD_REQUEST", msg: "Not allowed for guest users" });
    await expectRefused(genericBot, "post", "/bots", good, {
      code: "BAD_REQUEST",
      msg: "This endpoint does not accept bot requests.",
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ short_name: "  " }, "Bad name or username"],
      [{ short_name: "no spaces" }, "Bad name or username"],
      [{ short_name: "x".repeat(61) }, "Bad name or username: the limit is 60 characters."],
      [{ full_name: "x" }, "Name too short! It needs at least 2 characters."],
      [{ full_name: "x".repeat(101) }, "Name too long! The limit is 100 characters."],
      [{ full_name: "Bad\u0007name" }, "Invalid characters in name!"],
      [{ full_name: "Someone|12" }, "Invalid format!"],
      [{ full_name: "mel member" }, "Name is already in use!"],
      [{ short_name: "github" }, "Username already in use"],
      [{ bot_type: 3 }, "payload_url is required for outgoing webhook bots"],
      [{ bot_type: 4 }, "Embedded bots are not enabled."],
      [{ bot_type: 9 }, "Invalid bot type"],
      [{ default_sending_stream: "nowhere" }, "Invalid channel name 'nowhere'"],
      // A private channel the caller is not subscribed to.
      [{ default_events_register_stream: "secret" }, "Invalid channel name 'secret'"],
    ];
    for (const [change, msg] of cases) {
      await expectRefused(member, "post", "/bots", { ...good, ...change }, { code: "BAD_REQUEST", msg });
    }
    const missing = await as(member).post("/bots", { full_name: "No Short" });
    expect(missing.body).toMatchObject({ code: "REQUEST_VARIABLE_MISSING", var_name: "short_name" });
  });

  it("follows can_create_bots_group and can_create_write_only_bots_group", async () => {
    const { admin, member, moderator } = server.users;
    try {
      // Generic bots for administrators, incoming webhooks for members (the old policy 2).
      await setPolicy(admin, "role:administrators", "role:members");
      await expectRefused(
        member,
        "post",
        "/bots",
        { full_name: "Generic One", short_name: "g1", bot_type: 1 },
        {
          code: "BAD_REQUEST",
          msg: "Invalid bot type",
        },
      );
      await createBot(member, { bot_type: 2 });
      await createBot(admin, { bot_type: 1 });
      // Administrators only.
      await setPolicy(admin, "role:administrators", "role:administrators");
      for (const user of [member, moderator]) {
        await expectRefused(
          user,
          "post",
          "/bots",
          { full_name: "Hook One", short_name: "h1", bot_type: 2 },
          {
            code: "UNAUTHORIZED_PRINCIPAL",
            msg: "Must be an organization administrator",
          },
        );
      }
      await createBot(admin, { bot_type: 2 });
      // Moderators for everything: a member still may not.
      await setPolicy(admin, "role:moderators", "role:nobody");
      await createBot(moderator, { bot_type: 1 });
      await expectRefused(
        member,
        "post",
        "/bots",
        { full_name: "Hook Two", short_name: "h2", bot_type: 2 },
        {
          code: "UNAUTHORIZED_PRINCIPAL",
          msg: "Must be an organization administrator",
        },
      );
    } finally {
      await setPolicy(admin, "role:members", "role:members");
    }
  });
});

describe("GET /bots", () => {
  it("lists the caller's own active bots, oldest first, without keys", async () => {
    const { other, admin } = server.users;
    const first = await createBot(other, { bot_type: 1 });
    const second = await createBot(other);
    const gone = await createBot(other);
    expect((await as(other).delete(`/bots/${gone.user_id}`)).status).toBe(200);
    const res = await as(other).get("/bots");
    expect(res.body.bots).toEqual([
      {
        user_id: first.user_id,
        username: `${first.short}-bot@localhost`,
        full_name: `Bot ${first.short}`,
        bot_type: 1,
        avatar_url: null,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
      expect.objectContaining({ user_id: second.user_id, bot_type: 2 }),
    ]);
    // Administrators list their own bots here too (all bots are in /register's realm_bots).
    const adminList = (await as(admin).get("/bots")).body.bots.map((b: any) => b.user_id);
    expect(adminList).not.toContain(first.user_id);
    expect((await as(server.users.guest).get("/bots")).body.msg).toBe("Not allowed for guest users");
  });
});

describe("PATCH /bots/{id}", () => {
  it("lets the owner rename it and set its default channels; managers get realm_bot updates", async () => {
    const { member, admin, other } = server.users;
    const bot = await createBot(member);
    const adminEvents = await queue(admin);
    const otherEvents = await queue(other);
    const res = await as(member).patch(`/bots/${bot.user_id}`, {
      full_name: "Renamed Bot",
      default_events_register_stream: "general",
      default_all_public_streams: true,
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      full_name: "Renamed Bot",
      avatar_url: null,
      service_interface: 1,
      service_payload_url: null,
      config_data: null,
      default_sending_stream: null,
      default_events_register_stream: "general",
      default_all_public_streams: true,
      bot_owner: member.email,
    });
    const got = await adminEvents();
    expect(got).toContainEqual(
      expect.objectContaining({
        type: "realm_bot",
        op: "update",
        bot: { user_id: bot.user_id, default_events_register_stream: "general" },
      }),
    );
    expect(got).toContainEqual(
      expect.objectContaining({
        type: "realm_bot",
        op: "update",
        bot: { user_id: bot.user_id, default_all_public_streams: true },
      }),
    );
    expect(got).toContainEqual(
      expect.objectContaining({
        type: "realm_user",
        op: "update",
        person: { user_id: bot.user_id, full_name: "Renamed Bot" },
      }),
    );
    const seenByOther = await otherEvents();
    expect(seenByOther.filter((e) => e.type === "realm_bot")).toEqual([]);
    expect(seenByOther).toContainEqual(expect.objectContaining({ type: "realm_user", op: "update" }));
    // "" clears a default.
    const cleared = await as(admin).patch(`/bots/${bot.user_id}`, { default_events_register_stream: "" });
    expect(cleared.body.default_events_register_stream).toBeNull();
  });

  it("refuses other members, guests, unknown ids, people, system bots and other organizations' bots", async () => {
    const { member, other, guest, owner } = server.users;
    const bot = await createBot(member);
    await expectRefused(
      other,
      "patch",
      `/bots/${bot.user_id}`,
      { full_name: "Taken Over" },
      {
        code: "BAD_REQUEST",
        msg: "Insufficient permission",
      },
    );
    await expectRefused(
      guest,
      "patch",
      `/bots/${bot.user_id}`,
      { full_name: "Taken Over" },
      {
        code: "BAD_REQUEST",
        msg: "Not allowed for guest users",
      },
    );
    for (const id of [999999, other.id, server.realm.notification_bot_id]) {
      await expectRefused(
        owner,
        "patch",
        `/bots/${id}`,
        { full_name: "Whatever" },
        { code: "BAD_REQUEST", msg: "No such bot" },
      );
    }
    const elsewhere = await createRealm(server.db, {
      subdomain: unique("elsewhere"),
      name: "Elsewhere",
      owner: { email: "boss@elsewhere.example", fullName: "Boss Elsewhere" },
    });
    const theirBot = await createUser(server.db, elsewhere.realm.id, {
      email: "their-bot@elsewhere.example",
      fullName: "Their Bot",
      botType: 2,
      botOwnerId: elsewhere.owner.id,
    });
    for (const [method, path] of [
      ["patch", `/bots/${theirBot.user.id}`],
      ["delete", `/bots/${theirBot.user.id}`],
      ["post", `/bots/${theirBot.user.id}/api_key/regenerate`],
    ] as const) {
      await expectRefused(owner, method, path, { full_name: "Mine Now" }, { code: "BAD_REQUEST", msg: "No such bot" });
    }
  });

  it("checks names, channels and new owners before writing anything", async () => {
    const { member, genericBot } = server.users;
    const bot = await createBot(member);
    const deactivated = await createUser(server.db, server.realm.id, {
      email: unique("gone") + "@test.example",
      fullName: unique("Gone "),
    });
    await server.db("users").where({ id: deactivated.user.id }).update({ is_active: false });
    const cases: [Record<string, unknown>, string][] = [
      [{ full_name: "Otto Other" }, "Name is already in use!"],
      [{ full_name: "x" }, "Name too short! It needs at least 2 characters."],
      [{ default_sending_stream: "secret" }, "Invalid channel name 'secret'"],
      [{ bot_owner_id: 999999 }, "Failed to change owner, no such user"],
      [{ bot_owner_id: deactivated.user.id }, "Failed to change owner, user is deactivated"],
      [{ bot_owner_id: genericBot.id }, "Failed to change owner, bots can't own other bots"],
      // A valid change together with a bad one: neither is written.
      [{ full_name: "Fine New Name", bot_owner_id: 999999 }, "Failed to change owner, no such user"],
    ];
    for (const [change, msg] of cases) {
      await expectRefused(member, "patch", `/bots/${bot.user_id}`, change, { code: "BAD_REQUEST", msg });
    }
  });

  it("moves a bot to a new owner, who then manages it (webhook secret included) while the old one cannot", async () => {
    const { member, other } = server.users;
    const bot = await createBot(member);
    const memberEvents = await queue(member);
    const otherEvents = await queue(other);
    const res = await as(member).patch(`/bots/${bot.user_id}`, { bot_owner_id: other.id });
    expect(res.body.bot_owner).toBe(other.email);
    expect(await memberEvents()).toContainEqual(
      expect.objectContaining({ type: "realm_bot", op: "delete", bot: { user_id: bot.user_id } }),
    );
    const gained = await otherEvents();
    expect(gained).toContainEqual(
      expect.objectContaining({ type: "realm_bot", op: "add", bot: expect.objectContaining({ user_id: bot.user_id }) }),
    );
    expect(gained).toContainEqual(
      expect.objectContaining({
        type: "realm_user",
        op: "update",
        person: { user_id: bot.user_id, bot_owner_id: other.id },
      }),
    );
    const secret = await as(other).patch(`/bots/${bot.user_id}/webhook_secret`, { secret: "s3cret" });
    expect(secret.body).toMatchObject({ result: "success", has_webhook_secret: true });
    expect((await as(member).patch(`/bots/${bot.user_id}/webhook_secret`, { secret: "x" })).body.msg).toBe(
      "Insufficient permission",
    );
    expect((await as(member).patch(`/bots/${bot.user_id}`, { full_name: "Back" })).body.msg).toBe(
      "Insufficient permission",
    );
  });

  it("changes a bot's role: administrators, and owners for the owner role", async () => {
    const { member, admin, owner } = server.users;
    const bot = await createBot(member, { bot_type: 1 });
    await expectRefused(
      member,
      "patch",
      `/bots/${bot.user_id}`,
      { role: 300 },
      {
        code: "UNAUTHORIZED_PRINCIPAL",
        msg: "Must be an organization administrator",
      },
    );
    await expectRefused(
      admin,
      "patch",
      `/bots/${bot.user_id}`,
      { role: 100 },
      {
        code: "UNAUTHORIZED_PRINCIPAL",
        msg: "Must be an organization owner",
      },
    );
    await expectRefused(
      admin,
      "patch",
      `/bots/${bot.user_id}`,
      { role: 250 },
      { code: "BAD_REQUEST", msg: "Invalid role" },
    );
    expect((await as(admin).patch(`/bots/${bot.user_id}`, { role: 300 })).status).toBe(200);
    expect((await server.db("users").where({ id: bot.user_id }).first()).role).toBe(300);
    const moderators = await groupId("role:moderators");
    expect(
      await server.db("user_group_members").where({ group_id: moderators, user_id: bot.user_id }).first(),
    ).toBeDefined();
    expect((await as(owner).patch(`/bots/${bot.user_id}`, { role: 100 })).status).toBe(200);
  });
});

describe("DELETE /bots/{id}, reactivation and keys", () => {
  it("deactivates the bot: its key stops working; realm_user and realm_bot delete events", async () => {
    const { member, other } = server.users;
    const bot = await createBot(member, { bot_type: 1 });
    const row = await server.db("users").where({ id: bot.user_id }).first();
    const botClient = new ApiClient(server.url, row.email, bot.api_key);
    expect((await botClient.get("/users/me")).status).toBe(200);
    await expectRefused(
      other,
      "delete",
      `/bots/${bot.user_id}`,
      {},
      { code: "BAD_REQUEST", msg: "Insufficient permission" },
    );
    const events = await queue(other);
    expect((await as(member).delete(`/bots/${bot.user_id}`)).body).toEqual({ result: "success", msg: "" });
    expect((await botClient.get("/users/me")).body.code).toBe("USER_DEACTIVATED");
    const got = await events();
    expect(got).toContainEqual(
      expect.objectContaining({ type: "realm_bot", op: "delete", bot: { user_id: bot.user_id } }),
    );
    expect(got).toContainEqual(
      expect.objectContaining({ type: "realm_user", op: "update", person: { user_id: bot.user_id, is_active: false } }),
    );
    await expectRefused(
      member,
      "delete",
      `/bots/${bot.user_id}`,
      {},
      { code: "BAD_REQUEST", msg: "Bot is already deactivated" },
    );

    // Reactivation: administrators only, as the reference.
    await expectRefused(
      member,
      "post",
      `/users/${bot.user_id}/reactivate`,
      {},
      {
        code: "UNAUTHORIZED_PRINCIPAL",
        msg: "Must be an organization administrator",
      },
    );
    expect((await as(server.users.admin).post(`/users/${bot.user_id}/reactivate`)).body).toEqual({
      result: "success",
      msg: "",
    });
    expect((await botClient.get("/users/me")).status).toBe(200);
  });

  it("regenerates a key: the old one stops working at once, the new one works", async () => {
    const { member, admin, other } = server.users;
    const bot = await createBot(member, { bot_type: 1 });
    const row = await server.db("users").where({ id: bot.user_id }).first();
    const old = new ApiClient(server.url, row.email, bot.api_key);
    expect((await old.get("/users/me")).status).toBe(200);
    await expectRefused(
      other,
      "post",
      `/bots/${bot.user_id}/api_key/regenerate`,
      {},
      {
        code: "BAD_REQUEST",
        msg: "Insufficient permission",
      },
    );
    for (const user of [member, admin]) {
      const res = await as(user).post(`/bots/${bot.user_id}/api_key/regenerate`);
      expect(res.body).toEqual({ result: "success", msg: "", api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
      expect(res.body.api_key).not.toBe(bot.api_key);
      expect((await new ApiClient(server.url, row.email, res.body.api_key).get("/users/me")).status).toBe(200);
    }
    const refused = await old.get("/users/me");
    expect(refused.status).toBe(401);
    expect(refused.body.msg).toBe("Invalid API key");
    // Keys are kept only as hashes: GET /bots/{id}/api_key says so, after the same access check.
    const shown = await as(member).get(`/bots/${bot.user_id}/api_key`);
    expect(shown.status).toBe(400);
    expect(shown.body.msg).toMatch(/stores only a hash.*regenerate/);
    expect((await as(other).get(`/bots/${bot.user_id}/api_key`)).body.msg).toBe("Insufficient permission");
  });
});

describe("PATCH /realm and /register", () => {
  it("shows the settings and the derived bot_creation_policy; realm_bots per role", async () => {
    const { admin, member, owner } = server.users;
    const members = await groupId("role:members");
    const state = async (user: TestUser) =>
      (await as(user).post("/register", { fetch_event_types: JSON.stringify(["realm", "realm_bot"]) })).body;
    expect(await state(member)).toMatchObject({
      realm_can_create_bots_group: members,
      realm_can_create_write_only_bots_group: members,
      realm_bot_creation_policy: 1,
    });
    const mine = await createBot(member);
    const memberBots = (await state(member)).realm_bots;
    expect(memberBots.map((b: any) => b.user_id)).toContain(mine.user_id);
    expect(
      memberBots.every(
        (b: any) =>
          Object.keys(b).sort().join() ===
          "default_all_public_streams,default_events_register_stream,default_sending_stream,services,user_id",
      ),
    ).toBe(true);
    expect(memberBots.map((b: any) => b.user_id)).not.toContain(server.users.bot.id); // the owner's
    const adminBots = (await state(admin)).realm_bots.map((b: any) => b.user_id);
    expect(adminBots).toEqual(expect.arrayContaining([mine.user_id, server.users.bot.id, server.users.genericBot.id]));
    expect(adminBots).not.toContain(server.realm.notification_bot_id);

    try {
      await setPolicy(admin, "role:administrators", "role:members");
      expect((await state(member)).realm_bot_creation_policy).toBe(2);
      await setPolicy(admin, "role:administrators", "role:administrators");
      expect((await state(owner)).realm_bot_creation_policy).toBe(3);
      // The older setting sets both groups.
      expect((await as(admin).patch("/realm", { bot_creation_policy: 1 })).status).toBe(200);
      expect(await state(member)).toMatchObject({ realm_can_create_bots_group: members, realm_bot_creation_policy: 1 });
    } finally {
      await setPolicy(admin, "role:members", "role:members");
    }
  });

  it("sends realm update_dict to everyone; anonymous groups are accepted", async () => {
    const { admin, member, moderator } = server.users;
    const events = await queue(member);
    const value = { direct_members: [member.id], direct_subgroups: [await groupId("role:administrators")] };
    try {
      expect((await as(admin).patch("/realm", { can_create_bots_group: { new: value } })).status).toBe(200);
      expect(await events()).toContainEqual(
        expect.objectContaining({
          type: "realm",
          op: "update_dict",
          property: "default",
          data: { can_create_bots_group: value },
        }),
      );
      await createBot(member, { bot_type: 1 });
      await expectRefused(
        moderator,
        "post",
        "/bots",
        { full_name: "Mod Generic", short_name: "modg", bot_type: 1 },
        {
          code: "BAD_REQUEST",
          msg: "Invalid bot type",
        },
      );
    } finally {
      await setPolicy(admin, "role:members", "role:members");
    }
  });

  it("refuses non-administrators, a stale old value, everyone/internet groups and bad values, changing nothing", async () => {
    const { admin, member, moderator } = server.users;
    const realmRow = () => server.db("realms").where({ id: server.realm.id }).first();
    const anonymousGroups = async () =>
      (await server.db("user_groups").where({ realm_id: server.realm.id }).whereNull("name")).length;
    const before = await realmRow();
    const groupsBefore = await anonymousGroups();
    const admins = await groupId("role:administrators");
    const members = await groupId("role:members");
    const cases: [TestUser, Record<string, unknown>, { code: string; msg: string }][] = [
      [
        member,
        { can_create_bots_group: { new: admins } },
        { code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization administrator" },
      ],
      [
        moderator,
        { bot_creation_policy: 3 },
        { code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization administrator" },
      ],
      [
        admin,
        { can_create_bots_group: { new: admins, old: admins } },
        { code: "BAD_REQUEST", msg: "'old' value does not match the expected value." },
      ],
      [
        admin,
        { can_create_bots_group: { new: await groupId("role:everyone") } },
        { code: "BAD_REQUEST", msg: "'can_create_bots_group' setting cannot be set to 'role:everyone' group." },
      ],
      [
        admin,
        { can_create_write_only_bots_group: { new: await groupId("role:internet") } },
        {
          code: "BAD_REQUEST",
          msg: "'can_create_write_only_bots_group' setting cannot be set to 'role:internet' group.",
        },
      ],
      [admin, { can_create_bots_group: { new: 999999 } }, { code: "BAD_REQUEST", msg: "Invalid user group" }],
      [
        admin,
        { can_create_bots_group: { new: { direct_members: [999999], direct_subgroups: [] } } },
        { code: "BAD_REQUEST", msg: "Invalid user ID: 999999" },
      ],
      [
        admin,
        { can_create_bots_group: admins },
        { code: "BAD_REQUEST", msg: expect.stringContaining("can_create_bots_group is not an object") as never },
      ],
      [admin, { bot_creation_policy: 7 }, { code: "BAD_REQUEST", msg: "Invalid bot_creation_policy" }],
      // Both at once: the first is fine, the second is not; neither is written.
      [
        admin,
        { can_create_bots_group: { new: admins, old: members }, can_create_write_only_bots_group: { new: 999999 } },
        { code: "BAD_REQUEST", msg: "Invalid user group" },
      ],
    ];
    for (const [user, params, expected] of cases) {
      const res = await as(user).patch("/realm", params);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: "error", ...expected });
    }
    expect(await realmRow()).toEqual(before);
    expect(await anonymousGroups()).toBe(groupsBefore);
  });
});
