// The bot owner's pages over real HTTP with a web session: /bots/ (create, new key, deactivate,
// zuliprc), the URL builder's session mode on /integrations/<name>, the signed-in Recent deliveries
// (messages rendered, where they went) and the header on every page. Permissions: other users'
// bots, other organizations, guests, deactivated users; bad input and missing CSRF change nothing.
import http from "node:http";
import { createRealm } from "../../src/services/realms/realms";
import { setPassword } from "../../src/services/users/credentials";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { givePassword, PASSWORD, signInOverHttp } from "../support/webSession";

let server: TestServer;
let port: string;

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A raw request, so the Host header (the organization) can be chosen. */
function request(
  method: string,
  path: string,
  options: { body?: Record<string, string>; cookie?: string; host?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${port}` };
    if (options.cookie) headers.cookie = options.cookie;
    const req = http.request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on("error", reject);
    if (options.body) {
      req.setHeader("content-type", "application/x-www-form-urlencoded");
      req.write(new URLSearchParams(options.body).toString());
    }
    req.end();
  });
}

const sessions = new Map<number, { cookie: string; csrf: string }>();
async function signedIn(user: TestUser): Promise<{ cookie: string; csrf: string }> {
  if (!sessions.has(user.id)) {
    await givePassword(server, user);
    const s = await signInOverHttp(server, user.email);
    sessions.set(user.id, { cookie: s.cookie, csrf: s.csrfToken });
  }
  return sessions.get(user.id)!;
}

/** A form post from /bots/ as `user`, with their CSRF token unless `csrf` says otherwise. */
async function post(user: TestUser, path: string, fields: Record<string, string> = {}, csrf?: string | null) {
  const s = await signedIn(user);
  const body = csrf === null ? fields : { csrf_token: csrf ?? s.csrf, ...fields };
  return request("POST", path, { cookie: s.cookie, body });
}

const shownKey = (page: string) => /id="new-key-value" readonly spellcheck="false" value="([^"]+)"/.exec(page)?.[1];
const userCount = async () => Number((await server.db("users").count({ n: "*" }))[0].n);
const botRow = (id: number) => server.db("users").where({ id }).first();

async function deliver(key: string, fields: Record<string, string>, topic?: string) {
  const query = new URLSearchParams({ api_key: key, stream: "general", ...(topic ? { topic } : {}) });
  const res = await fetch(`${server.url}/api/v1/external/helloworld?${query}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fields),
  });
  await server.deps.webhookOps.log.idle();
  return res.status;
}

beforeAll(async () => {
  server = await startTestServer();
  port = new URL(server.url).port;
});
afterAll(async () => {
  await server.close();
});

describe("/bots/", () => {
  it("sends a signed-out visitor to sign in and back, and refuses a signed-out post", async () => {
    const page = await request("GET", "/bots/");
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe("/login/?next=%2Fbots%2F");
    const before = await userCount();
    const posted = await request("POST", "/bots/", {
      body: { full_name: "Sneaky", short_name: "sneaky", bot_type: "2" },
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe("/login/?next=%2Fbots%2F");
    expect(await userCount()).toBe(before);
  });

  it("lists only the signed-in user's own bots, with the header naming them", async () => {
    const { member } = server.users;
    const s = await signedIn(member);
    const page = await request("GET", "/bots/", { cookie: s.cookie });
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.body).toContain('<span id="signed-in-user">Mel Member</span>');
    expect(page.body).toContain(`<input type="hidden" name="csrf_token" value="${s.csrf}" />`);
    expect(page.body).toContain("generic-bot@test.example");
    // The owner's webhook bot is not the member's.
    expect(page.body).not.toContain("webhook-bot@test.example");
    expect(page.body).toMatch(/<option value="2"\s+selected>Incoming webhook<\/option>/);
  });

  it("creates an incoming-webhook bot, shows its key once, and the key posts a webhook", async () => {
    const { member } = server.users;
    const page = await post(member, "/bots/", { full_name: "Deploy Hook", short_name: "deploy", bot_type: "2" });
    expect(page.status).toBe(200);
    expect(page.body).toContain("Bot created: Deploy Hook");
    expect(page.body).toContain("it is shown only this once");
    const key = shownKey(page.body)!;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    const bot = await server.db("users").where({ email: "deploy-bot@localhost" }).first();
    expect(bot).toMatchObject({ full_name: "Deploy Hook", bot_type: 2, bot_owner_id: member.id });
    expect(bot.api_key_hash).not.toBe(key);
    expect(await deliver(key, { featured_title: "Hi", featured_url: "https://example.com/" })).toBe(200);
    // Listed afterwards, the key never again.
    const again = await request("GET", "/bots/", { cookie: (await signedIn(member)).cookie });
    expect(again.body).toContain("deploy-bot@localhost");
    expect(again.body).not.toContain(key);
  });

  it("refuses bad input with a clear error and writes nothing", async () => {
    const { member } = server.users;
    const cases: [Record<string, string>, string][] = [
      [{ full_name: "", short_name: "empty", bot_type: "2" }, "Name too short! It needs at least"],
      [{ full_name: "Spaces Bot", short_name: "has space", bot_type: "2" }, "Bad name or username"],
      [{ full_name: "Embedded", short_name: "embedded", bot_type: "4" }, "Embedded bots are not enabled."],
      [{ full_name: "Weird Type", short_name: "weird", bot_type: "x" }, "Invalid bot type"],
      [{ full_name: "Deploy Hook", short_name: "deploy2", bot_type: "2" }, "Name is already in use!"],
      [{ full_name: "Deploy Again", short_name: "deploy", bot_type: "2" }, "Username already in use"],
      [
        { full_name: "x".repeat(101), short_name: "long", bot_type: "2" },
        "Name too long! The limit is 100 characters.",
      ],
    ];
    for (const [fields, message] of cases) {
      const before = await userCount();
      const page = await post(member, "/bots/", fields);
      expect(page.status).toBe(400);
      expect(page.body).toContain('id="bots-error" role="alert"');
      expect(/id="bots-error" role="alert">([^<]*)</.exec(page.body)![1]).toContain(message);
      expect(shownKey(page.body)).toBeUndefined();
      // The form keeps what was typed.
      expect(page.body).toContain(`value="${fields.short_name}"`);
      expect(await userCount()).toBe(before);
    }
  });

  it("refuses a post without the session's CSRF token, changing nothing", async () => {
    const { member } = server.users;
    const before = await userCount();
    for (const csrf of [null, "wrong-token"]) {
      const page = await post(member, "/bots/", { full_name: "No Token", short_name: "notoken", bot_type: "2" }, csrf);
      expect(page.status).toBe(403);
      expect(page.body).toMatch(/CSRF error: the CSRF token is (missing|wrong)\. Nothing was changed/);
    }
    const { genericBot } = server.users;
    const hash = (await botRow(genericBot.id)).api_key_hash;
    expect((await post(member, `/bots/${genericBot.id}/regenerate`, {}, null)).status).toBe(403);
    expect((await post(member, `/bots/${genericBot.id}/deactivate`, {}, "nope")).status).toBe(403);
    expect(await botRow(genericBot.id)).toMatchObject({ api_key_hash: hash, is_active: expect.anything() });
    expect(Boolean((await botRow(genericBot.id)).is_active)).toBe(true);
    expect(await userCount()).toBe(before);
  });

  it("gives an own bot a new key: the old one stops working, the new one works", async () => {
    const { member } = server.users;
    const created = await post(member, "/bots/", { full_name: "Rotating", short_name: "rotating", bot_type: "2" });
    const oldKey = shownKey(created.body)!;
    const id = Number(/data-bot-id="(\d+)"/.exec(created.body)![1]);
    const page = await post(member, `/bots/${id}/regenerate`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("New key for Rotating");
    const newKey = shownKey(page.body)!;
    expect(newKey).not.toBe(oldKey);
    expect(await deliver(oldKey, { featured_title: "Old", featured_url: "https://example.com/" })).toBe(401);
    expect(await deliver(newKey, { featured_title: "New", featured_url: "https://example.com/" })).toBe(200);
  });

  it("downloads the zuliprc of a key just shown, and refuses any other key", async () => {
    const { member } = server.users;
    const created = await post(member, "/bots/", { full_name: "Rc Bot", short_name: "rc", bot_type: "1" });
    const key = shownKey(created.body)!;
    const id = Number(/data-bot-id="(\d+)"/.exec(created.body)![1]);
    const file = await post(member, `/bots/${id}/zuliprc`, { api_key: key });
    expect(file.status).toBe(200);
    expect(file.headers["content-disposition"]).toBe('attachment; filename="zuliprc-rc-bot"');
    expect(file.body).toBe(`[api]\nemail=rc-bot@localhost\nkey=${key}\nsite=http://localhost:9991\n`);
    const wrong = await post(member, `/bots/${id}/zuliprc`, { api_key: "not-the-key" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain("That is not the bot&#39;s current API key");
    expect(wrong.body).not.toContain("not-the-key");
  });

  it("deactivates an own bot: unlisted, and its key no longer works", async () => {
    const { member } = server.users;
    const created = await post(member, "/bots/", { full_name: "Short Lived", short_name: "short", bot_type: "2" });
    const key = shownKey(created.body)!;
    const id = Number(/data-bot-id="(\d+)"/.exec(created.body)![1]);
    const page = await post(member, `/bots/${id}/deactivate`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("The bot is deactivated");
    expect(page.body).not.toContain("short-bot@localhost");
    expect(Boolean((await botRow(id)).is_active)).toBe(false);
    expect(await deliver(key, { featured_title: "Late", featured_url: "https://example.com/" })).toBe(401);
    const twice = await post(member, `/bots/${id}/deactivate`);
    expect(twice.status).toBe(400);
    expect(twice.body).toContain("Bot is already deactivated");
  });

  it("lets nobody else manage a bot (administrators excepted), and changes nothing", async () => {
    const { other, member, admin, genericBot, owner } = server.users;
    const before = await botRow(genericBot.id);
    for (const path of ["regenerate", "deactivate", "zuliprc"]) {
      const page = await post(other, `/bots/${genericBot.id}/${path}`, { api_key: "whatever" });
      expect(page.status).toBe(400);
      expect(page.body).toContain("Insufficient permission");
      expect(shownKey(page.body)).toBeUndefined();
    }
    // A person, a system bot or an unknown id is "No such bot".
    for (const id of [owner.id, 999999, "abc"]) {
      const page = await post(member, `/bots/${id}/regenerate`);
      expect(page.status).toBe(400);
      expect(page.body).toContain("No such bot");
    }
    expect(await botRow(genericBot.id)).toEqual(before);
    // An administrator may (the REST API's rule).
    const page = await post(admin, `/bots/${genericBot.id}/regenerate`);
    expect(page.status).toBe(200);
    expect(shownKey(page.body)).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await botRow(genericBot.id)).api_key_hash).not.toBe(before.api_key_hash);
  });

  it("tells a guest they cannot have bots, and refuses their post", async () => {
    const { guest } = server.users;
    const s = await signedIn(guest);
    const page = await request("GET", "/bots/", { cookie: s.cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain("Guests cannot have bots");
    expect(page.body).not.toContain('id="create-bot"');
    const before = await userCount();
    const posted = await post(guest, "/bots/", { full_name: "Guest Bot", short_name: "guestbot", bot_type: "2" });
    expect(posted.status).toBe(400);
    expect(posted.body).toContain("Not allowed for guest users");
    expect(await userCount()).toBe(before);
  });

  it("ends with the user's deactivation: pages send them to sign in, posts do nothing", async () => {
    const { createUser } = await import("../../src/services/users/users");
    const { user, apiKey } = await createUser(server.db, server.realm.id, {
      email: "leaving@test.example",
      fullName: "Lee Leaving",
      role: 400,
    });
    const leaving = { ...user, apiKey };
    const s = await signedIn(leaving);
    expect((await request("GET", "/bots/", { cookie: s.cookie })).status).toBe(200);
    // Deactivated as the operator would (the user-management route is not this file's subject).
    await server.db("users").where({ id: leaving.id }).update({ is_active: false });
    expect((await request("GET", "/bots/", { cookie: s.cookie })).status).toBe(302);
    const before = await userCount();
    const posted = await post(leaving, "/bots/", { full_name: "Too Late", short_name: "toolate", bot_type: "2" });
    expect(posted.status).toBe(303);
    expect(await userCount()).toBe(before);
  });

  it("keeps organizations apart: another organization's session and bots", async () => {
    const acme = await createRealm(server.db, {
      subdomain: "acme",
      name: "Acme",
      owner: { email: "boss@acme.example", fullName: "Acme Boss" },
    });
    await setPassword(server.db, acme.owner, PASSWORD, { apiKey: acme.ownerApiKey });
    const host = `acme.localhost:${port}`;
    const login = await request("POST", "/login/", {
      host,
      body: { email: "boss@acme.example", password: PASSWORD, next: "/bots/" },
    });
    expect(login.status).toBe(303);
    const cookie = login.headers["set-cookie"]!.find((c) => c.startsWith("switchboard_session="))!.split(";")[0];
    const page = await request("GET", "/bots/", { host, cookie });
    expect(page.status).toBe(200);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)![1];
    // The test organization's bot is not one of Acme's, even for Acme's owner.
    const { genericBot } = server.users;
    const before = await botRow(genericBot.id);
    const refused = await request("POST", `/bots/${genericBot.id}/deactivate`, {
      host,
      cookie,
      body: { csrf_token: csrf },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("No such bot");
    expect(await botRow(genericBot.id)).toEqual(before);
    // Acme's session does not count on the test organization's host.
    expect((await request("GET", "/bots/", { cookie })).status).toBe(302);
  });
});

describe("the URL builder with a session", () => {
  it("offers the signed-in user's bots and channels instead of key fields", async () => {
    const { member } = server.users;
    const page = await request("GET", "/integrations/helloworld", { cookie: (await signedIn(member)).cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-signed-in="true"');
    expect(page.body).toContain('<select id="bot_pick"');
    expect(page.body).toContain('data-email="deploy-bot@localhost"');
    expect(page.body).not.toContain("webhook-bot@test.example");
    expect(page.body).toMatch(/<option value="general"\s+selected>general<\/option>/);
    expect(page.body).not.toContain('id="owner_key"');
    expect(page.body).toContain('id="post_test"');
    expect(page.body).toContain('<span id="signed-in-user">Mel Member</span>');
  });

  it("keeps the email + key builder for signed-out visitors, with a sign-in link", async () => {
    const page = await request("GET", "/integrations/helloworld");
    expect(page.body).toContain('data-signed-in="false"');
    expect(page.body).toContain('id="owner_key"');
    expect(page.body).not.toContain('id="bot_pick"');
    expect(page.body).toContain('<a href="/login/" id="sign-in-link">Sign in</a>');
    expect(page.body).not.toContain("csrf");
  });
});

describe("Recent deliveries with a session", () => {
  let key: string;
  beforeAll(async () => {
    const created = await post(server.users.member, "/bots/", {
      full_name: "Hello Hook",
      short_name: "hello",
      bot_type: "2",
    });
    key = shownKey(created.body)!;
    expect(
      await deliver(
        key,
        { featured_title: "<img src=x onerror=alert(1)> Pharos", featured_url: "https://example.com/p" },
        "Lighthouses",
      ),
    ).toBe(200);
  });

  it("shows the user's deliveries at once, each message rendered with its channel and topic", async () => {
    const page = await request("GET", "/integrations/deliveries", {
      cookie: (await signedIn(server.users.member)).cookie,
    });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('id="owner_key"');
    const item = /<li class="delivery"[\s\S]*?<\/li>/.exec(page.body)![0];
    expect(item).toContain("Hello Hook");
    expect(item).toContain('<span class="outcome outcome-message">message</span>');
    expect(item).toContain('<span class="channel">#general</span>');
    expect(item).toContain('<span class="topic">Lighthouses</span>');
    const message = await server.db("messages").orderBy("id", "desc").first();
    // The stored HTML, but its emoji show their character rather than a sprite sheet's `:name:`.
    const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">';
    expect(message.rendered_content).toContain(`${smile}:smile:</span>`);
    const shown = message.rendered_content.replace(`${smile}:smile:</span>`, `${smile}\u{1f642}</span>`);
    expect(item).toContain(`<div class="rendered">${shown}</div>`);
    expect(item).not.toContain(":smile:");
    expect(message.rendered_content).toContain('<a href="https://example.com/p"');
    const listed = page.body.match(/<li class="delivery"/g)!.length;
    expect(listed).toBeGreaterThan(1); // the earlier tests' bots delivered too
    expect(page.body).toContain(`${listed} deliveries, newest first.`);
    expect(item).toContain('<p class="details">1 message posted</p>');
    // The payload's markup is text, never markup.
    expect(item).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(item).not.toContain("<img");
  });

  it("hides them from other members, shows them to administrators, and filters by bot", async () => {
    const other = await request("GET", "/integrations/deliveries", {
      cookie: (await signedIn(server.users.other)).cookie,
    });
    expect(other.body).not.toContain("Lighthouses");
    expect(other.body).toContain("No deliveries yet.");
    const admin = await request("GET", "/integrations/deliveries", {
      cookie: (await signedIn(server.users.admin)).cookie,
    });
    expect(admin.body).toContain("Lighthouses");
    const bot = await server.db("users").where({ email: "hello-bot@localhost" }).first();
    const mine = await request("GET", `/integrations/deliveries?bot_id=${bot.id}`, {
      cookie: (await signedIn(server.users.member)).cookie,
    });
    expect(mine.body).toContain("Lighthouses");
    expect(mine.body).toContain("1 delivery, newest first."); // this bot's one delivery: singular
    // Another user's bot id shows nothing, not their deliveries.
    const foreign = await request("GET", `/integrations/deliveries?bot_id=${bot.id}`, {
      cookie: (await signedIn(server.users.other)).cookie,
    });
    expect(foreign.body).not.toContain("Lighthouses");
  });

  it("answers a malformed filter with a clear error", async () => {
    const cookie = (await signedIn(server.users.member)).cookie;
    const bad = await request("GET", "/integrations/deliveries?bot_id=abc", { cookie });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Invalid bot: pick one from the list.");
    const unknown = await request("GET", "/integrations/deliveries?integration=nope", { cookie });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain("No integration called &#39;nope&#39;.");
  });

  it("replays a delivery from a form with the CSRF token, and refuses one without", async () => {
    const { member } = server.users;
    const s = await signedIn(member);
    const page = await request("GET", "/integrations/deliveries", { cookie: s.cookie });
    const id = Number(/<li class="delivery" data-id="(\d+)"/.exec(page.body)![1]);
    const count = async () => Number((await server.db("messages").count({ n: "*" }))[0].n);
    const before = await count();
    const refused = await request("POST", `/integrations/deliveries/${id}/replay`, { cookie: s.cookie, body: {} });
    expect(refused.status).toBe(403);
    expect(await count()).toBe(before);
    const replayed = await post(member, `/integrations/deliveries/${id}/replay`);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toContain(`Replayed delivery ${id}: message.`);
    expect(await count()).toBe(before + 1);
    // Someone else's delivery is "not found".
    const foreign = await post(server.users.other, `/integrations/deliveries/${id}/replay`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toContain("Replay failed: Delivery not found");
    expect(await count()).toBe(before + 1);
  });
});

describe("the header on every page", () => {
  it("names the signed-in user with a sign-out button that ends the session", async () => {
    const { moderator } = server.users;
    const s = await signedIn(moderator);
    for (const path of [
      "/integrations/",
      "/integrations/helloworld",
      "/integrations/deliveries",
      "/integrations/nope",
      "/bots/",
      "/login/",
    ]) {
      const page = await request("GET", path, { cookie: s.cookie });
      expect(page.body).toContain('<span id="signed-in-user">Mona Moderator</span>');
      expect(page.body).toContain('<form method="post" action="/logout/">');
    }
    const out = await request("POST", "/logout/", { cookie: s.cookie, body: { csrf_token: s.csrf } });
    expect(out.status).toBe(303);
    sessions.delete(moderator.id);
    const after = await request("GET", "/integrations/", { cookie: s.cookie });
    expect(after.body).toContain('id="sign-in-link"');
    expect(after.body).not.toContain("Mona Moderator");
  });
});
