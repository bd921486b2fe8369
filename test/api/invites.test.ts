// Invitations through the real app: email invitations and reusable links, who may invite as what,
// channel/group checks, INVITATION_FAILED reporting, listing, revoking, events, mail, zulip-js.
import net from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { createMailer } from "../../src/services/invitations/mailer";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { fakeSmtp } from "../support/smtpSink";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const invitations = () => server.db("invitations").orderBy("id");
const as = (user: TestUser) => server.as(user);

async function groupId(name: string): Promise<number> {
  return (await server.db("user_groups").where({ realm_id: server.realm.id, name }).first()).id;
}

/** Temporarily points a realm group setting at a system group. */
async function withRealmSetting(setting: string, group: string, fn: () => Promise<void>): Promise<void> {
  const original = (await server.db("realms").where({ id: server.realm.id }).first())[setting];
  await server
    .db("realms")
    .where({ id: server.realm.id })
    .update({ [setting]: await groupId(group) });
  try {
    await fn();
  } finally {
    await server
      .db("realms")
      .where({ id: server.realm.id })
      .update({ [setting]: original });
  }
}

/** Error with exact status/code/msg (and extra fields), and no invitation rows changed. */
async function expectError(
  user: TestUser,
  path: string,
  params: Record<string, unknown>,
  expected: Record<string, unknown>,
  method: "post" | "delete" = "post",
) {
  const before = await invitations();
  const res = await as(user)[method](path, params);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ result: "error", ...expected });
  expect(await invitations()).toEqual(before);
}

describe("POST /invites", () => {
  it("stores an email invitation that its creator can list", async () => {
    const { member } = server.users;
    const res = await as(member).post("/invites", { invitee_emails: "new.person@example.org", stream_ids: [] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const list = await as(member).get("/invites");
    expect(list.body.invites).toHaveLength(1);
    const [invite] = list.body.invites;
    expect(invite).toEqual({
      id: expect.any(Number),
      invited_by_user_id: member.id,
      invited: expect.any(Number),
      expiry_date: invite.invited + 14400 * 60,
      invited_as: 400,
      email: "new.person@example.org",
      notify_referrer_on_join: true,
      is_multiuse: false,
    });
    expect(Math.abs(invite.invited - Date.now() / 1000)).toBeLessThan(60);
  });

  it("takes comma/newline lists, expiry in minutes or null, role, channels, groups and options", async () => {
    const { admin } = server.users;
    const res = await as(admin).post("/invites", {
      invitee_emails: "a1@example.org,\n Bea <b1@example.org>\n\n, A1@example.org",
      invite_expires_in_minutes: "null",
      invite_as: "300",
      stream_ids: [server.general.id],
      group_ids: [],
      include_realm_default_subscriptions: "true",
      notify_referrer_on_join: "false",
      welcome_message_custom_text: "Welcome aboard!",
    });
    expect(res.status).toBe(200);
    const rows = (await invitations()).filter((r: { email: string }) =>
      ["a1@example.org", "b1@example.org"].includes(r.email),
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      invited_as: 300,
      expiry_date: null,
      stream_ids: `[${server.general.id}]`,
      welcome_message_custom_text: "Welcome aboard!",
    });
    expect(Boolean(rows[0].notify_referrer_on_join)).toBe(false);
    expect(Boolean(rows[0].include_realm_default_subscriptions)).toBe(true);

    await as(admin).post("/invites", {
      invitee_emails: "c1@example.org",
      invite_expires_in_minutes: 60,
      stream_ids: [],
    });
    const c1 = (await as(admin).get("/invites")).body.invites.find(
      (i: { email?: string }) => i.email === "c1@example.org",
    );
    expect(c1.expiry_date - c1.invited).toBe(3600);
  });

  it("keeps the welcome text for administrators only", async () => {
    await as(server.users.member).post("/invites", {
      invitee_emails: "w1@example.org",
      stream_ids: [],
      welcome_message_custom_text: "hi",
    });
    expect(
      (await server.db("invitations").where({ email: "w1@example.org" }).first()).welcome_message_custom_text,
    ).toBeNull();
  });

  it("allows only roles at or below one's own, and follows can_invite_users_group", async () => {
    const { guest, member, moderator, admin, owner } = server.users;
    const insufficient = { code: "BAD_REQUEST", msg: "Insufficient permission" };
    await expectError(guest, "/invites", { invitee_emails: "g@example.org", stream_ids: [] }, insufficient);
    await expectError(
      member,
      "/invites",
      { invitee_emails: "g@example.org", stream_ids: [], invite_as: 300 },
      insufficient,
    );
    await expectError(
      moderator,
      "/invites",
      { invitee_emails: "g@example.org", stream_ids: [], invite_as: 200 },
      insufficient,
    );
    await expectError(
      admin,
      "/invites",
      { invitee_emails: "g@example.org", stream_ids: [], invite_as: 100 },
      insufficient,
    );
    expect(
      (
        await as(moderator).post("/invites", {
          invitee_emails: "mod-invite@example.org",
          stream_ids: [],
          invite_as: 300,
        })
      ).status,
    ).toBe(200);
    expect(
      (await as(admin).post("/invites", { invitee_emails: "admin-invite@example.org", stream_ids: [], invite_as: 200 }))
        .status,
    ).toBe(200);
    expect(
      (await as(owner).post("/invites", { invitee_emails: "owner-invite@example.org", stream_ids: [], invite_as: 100 }))
        .status,
    ).toBe(200);
    expect(
      (
        await as(member).post("/invites", {
          invitee_emails: "guest-invite@example.org",
          stream_ids: [],
          invite_as: 600,
        })
      ).status,
    ).toBe(200);
    await withRealmSetting("can_invite_users_group", "role:administrators", async () => {
      await expectError(member, "/invites", { invitee_emails: "g@example.org", stream_ids: [] }, insufficient);
      expect(
        (await as(admin).post("/invites", { invitee_emails: "still-ok@example.org", stream_ids: [] })).status,
      ).toBe(200);
    });
  });

  it("validates parameters", async () => {
    const { member } = server.users;
    await expectError(
      member,
      "/invites",
      { invitee_emails: " ,\n , ", stream_ids: [] },
      { code: "BAD_REQUEST", msg: "You must specify at least one email address." },
    );
    await expectError(
      member,
      "/invites",
      { invitee_emails: "x@example.org" },
      { code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'stream_ids' argument", var_name: "stream_ids" },
    );
    await expectError(
      member,
      "/invites",
      { stream_ids: [] },
      { code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'invitee_emails' argument", var_name: "invitee_emails" },
    );
    await expectError(
      member,
      "/invites",
      { invitee_emails: "x@example.org", stream_ids: [], invite_as: 150 },
      { code: "BAD_REQUEST", msg: "Invalid invite_as", var_name: "invite_as" },
    );
    await expectError(
      member,
      "/invites",
      { invitee_emails: "x@example.org", stream_ids: [], invite_expires_in_minutes: 0 },
      {
        code: "BAD_REQUEST",
        msg: "invite_expires_in_minutes must be a positive integer or null",
        var_name: "invite_expires_in_minutes",
      },
    );
    await expectError(
      member,
      "/invites",
      { invitee_emails: "x@example.org", stream_ids: "[1," },
      { code: "BAD_REQUEST", msg: 'Argument "stream_ids" is not valid JSON.', var_name: "stream_ids" },
    );
  });

  it("checks channels: unknown or inaccessible ones, and permission to subscribe others", async () => {
    const { member, owner, admin } = server.users;
    await expectError(
      member,
      "/invites",
      { invitee_emails: "x@example.org", stream_ids: [11000] },
      { code: "BAD_REQUEST", msg: "Invalid channel ID 11000. No invites were sent." },
    );
    const secret = await as(owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "secret-plans" }],
      invite_only: true,
    });
    expect(secret.status).toBe(200);
    const secretId = (await server.db("streams").where({ name: "secret-plans" }).first()).id;
    await expectError(
      member,
      "/invites",
      { invitee_emails: "x@example.org", stream_ids: [server.general.id, secretId] },
      { code: "BAD_REQUEST", msg: `Invalid channel ID ${secretId}. No invites were sent.` },
    );

    await withRealmSetting("can_add_subscribers_group", "role:administrators", async () => {
      await expectError(
        member,
        "/invites",
        { invitee_emails: "x@example.org", stream_ids: [server.general.id] },
        { code: "BAD_REQUEST", msg: "You do not have permission to subscribe other users to channels." },
      );
      expect(
        (await as(member).post("/invites", { invitee_emails: "no-channels@example.org", stream_ids: [] })).status,
      ).toBe(200);
      expect(
        (
          await as(admin).post("/invites", {
            invitee_emails: "admin-channels@example.org",
            stream_ids: [server.general.id],
          })
        ).status,
      ).toBe(200);
      // Default channels need no such permission.
      await server.db("streams").where({ id: server.general.id }).update({ is_default_stream: true });
      try {
        expect(
          (
            await as(member).post("/invites", {
              invitee_emails: "default-channel@example.org",
              stream_ids: [server.general.id],
            })
          ).status,
        ).toBe(200);
      } finally {
        await server.db("streams").where({ id: server.general.id }).update({ is_default_stream: false });
      }
    });
  });

  it("checks groups", async () => {
    const { member, admin } = server.users;
    await expectError(
      admin,
      "/invites",
      { invitee_emails: "x@example.org", stream_ids: [], group_ids: [99999] },
      { code: "BAD_REQUEST", msg: "Invalid user group" },
    );
    await expectError(
      admin,
      "/invites",
      { invitee_emails: "x@example.org", stream_ids: [], group_ids: [await groupId("role:members")] },
      { code: "BAD_REQUEST", msg: "Insufficient permission" },
    );
    const [named] = await server.db("user_groups").insert({
      realm_id: server.realm.id,
      name: "designers",
      description: "",
      is_system_group: false,
      deactivated: false,
      creator_id: admin.id,
      date_created: 0,
    });
    const designers = Number(named) || (await server.db("user_groups").where({ name: "designers" }).first()).id;
    await expectError(
      member,
      "/invites",
      { invitee_emails: "x@example.org", stream_ids: [], group_ids: [designers] },
      { code: "BAD_REQUEST", msg: "Insufficient permission" },
    );
    expect(
      (
        await as(admin).post("/invites", {
          invitee_emails: "designer@example.org",
          stream_ids: [],
          group_ids: [designers],
        })
      ).status,
    ).toBe(200);
    expect((await server.db("invitations").where({ email: "designer@example.org" }).first()).group_ids).toBe(
      `[${designers}]`,
    );
  });

  it("reports addresses that already have accounts with INVITATION_FAILED, inviting the rest", async () => {
    const { member, other, guest } = server.users;
    const before = (await invitations()).length;
    const res = await as(member).post("/invites", {
      invitee_emails: `${other.email}, fresh@example.org`,
      stream_ids: [],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "INVITATION_FAILED",
      msg: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      errors: [[other.email, "Already has an account.", false]],
      sent_invitations: true,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    const after = await invitations();
    expect(after).toHaveLength(before + 1);
    expect(after[after.length - 1]).toMatchObject({ email: "fresh@example.org" });

    await server.db("users").where({ id: guest.id }).update({ is_active: false });
    try {
      await expectError(
        member,
        "/invites",
        { invitee_emails: `${other.email}\n${guest.email.toUpperCase()}`, stream_ids: [] },
        {
          code: "INVITATION_FAILED",
          msg: "We weren't able to invite anyone.",
          errors: [
            [other.email, "Already has an account.", false],
            [guest.email.toUpperCase(), "Account has been deactivated.", true],
          ],
          sent_invitations: false,
          license_limit_reached: false,
          daily_limit_reached: false,
        },
      );
    } finally {
      await server.db("users").where({ id: guest.id }).update({ is_active: true });
    }

    await expectError(
      member,
      "/invites",
      { invitee_emails: "ok@example.org, not-an-address", stream_ids: [] },
      {
        code: "INVITATION_FAILED",
        msg: "Some emails did not validate, so we didn't send any invitations.",
        errors: [["not-an-address", "Invalid address.", false]],
        sent_invitations: false,
        license_limit_reached: false,
        daily_limit_reached: false,
      },
    );
  });
});

describe("POST /invites/multiuse", () => {
  it("needs create_multiuse_invite_group (administrators by default) and returns a link", async () => {
    const { member, admin } = server.users;
    await expectError(member, "/invites/multiuse", {}, { code: "BAD_REQUEST", msg: "Insufficient permission" });
    await expectError(
      admin,
      "/invites/multiuse",
      { invite_as: 100 },
      { code: "BAD_REQUEST", msg: "Insufficient permission" },
    );
    await expectError(
      admin,
      "/invites/multiuse",
      { stream_ids: [11] },
      { code: "BAD_REQUEST", msg: "Invalid channel ID 11. No invites were sent." },
    );
    const res = await as(admin).post("/invites/multiuse", {
      invite_expires_in_minutes: 120,
      stream_ids: [server.general.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.invite_link).toMatch(/^http:\/\/localhost:9991\/join\/[a-z0-9]{24}\/$/);
    const entry = (await as(admin).get("/invites")).body.invites.find(
      (i: { link_url?: string }) => i.link_url === res.body.invite_link,
    );
    expect(entry).toEqual({
      id: expect.any(Number),
      invited_by_user_id: admin.id,
      invited: expect.any(Number),
      expiry_date: entry.invited + 7200,
      invited_as: 400,
      notify_referrer_on_join: true,
      link_url: res.body.invite_link,
      is_multiuse: true,
    });

    await withRealmSetting("create_multiuse_invite_group", "role:members", async () => {
      const byMember = await as(member).post("/invites/multiuse", {});
      expect(byMember.status).toBe(200);
      await withRealmSetting("can_add_subscribers_group", "role:administrators", async () => {
        await expectError(
          member,
          "/invites/multiuse",
          { stream_ids: [server.general.id] },
          { code: "BAD_REQUEST", msg: "You do not have permission to subscribe other users to channels." },
        );
      });
    });
  });
});

describe("GET /invites", () => {
  it("shows users their own unexpired invitations, and administrators everyone's", async () => {
    const { member, other, admin } = server.users;
    await as(other).post("/invites", { invitee_emails: "others-friend@example.org", stream_ids: [] });
    const friendId = (await server.db("invitations").where({ email: "others-friend@example.org" }).first()).id;
    await as(other).post("/invites", {
      invitee_emails: "expired@example.org",
      stream_ids: [],
      invite_expires_in_minutes: 1,
    });
    await server
      .db("invitations")
      .where({ email: "expired@example.org" })
      .update({ expiry_date: Math.floor(Date.now() / 1000) - 5 });

    const mine = (await as(member).get("/invites")).body.invites;
    expect(mine.every((i: { invited_by_user_id: number }) => i.invited_by_user_id === member.id)).toBe(true);
    const theirs = (await as(other).get("/invites")).body.invites.map((i: { email: string }) => i.email);
    expect(theirs).toEqual(["others-friend@example.org"]);
    const all = (await as(admin).get("/invites")).body.invites;
    const creators = new Set(all.map((i: { invited_by_user_id: number }) => i.invited_by_user_id));
    expect(creators.has(member.id) && creators.has(other.id) && creators.has(admin.id)).toBe(true);
    expect(all.some((i: { email?: string }) => i.email === "expired@example.org")).toBe(false);
    expect(all.some((i: { id: number; is_multiuse: boolean }) => i.id === friendId && !i.is_multiuse)).toBe(true);
  });
});

describe("DELETE /invites/{id} and /invites/multiuse/{id}", () => {
  it("revokes own invitations; others' need an administrator, owner invitations an owner", async () => {
    const { member, other, admin, owner } = server.users;
    await as(member).post("/invites", { invitee_emails: "revoke-me@example.org", stream_ids: [] });
    await as(owner).post("/invites", { invitee_emails: "future-owner@example.org", stream_ids: [], invite_as: 100 });
    const id = (await server.db("invitations").where({ email: "revoke-me@example.org" }).first()).id;
    const ownerInvite = (await server.db("invitations").where({ email: "future-owner@example.org" }).first()).id;

    await expectError(
      other,
      `/invites/${id}`,
      {},
      { code: "BAD_REQUEST", msg: "Must be an organization administrator" },
      "delete",
    );
    await expectError(
      admin,
      `/invites/${ownerInvite}`,
      {},
      { code: "BAD_REQUEST", msg: "Must be an organization owner" },
      "delete",
    );
    await expectError(member, "/invites/999999", {}, { code: "BAD_REQUEST", msg: "No such invitation" }, "delete");
    await expectError(
      member,
      `/invites/multiuse/${id}`,
      {},
      { code: "BAD_REQUEST", msg: "No such invitation" },
      "delete",
    );

    const res = await as(member).delete(`/invites/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect((await as(member).get("/invites")).body.invites.some((i: { id: number }) => i.id === id)).toBe(false);
    await expectError(member, `/invites/${id}`, {}, { code: "BAD_REQUEST", msg: "No such invitation" }, "delete");
    expect(
      (
        await as(admin).delete(
          `/invites/${(await server.db("invitations").where({ email: "fresh@example.org" }).first()).id}`,
        )
      ).status,
    ).toBe(200);
    expect((await as(owner).delete(`/invites/${ownerInvite}`)).status).toBe(200);

    const link = await as(admin).post("/invites/multiuse", {});
    const linkId = (await as(admin).get("/invites")).body.invites.find(
      (i: { link_url?: string }) => i.link_url === link.body.invite_link,
    ).id;
    await expectError(
      member,
      `/invites/multiuse/${linkId}`,
      {},
      { code: "BAD_REQUEST", msg: "Must be an organization administrator" },
      "delete",
    );
    expect((await as(admin).delete(`/invites/multiuse/${linkId}`)).status).toBe(200);
    await expectError(
      admin,
      `/invites/multiuse/${linkId}`,
      {},
      { code: "BAD_REQUEST", msg: "Invitation has already been revoked" },
      "delete",
    );
  });
});

describe("invites_changed events", () => {
  it("reach administrators and the creator", async () => {
    const adminQueue = await as(server.users.admin).post("/register", { event_types: ["invites_changed"] });
    const otherQueue = await as(server.users.other).post("/register", { event_types: ["invites_changed"] });
    await as(server.users.member).post("/invites", { invitee_emails: "evented@example.org", stream_ids: [] });
    const adminEvents = await as(server.users.admin).get("/events", {
      queue_id: adminQueue.body.queue_id,
      last_event_id: -1,
    });
    expect(adminEvents.body.events.map((e: { type: string }) => e.type)).toEqual(["invites_changed"]);
    const otherEvents = await as(server.users.other).get("/events", {
      queue_id: otherQueue.body.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(otherEvents.body.events.filter((e: { type: string }) => e.type === "invites_changed")).toEqual([]);
  });
});

describe("zulip-js", () => {
  it("creates, lists and revokes invitations with callEndpoint", async () => {
    const client = await zulipJs(server, server.users.admin);
    const sent = await client.callEndpoint("/invites", "POST", {
      invitee_emails: "js1@example.org,js2@example.org",
      stream_ids: [server.general.id],
      invite_as: "400",
      invite_expires_in_minutes: "null",
    });
    expect(sent).toEqual({ result: "success", msg: "" });
    const link = await client.callEndpoint("/invites/multiuse", "POST", {
      stream_ids: [],
      invite_expires_in_minutes: "1440",
    });
    expect(link.result).toBe("success");
    const list = await client.callEndpoint("/invites", "GET", {});
    const js1 = list.invites.find((i: { email?: string }) => i.email === "js1@example.org");
    expect(js1.expiry_date).toBeNull();
    const linkEntry = list.invites.find((i: { link_url?: string }) => i.link_url === link.invite_link);
    expect((await client.callEndpoint(`/invites/${js1.id}`, "DELETE", {})).result).toBe("success");
    expect((await client.callEndpoint(`/invites/multiuse/${linkEntry.id}`, "DELETE", {})).result).toBe("success");
    const failed = await client.callEndpoint("/invites", "POST", {
      invitee_emails: server.users.member.email,
      stream_ids: [],
    });
    expect(failed).toMatchObject({ result: "error", code: "INVITATION_FAILED", sent_invitations: false });
  });
});

describe("invitation mail", () => {
  it("is sent through SMTP_URL when configured", async () => {
    const smtp = await fakeSmtp();
    const mailing = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    try {
      const res = await mailing
        .as(mailing.users.member)
        .post("/invites", { invitee_emails: "mailme@example.org", stream_ids: [] });
      expect(res.status).toBe(200);
      for (let i = 0; i < 100 && smtp.messages.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(smtp.messages).toHaveLength(1);
      const key = (await mailing.db("invitations").where({ email: "mailme@example.org" }).first()).link_key;
      const mail = smtp.messages[0].replace(/=\r\n/g, "");
      expect(mail).toMatch(/^To: mailme@example.org$/m);
      expect(mail).toContain("Mel Member invited you to join Test Org");
      expect(mail).toContain(`http://localhost:9991/join/${key}/`);
    } finally {
      await mailing.close();
      await smtp.close();
    }
  });

  it("is off without SMTP_URL, and failures never log the SMTP credentials", async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(chunk.toString()), done()) });
    const logger = pino({ level: "info" }, sink);
    expect(
      await createMailer(undefined, "example.org", logger).send({ to: "x@example.org", subject: "s", text: "t" }),
    ).toBe(false);
    expect(lines.join("")).toContain("outgoing mail is off");

    const closed = net.createServer();
    const port = await new Promise<number>((r) =>
      closed.listen(0, "127.0.0.1", () => r((closed.address() as net.AddressInfo).port)),
    );
    await new Promise((r) => closed.close(r)); // nothing listens there now
    const failing = createMailer(`smtp://mailuser:hunter2-secret@127.0.0.1:${port}`, "example.org", logger);
    expect(await failing.send({ to: "x@example.org", subject: "s", text: "t" })).toBe(false);
    const log = lines.join("");
    expect(log).toContain("sending mail failed");
    expect(log).not.toContain("hunter2-secret");
    expect(log).not.toContain("mailuser");
  });
});
