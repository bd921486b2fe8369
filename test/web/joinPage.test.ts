// /join/<key>/ over real HTTP: the form, account creation with the invitation's role, channels and
// groups, sign-in, the referrer's notice, and a clear page (never a 500) for every unusable link.
import http from "node:http";
import { createNamedGroup } from "../../src/services/groups/groups";
import { createRealm } from "../../src/services/realms/realms";
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
let groupId: number;
beforeAll(async () => {
  server = await startTestServer();
  groupId = await createNamedGroup(server.db, server.realm, { name: "joiners", description: "", memberEmails: [] });
});
afterAll(async () => {
  await server.close();
});

interface Page {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A raw request, so the Host header (the organization) can be chosen. */
function request(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<Page> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { host: `localhost:${url.port}`, ...options.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    if (options.body !== undefined) {
      req.setHeader("content-type", "application/x-www-form-urlencoded");
      req.write(options.body);
    }
    req.end();
  });
}

async function openForm(link: string): Promise<{ token: string; cookie: string; page: Page }> {
  const page = await request("GET", new URL(link).pathname);
  expect(page.status).toBe(200);
  const token = /name="form_token" value="([0-9a-f]+)"/.exec(page.body)![1];
  const cookie = (page.headers["set-cookie"] ?? []).find((c) => c.startsWith("switchboard_join="))!.split(";")[0];
  return { token, cookie, page };
}

async function submit(link: string, fields: Record<string, string>, opened?: { token: string; cookie: string }) {
  const form = opened ?? (await openForm(link));
  const body = new URLSearchParams({ form_token: form.token, ...fields }).toString();
  return request("POST", new URL(link).pathname, {
    body,
    headers: {
      cookie: form.cookie,
      origin: `http://localhost:${new URL(server.url).port}`,
      "sec-fetch-site": "same-origin",
    },
  });
}

// Accounts are only ever added by a join: the count (in every organization) says whether one was.
const users = () =>
  server
    .db("users")
    .whereNot({ email: "boss@elsewhere.example" })
    .whereNot({ email: "notification-bot@elsewhere.example" })
    .count({ n: "*" })
    .first();

async function multiuseLink(params: Record<string, unknown> = {}): Promise<string> {
  const res = await server.as(server.users.admin).post("/invites/multiuse", {
    stream_ids: [server.general.id],
    group_ids: [groupId],
    invite_as: 300,
    ...params,
  });
  expect(res.status).toBe(200);
  return res.body.invite_link;
}

const PASSWORD = "correct horse battery staple";

describe("GET and POST /join/<key>/", () => {
  it("creates the account from a reusable link with its role, channels and groups, and signs it in", async () => {
    const link = await multiuseLink();
    expect(link).toMatch(/^http:\/\/localhost:9991\/join\/[a-z0-9]+\/$/);
    const opened = await openForm(link);
    expect(opened.page.body).toContain("Join Test Org");
    expect(opened.page.body).toContain('name="email"');
    const res = await submit(
      link,
      { full_name: "Nina Newcomer", email: "nina@example.org", password: PASSWORD },
      opened,
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/integrations/");
    expect((res.headers["set-cookie"] ?? []).some((c) => c.startsWith("switchboard_session="))).toBe(true);
    const user = await server.db("users").where({ email: "nina@example.org" }).first();
    expect(user).toMatchObject({ full_name: "Nina Newcomer", role: 300, is_active: 1 });
    expect(
      await server.db("subscriptions").where({ user_id: user.id, stream_id: server.general.id }).first(),
    ).toBeDefined();
    expect(await server.db("user_group_members").where({ group_id: groupId, user_id: user.id }).first()).toBeDefined();
    expect(await server.db("user_passwords").where({ user_id: user.id }).first()).toBeDefined();
    // The referrer is told by the Notification Bot (notify_referrer_on_join is on for links).
    const notice = await server
      .db("messages")
      .where({ sender_id: server.realm.notification_bot_id })
      .orderBy("id", "desc")
      .first();
    expect(notice.content).toBe(`@_**Nina Newcomer|${user.id}** accepted your invitation to join Zulip!`);
    const dm = await server
      .db("user_messages")
      .where({ message_id: notice.id, user_id: server.users.admin.id })
      .first();
    expect(dm).toBeDefined();
    // The same link still works for the next person.
    const again = await submit(link, { full_name: "Omar Other", email: "omar@example.org", password: PASSWORD });
    expect(again.status).toBe(303);
  });

  it("accepts an email invitation once (without SMTP_URL), then says it was used", async () => {
    const res = await server.as(server.users.member).post("/invites", {
      invitee_emails: "ella@example.org",
      stream_ids: [server.general.id],
      notify_referrer_on_join: false,
    });
    expect(res.status).toBe(200);
    const key = (await server.db("invitations").where({ email: "ella@example.org" }).first()).link_key;
    const link = `http://localhost:9991/join/${key}/`;
    const opened = await openForm(link);
    expect(opened.page.body).toContain('value="ella@example.org" readonly');
    const messagesBefore = await server.db("messages").count({ n: "*" }).first();
    // A reusable link's email field is ignored: the invitation's address is used.
    const joined = await submit(link, { full_name: "Ella", email: "evil@example.org", password: PASSWORD }, opened);
    expect(joined.status).toBe(303);
    expect(await server.db("users").where({ email: "ella@example.org" }).first()).toMatchObject({ role: 400 });
    expect(await server.db("users").where({ email: "evil@example.org" }).first()).toBeUndefined();
    expect(await server.db("messages").count({ n: "*" }).first()).toEqual(messagesBefore);
    const used = await request("GET", `/join/${key}/`);
    expect(used.status).toBe(410);
    expect(used.body).toContain("already been used");
    expect((await server.as(server.users.member).get("/invites")).body.invites).toEqual([]);
  });

  it("shows the form again with a clear error for bad input, writing nothing", async () => {
    const link = await multiuseLink();
    const before = await users();
    const cases: [Record<string, string>, string][] = [
      [{ full_name: "Pat", email: "pat@example.org", password: "short" }, "Password"],
      [{ full_name: "  ", email: "pat@example.org", password: PASSWORD }, "Enter your name."],
      [{ full_name: "x".repeat(101), email: "pat@example.org", password: PASSWORD }, "the limit is 100 characters"],
      [{ full_name: "Pat", email: "not-an-email", password: PASSWORD }, "Enter a valid email address."],
      [{ full_name: "Pat", email: "member@test.example", password: PASSWORD }, "already an account"],
    ];
    for (const [fields, message] of cases) {
      const res = await submit(link, fields);
      expect(res.status).toBe(400);
      expect(res.body).toContain('id="join-error"');
      expect(res.body).toContain(message);
    }
    expect(await users()).toEqual(before);
  });

  it("accepts the browser's same-origin post of this no-referrer page, which carries Origin: null", async () => {
    const link = await multiuseLink();
    const opened = await openForm(link);
    const res = await request("POST", new URL(link).pathname, {
      body: new URLSearchParams({
        form_token: opened.token,
        full_name: "Nora Null",
        email: "nora@example.org",
        password: PASSWORD,
      }).toString(),
      headers: { cookie: opened.cookie, origin: "null", "sec-fetch-site": "same-origin" },
    });
    expect(res.status).toBe(303);
    expect(await server.db("users").where({ delivery_email: "nora@example.org" }).first()).toBeDefined();
  });

  it("refuses posts without the form token or from another site", async () => {
    const link = await multiuseLink();
    const before = await users();
    const fields = { full_name: "Xavier", email: "x@example.org", password: PASSWORD };
    const opened = await openForm(link);
    const path = new URL(link).pathname;
    const noCookie = await request("POST", path, {
      body: new URLSearchParams({ ...fields, form_token: opened.token }).toString(),
    });
    expect(noCookie.status).toBe(403);
    const wrongToken = await request("POST", path, {
      body: new URLSearchParams({ ...fields, form_token: "0".repeat(48) }).toString(),
      headers: { cookie: opened.cookie },
    });
    expect(wrongToken.status).toBe(403);
    const crossSite = await request("POST", path, {
      body: new URLSearchParams({ ...fields, form_token: opened.token }).toString(),
      headers: { cookie: opened.cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect(await users()).toEqual(before);
  });

  it("gives a clear page for unknown, revoked, expired and other-organization links", async () => {
    const before = await users();
    const page = async (path: string, status: number, words: string) => {
      for (const method of ["GET", "POST"]) {
        const res =
          method === "GET"
            ? await request("GET", path)
            : await request("POST", path, { body: "full_name=A&password=x" });
        expect(res.status).toBe(status);
        expect(res.headers["content-type"]).toMatch(/text\/html/);
        expect(res.body).toContain(words);
      }
    };
    await page("/join/doesnotexist/", 404, "not valid");
    await page("/join/%00%ff/", 404, "not valid");

    const revoked = await multiuseLink();
    const revokedKey = new URL(revoked).pathname.split("/")[2];
    const row = await server.db("invitations").where({ link_key: revokedKey }).first();
    await server.as(server.users.admin).delete(`/invites/multiuse/${row.id}`);
    await page(`/join/${revokedKey}/`, 410, "revoked");

    const expired = new URL(await multiuseLink()).pathname;
    await server
      .db("invitations")
      .where({ link_key: expired.split("/")[2] })
      .update({ expiry_date: 1000 });
    await page(expired, 410, "expired");

    // A link of another organization opened on this one's host.
    const other = await createRealm(server.db, {
      subdomain: "elsewhere",
      name: "Elsewhere",
      owner: { email: "boss@elsewhere.example", fullName: "Boss" },
    });
    await server.db("invitations").insert({
      realm_id: other.realm.id,
      is_multiuse: true,
      email: null,
      link_key: "elsewherekey",
      invited_by_user_id: other.owner.id,
      invited_as: 400,
      invited: 1,
      expiry_date: null,
      notify_referrer_on_join: true,
      include_realm_default_subscriptions: false,
      stream_ids: "[]",
      group_ids: "[]",
      welcome_message_custom_text: null,
      revoked: false,
    });
    await page("/join/elsewherekey/", 404, "another organization");
    expect(await users()).toEqual(before);
  });
});
