// People: presence (reports, the realm's presences in both formats, per user, events), POST /users,
// GET /user_groups, alert words, personal settings through PATCH /settings, and bot storage — the
// last through the Python client's wire format (form-encoded, JSON-encoded values, GET in the query).
import { createRealm } from "../../src/services/realms/realms";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function eventsOf(user: TestUser, queueId: string) {
  const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  return (res.body.events as any[]).filter((e) => e.type !== "heartbeat");
}

/** One call as python-zulip-api's do_api_query sends it. */
async function python(path: string, method: string, request: Record<string, unknown>, user: TestUser) {
  const encoded = new URLSearchParams(
    Object.entries(request).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  ).toString();
  const headers: Record<string, string> = {
    authorization: "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64"),
    "user-agent": "ZulipPython/0.9.0",
  };
  const url = `${server.url}/api/v1/${path}${method === "GET" && encoded ? `?${encoded}` : ""}`;
  if (method !== "GET") headers["content-type"] = "application/x-www-form-urlencoded";
  const res = await fetch(url, { method, headers, body: method === "GET" ? undefined : encoded });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe("presence", () => {
  it("a report (as zulip-terminal sends it) answers the realm's presences; others get a presence event", async () => {
    const { member, owner } = server.users;
    const legacyQueue = (await server.as(owner).post("/register", { event_types: ["presence"] })).body.queue_id;
    const modernQueue = (
      await server.as(owner).post("/register", {
        event_types: ["presence"],
        client_capabilities: { simplified_presence_events: true },
      })
    ).body.queue_id;
    const res = await python("users/me/presence", "POST", { status: "active", new_user_input: true }, member);
    expect(res.status).toBe(200);
    expect(res.body.presences[member.email]).toMatchObject({
      aggregated: { client: "website", status: "active", timestamp: expect.any(Number) },
      website: { client: "website", status: "active", pushable: false },
    });
    expect(res.body.server_timestamp).toEqual(expect.any(Number));
    expect(res.body.presence_last_update_id).toBeGreaterThan(0);
    expect(await eventsOf(owner, legacyQueue)).toEqual([
      expect.objectContaining({
        type: "presence",
        user_id: member.id,
        email: member.email,
        presence: { website: expect.objectContaining({ status: "active" }) },
      }),
    ]);
    const [modern] = await eventsOf(owner, modernQueue);
    expect(modern).toEqual({
      type: "presence",
      id: expect.any(Number),
      presences: { [member.id]: { active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) } },
    });
    // A second report within the minute changes nothing and tells nobody.
    await python("users/me/presence", "POST", { status: "active" }, member);
    expect(await eventsOf(owner, legacyQueue)).toHaveLength(1);
  });

  it("ping_only answers without presences; modern format with last_update_id; register and GET routes", async () => {
    const { member, owner, genericBot } = server.users;
    const ping = await server.as(owner).post("/users/me/presence", { status: "idle", ping_only: true });
    expect(ping.body).toEqual({ result: "success", msg: "" });
    const modern = await server.as(owner).post("/users/me/presence", { status: "idle", last_update_id: -1 });
    expect(Object.keys(modern.body.presences).sort()).toEqual([String(member.id), String(owner.id)].sort());
    expect(modern.body.presences[owner.id].active_timestamp).toBe(0);
    const since = await server.as(owner).post("/users/me/presence", {
      status: "idle",
      last_update_id: modern.body.presence_last_update_id,
    });
    expect(since.body.presences).toEqual({});
    const state = await server.as(owner).post("/register", { fetch_event_types: ["presence"], slim_presence: true });
    expect(state.body.presences[member.id]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    const realm = await server.as(owner).get("/realm/presence");
    expect(realm.body.presences[member.email].aggregated.status).toBe("active");
    const one = await server.as(owner).get(`/users/${member.id}/presence`);
    expect(one.body.presence.aggregated.status).toBe("active");
    expect((await server.as(owner).get(`/users/${encodeURIComponent(member.email)}/presence`)).body.presence).toEqual(
      one.body.presence,
    );
    expect((await server.as(owner).get(`/users/${server.users.other.id}/presence`)).body.msg).toBe(
      `No presence data for ${server.users.other.email}`,
    );
    expect((await server.as(owner).get(`/users/${genericBot.id}/presence`)).body.msg).toBe(
      "Presence is not supported for bot users.",
    );
    const bad = await server.as(owner).post("/users/me/presence", { status: "away" });
    expect(bad.status).toBe(400);
  });

  it("a user who turned presence sharing off is not shown", async () => {
    const { other, owner } = server.users;
    await server.as(other).patch("/settings", { presence_enabled: false });
    await server.as(other).post("/users/me/presence", { status: "active" });
    const res = await server.as(owner).post("/users/me/presence", { status: "active", slim_presence: true });
    expect(res.body.presences[other.id]).toBeUndefined();
    await server.as(other).patch("/settings", { presence_enabled: true });
  });
});

describe("presence across organizations", () => {
  it("another organization's users are never in this one's presences", async () => {
    const elsewhere = await createRealm(server.db, {
      subdomain: "presence-elsewhere",
      name: "Elsewhere",
      owner: { email: "boss@elsewhere.example", fullName: "Boss" },
    });
    const now = Math.floor(Date.now() / 1000);
    await server.db("user_presence").insert({
      user_id: elsewhere.owner.id,
      realm_id: elsewhere.realm.id,
      last_connected_time: now,
      last_active_time: now,
      last_update_id: 1,
    });
    const res = await server
      .as(server.users.owner)
      .post("/users/me/presence", { status: "active", last_update_id: -1 });
    expect(res.body.presences[elsewhere.owner.id]).toBeUndefined();
    const legacy = await server.as(server.users.owner).get("/realm/presence");
    expect(legacy.body.presences["boss@elsewhere.example"]).toBeUndefined();
    expect((await server.as(server.users.owner).get(`/users/${elsewhere.owner.id}/presence`)).body.msg).toBe(
      "No such user",
    );
  });
});

describe("POST /users", () => {
  it("an administrator creates an account that can sign in; everyone gets realm_user add", async () => {
    const { admin, member } = server.users;
    const queue = (await server.as(member).post("/register", { event_types: ["realm_user"] })).body.queue_id;
    const res = await python(
      "users",
      "POST",
      { email: "newbie@example.com", password: "quiet-river-47-lamp", full_name: "New Person" },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.user_id).toEqual(expect.any(Number));
    const [event] = await eventsOf(member, queue);
    expect(event).toMatchObject({
      type: "realm_user",
      op: "add",
      person: { user_id: res.body.user_id, email: "newbie@example.com", full_name: "New Person", delivery_email: null },
    });
    const key = await server.anonymous().post("/fetch_api_key", {
      username: "newbie@example.com",
      password: "quiet-river-47-lamp",
    });
    expect(key.status).toBe(200);
  });

  it("members cannot; taken emails, weak passwords and missing names are 400 and create nothing", async () => {
    const { admin, member } = server.users;
    const count = async () => Number((await server.db("users").count({ n: "*" }).first())!.n);
    const before = await count();
    const denied = await server.as(member).post("/users", {
      email: "x@example.com",
      password: "quiet-river-47-lamp",
      full_name: "X",
    });
    expect(denied.body).toMatchObject({ code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization administrator" });
    const taken = await server.as(admin).post("/users", {
      email: member.email,
      password: "quiet-river-47-lamp",
      full_name: "Again",
    });
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toBe(`Email '${member.email}' already in use`);
    const weak = await server.as(admin).post("/users", { email: "y@example.com", password: "short", full_name: "Y" });
    expect(weak.status).toBe(400);
    const nameless = await server.as(admin).post("/users", { email: "z@example.com", password: "quiet-river-47-lamp" });
    expect(nameless.body.code).toBe("REQUEST_VARIABLE_MISSING");
    expect(await count()).toBe(before);
  });
});

describe("GET /user_groups", () => {
  it("lists the system groups with their direct members and subgroups, never anonymous groups", async () => {
    const { owner } = server.users;
    const res = await server.as(server.users.member).get("/user_groups");
    expect(res.status).toBe(200);
    const byName = new Map(res.body.user_groups.map((g: any) => [g.name, g]));
    expect(byName.get("role:owners")).toMatchObject({ members: [owner.id], is_system_group: true, deactivated: false });
    const admins: any = byName.get("role:administrators");
    expect(admins.direct_subgroup_ids).toEqual([(byName.get("role:owners") as any).id]);
    expect(res.body.user_groups.every((g: any) => typeof g.name === "string")).toBe(true);
    const anonymous = await server.db("user_groups").where({ realm_id: server.realm.id }).whereNull("name");
    const listed = new Set(res.body.user_groups.map((g: any) => g.id));
    expect(anonymous.some((g: any) => listed.has(g.id))).toBe(false);
  });
});

describe("alert words", () => {
  it("adds, lists and removes (case-insensitively one word), with alert_words events", async () => {
    const { member } = server.users;
    const queue = (await server.as(member).post("/register", { event_types: ["alert_words"] })).body.queue_id;
    const added = await python(
      "users/me/alert_words",
      "POST",
      { alert_words: ["deploy", " Outage ", "deploy"] },
      member,
    );
    expect(added.body.alert_words).toEqual(["deploy", "Outage"]);
    await server.as(member).post("/users/me/alert_words", { alert_words: ["DEPLOY"] });
    expect((await server.as(member).get("/users/me/alert_words")).body.alert_words).toEqual(["deploy", "Outage"]);
    const removed = await server.as(member).delete("/users/me/alert_words", { alert_words: ["outage"] });
    expect(removed.body.alert_words).toEqual(["deploy"]);
    expect((await eventsOf(member, queue)).map((e) => e.alert_words)).toEqual([
      ["deploy", "Outage"],
      ["deploy", "Outage"],
      ["deploy"],
    ]);
    const state = await server.as(member).post("/register", { fetch_event_types: ["alert_words"] });
    expect(state.body.alert_words).toEqual(["deploy"]);
    // Other users' words are their own.
    expect((await server.as(server.users.other).get("/users/me/alert_words")).body.alert_words).toEqual([]);
  });

  it("a too long word or a non-list is refused and nothing is written", async () => {
    const { member } = server.users;
    const long = await server.as(member).post("/users/me/alert_words", { alert_words: ["ok", "x".repeat(101)] });
    expect(long.status).toBe(400);
    expect(long.body.msg).toContain("MAX_ALERT_WORD_LENGTH");
    expect((await server.as(member).post("/users/me/alert_words", { alert_words: "deploy" })).status).toBe(400);
    expect((await server.as(member).get("/users/me/alert_words")).body.alert_words).toEqual(["deploy"]);
  });

  it("flags has_alert_word for the recipients whose words occur as whole words, at send and at edit", async () => {
    const { member, other, owner } = server.users;
    await server.as(member).post("/users/me/alert_words", { alert_words: ["Big Outage"] });
    await server.as(other).post("/users/me/alert_words", { alert_words: ["ship"] });
    const queue = (await server.as(member).post("/register", { event_types: ["message", "update_message"] })).body
      .queue_id;
    const send = async (content: string) =>
      (await server.as(owner).post("/messages", { type: "stream", to: "general", topic: "alerts", content })).body
        .id as number;
    const flagsOf = async (user: TestUser, id: number) =>
      (await server.as(user).get("/messages", { anchor: id, num_before: 0, num_after: 0 })).body.messages[0]
        .flags as string[];

    const alerting = await send("Starting the DEPLOY now (a big  outage? no: a BIG OUTAGE!)");
    const partOfWord = await send("redeploy and deploys, shipping");
    expect(await flagsOf(member, alerting)).toContain("has_alert_word");
    expect(await flagsOf(other, alerting)).not.toContain("has_alert_word");
    expect(await flagsOf(member, partOfWord)).not.toContain("has_alert_word");
    expect(await flagsOf(other, partOfWord)).not.toContain("has_alert_word");
    const messageEvents = (await eventsOf(member, queue)).filter((e) => e.type === "message");
    expect(messageEvents.map((e) => [e.message.id, e.flags.includes("has_alert_word")])).toEqual([
      [alerting, true],
      [partOfWord, false],
    ]);

    const alerted = await server.as(member).get("/messages", {
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify([{ operator: "is", operand: "alerted" }]),
    });
    expect(alerted.status).toBe(200);
    expect(alerted.body.messages.map((m: { id: number }) => m.id)).toEqual([alerting]);

    // An edit recomputes the flag: gained by one recipient, lost by the other.
    const edited = await server.as(owner).patch(`/messages/${partOfWord}`, { content: "time to ship, then deploy" });
    expect(edited.status).toBe(200);
    expect(await flagsOf(member, partOfWord)).toContain("has_alert_word");
    expect(await flagsOf(other, partOfWord)).toContain("has_alert_word");
    await server.as(owner).patch(`/messages/${partOfWord}`, { content: "time to ship" });
    expect(await flagsOf(member, partOfWord)).not.toContain("has_alert_word");
    expect(await flagsOf(other, partOfWord)).toContain("has_alert_word");
    const updates = (await eventsOf(member, queue)).filter((e) => e.type === "update_message");
    expect(updates.map((e) => e.flags.includes("has_alert_word"))).toEqual([true, false]);
    await server.as(member).delete("/users/me/alert_words", { alert_words: ["Big Outage"] });
    await server.as(other).delete("/users/me/alert_words", { alert_words: ["ship"] });
  });
});

describe("user settings with PATCH /settings", () => {
  it("changes settings (as the Python client encodes them) with user_settings update events", async () => {
    const { member } = server.users;
    const queue = (await server.as(member).post("/register", { event_types: ["user_settings"] })).body.queue_id;
    const res = await python(
      "settings",
      "PATCH",
      { twenty_four_hour_time: true, emojiset: "text", web_font_size_px: 18 },
      member,
    );
    expect(res.status).toBe(200);
    expect((await eventsOf(member, queue)).map(({ op, property, value }) => ({ op, property, value }))).toEqual([
      { op: "update", property: "twenty_four_hour_time", value: true },
      { op: "update", property: "web_font_size_px", value: 18 },
      { op: "update", property: "emojiset", value: "text" },
    ]);
    const state = await server.as(member).post("/register", { fetch_event_types: ["user_settings"] });
    expect(state.body.user_settings).toMatchObject({
      twenty_four_hour_time: true,
      emojiset: "text",
      web_font_size_px: 18,
    });
    const others = await server.as(server.users.other).post("/register", { fetch_event_types: ["user_settings"] });
    expect(others.body.user_settings.twenty_four_hour_time).toBe(false);
  });

  it("one bad value refuses them all; a wrong old password changes no setting", async () => {
    const { member } = server.users;
    const bad = await server.as(member).patch("/settings", { enter_sends: true, color_scheme: 9 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ msg: "Invalid color_scheme", var_name: "color_scheme" });
    const wrong = await server.as(member).patch("/settings", {
      enter_sends: true,
      old_password: "not it",
      new_password: "quiet-river-47-lamp",
    });
    expect(wrong.status).toBe(400);
    const state = await server.as(member).post("/register", { fetch_event_types: ["user_settings"] });
    expect(state.body.user_settings.enter_sends).toBe(false);
    expect(state.body.user_settings.color_scheme).toBe(1);
  });
});

describe("bot storage (the bot framework's StateHandler calls)", () => {
  it("put, get (all or some keys), delete — per bot, values as the framework marshals them", async () => {
    const { genericBot } = server.users;
    const put = await python(
      "bot_storage",
      "PUT",
      { storage: { counter: JSON.stringify(1), name: '"x"' } },
      genericBot,
    );
    expect(put).toEqual({ status: 200, body: { result: "success", msg: "" } });
    await python("bot_storage", "PUT", { storage: { counter: JSON.stringify(2) } }, genericBot);
    expect((await python("bot_storage", "GET", { keys: ["counter"] }, genericBot)).body.storage).toEqual({
      counter: "2",
    });
    expect((await python("bot_storage", "GET", {}, genericBot)).body.storage).toEqual({ counter: "2", name: '"x"' });
    const missing = await python("bot_storage", "GET", { keys: ["counter", "nope"] }, genericBot);
    expect(missing).toEqual({
      status: 400,
      body: { result: "error", code: "BAD_REQUEST", msg: "Key does not exist." },
    });
    const delMissing = await python("bot_storage", "DELETE", { keys: ["name", "nope"] }, genericBot);
    expect(delMissing.body.msg).toBe("Key does not exist.");
    expect((await python("bot_storage", "GET", {}, genericBot)).body.storage).toEqual({ counter: "2", name: '"x"' });
    await python("bot_storage", "DELETE", { keys: ["name"] }, genericBot);
    expect((await python("bot_storage", "GET", {}, genericBot)).body.storage).toEqual({ counter: "2" });
    await python("bot_storage", "DELETE", {}, genericBot);
    expect((await python("bot_storage", "GET", {}, genericBot)).body.storage).toEqual({});
  });

  it("each bot has its own storage", async () => {
    const { genericBot, owner } = server.users;
    const other = await server.as(owner).post("/bots", { full_name: "Second Bot", short_name: "second", bot_type: 1 });
    expect(other.status).toBe(200);
    const second = {
      ...genericBot,
      id: other.body.user_id,
      email: (await server.db("users").where({ id: other.body.user_id }).first()).email,
      apiKey: other.body.api_key,
    } as TestUser;
    await python("bot_storage", "PUT", { storage: { mine: "first" } }, genericBot);
    expect((await python("bot_storage", "GET", {}, second)).body.storage).toEqual({});
    expect((await python("bot_storage", "GET", { keys: ["mine"] }, second)).body.msg).toBe("Key does not exist.");
    await python("bot_storage", "DELETE", {}, second);
    expect((await python("bot_storage", "GET", {}, genericBot)).body.storage).toEqual({ mine: "first" });
    await python("bot_storage", "DELETE", {}, genericBot);
  });

  it("humans are refused (PERMISSION_DENIED), incoming webhook bots too; non-string values are 400", async () => {
    const { member, genericBot, bot } = server.users;
    expect(await python("bot_storage", "GET", {}, member)).toEqual({
      status: 400,
      body: { result: "error", code: "PERMISSION_DENIED", msg: "Must be a bot user" },
    });
    expect((await python("bot_storage", "PUT", { storage: { a: "b" } }, bot)).status).toBe(400);
    const notString = await python("bot_storage", "PUT", { storage: { a: 1 } }, genericBot);
    expect(notString.status).toBe(400);
    expect((await python("bot_storage", "GET", {}, genericBot)).body.storage).toEqual({});
  });

  it("the size limit counts keys and values; past it nothing is written and the excess is named", async () => {
    const { genericBot } = server.users;
    // Filled in requests that each fit the request body limit (MAX_BODY_BYTES, 1 MB).
    for (let i = 0; i < 10; i++)
      expect(
        (await python("bot_storage", "PUT", { storage: { [`k${i}`]: "x".repeat(999_000) } }, genericBot)).status,
      ).toBe(200);
    const over = await python("bot_storage", "PUT", { storage: { more: "y".repeat(10_000), k0: "z" } }, genericBot);
    // 10 × (2 + 999,000) stored; k0 becomes 2 + 1 and "more" adds 4 + 10,000: 9,001,025, within the limit.
    expect(over.status).toBe(200);
    const tooMuch = await python(
      "bot_storage",
      "PUT",
      { storage: { k0: "x".repeat(999_000), k10: "w".repeat(10) } },
      genericBot,
    );
    // Without k0: 9,001,022; k0 again (999,002) and k10 (13): 10,000,037, 37 over.
    expect(tooMuch.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Request exceeds storage limit by 37 characters. The limit is 10000000 characters.",
    });
    const stored = (await python("bot_storage", "GET", { keys: ["k0"] }, genericBot)).body.storage;
    expect(stored).toEqual({ k0: "z" });
    expect((await python("bot_storage", "GET", { keys: ["k10"] }, genericBot)).body.msg).toBe("Key does not exist.");
  });
});
