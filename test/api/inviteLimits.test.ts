// Invitation limits through the real app: addresses per request, invitations per user and per
// organization in 24 hours (revoked ones count), and no second invitation (or mail) to an address
// with a recent pending one; every refusal writes nothing. With and without SMTP_URL.
import { loadConfig } from "../../src/config";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import { fakeSmtp, type SmtpSink } from "../support/smtpSink";

const DAY = 24 * 3600;

let server: TestServer;
beforeAll(async () => {
  // Small limits, so the tests reach them in a few requests.
  server = await startTestServer({
    INVITE_MAX_ADDRESSES_PER_REQUEST: "3",
    INVITE_DAILY_MAX_PER_USER: "5",
    INVITE_DAILY_MAX_PER_REALM: "8",
  });
});
afterAll(async () => {
  await server.close();
});
// Each test starts with no invitations, so the daily counts start at zero.
beforeEach(async () => {
  await server.db("invitations").del();
});

const invitations = () => server.db("invitations").orderBy("id");

function invite(user: TestUser, emails: string[], target: TestServer = server) {
  return target.as(user).post("/invites", { invitee_emails: emails.join(", "), stream_ids: [] });
}

/** A refused request: exact status and body, and the invitations table unchanged. */
async function expectRefused(user: TestUser, emails: string[], expected: Record<string, unknown>) {
  const before = await invitations();
  const res = await invite(user, emails);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ result: "error", ...expected });
  expect(await invitations()).toEqual(before);
}

const dailyLimit = (msg: string, errors: unknown[] = []) => ({
  code: "INVITATION_FAILED",
  msg,
  errors,
  sent_invitations: false,
  license_limit_reached: false,
  daily_limit_reached: true,
});

const RECENT = "Already invited less than 1 hour ago (INVITE_RESEND_INTERVAL_SECONDS).";

/** Moves invitations' `invited` time into the past (the limits count from it). */
async function age(seconds: number, where: Record<string, unknown> = {}) {
  await server
    .db("invitations")
    .where(where)
    .update({ invited: Math.floor(Date.now() / 1000) - seconds });
}

describe("settings", () => {
  it("have named defaults and are read from the environment", () => {
    expect(loadConfig({}).invitations).toEqual({
      maxAddressesPerRequest: 100,
      dailyMaxPerUser: 100,
      dailyMaxPerRealm: 500,
      resendIntervalSeconds: 3600,
    });
    expect(
      loadConfig({
        INVITE_MAX_ADDRESSES_PER_REQUEST: "7",
        INVITE_DAILY_MAX_PER_USER: "20",
        INVITE_DAILY_MAX_PER_REALM: "30",
        INVITE_RESEND_INTERVAL_SECONDS: "0",
      }).invitations,
    ).toEqual({ maxAddressesPerRequest: 7, dailyMaxPerUser: 20, dailyMaxPerRealm: 30, resendIntervalSeconds: 0 });
    expect(() => loadConfig({ INVITE_DAILY_MAX_PER_USER: "many" })).toThrow(/INVITE_DAILY_MAX_PER_USER/);
  });
});

describe("addresses per request", () => {
  it("refuses more than INVITE_MAX_ADDRESSES_PER_REQUEST addresses, inviting none", async () => {
    await expectRefused(server.users.member, ["a1@example.org", "a2@example.org", "a3@example.org", "a4@example.org"], {
      code: "BAD_REQUEST",
      msg: "Too many addresses (4): at most 3 can be invited in one request (INVITE_MAX_ADDRESSES_PER_REQUEST). No invites were sent.",
    });
  });

  it("counts distinct addresses: duplicates do not count against the cap", async () => {
    const res = await invite(server.users.member, [
      "b1@example.org",
      "B1@example.org",
      "b2@example.org",
      "b3@example.org",
    ]);
    expect(res.status).toBe(200);
    expect((await invitations()).map((r: { email: string }) => r.email)).toEqual([
      "b1@example.org",
      "b2@example.org",
      "b3@example.org",
    ]);
  });
});

describe("daily limits", () => {
  it("refuse a request that would pass the user's limit, all or nothing, and revoking gives nothing back", async () => {
    const { member, other } = server.users;
    expect((await invite(member, ["c1@example.org", "c2@example.org", "c3@example.org"])).status).toBe(200);
    await expectRefused(
      member,
      ["c4@example.org", "c5@example.org", "c6@example.org"],
      dailyLimit(
        "To protect users, you can send at most 5 invitations in 24 hours (INVITE_DAILY_MAX_PER_USER); 2 left now, fewer than the 3 asked for, so no invitations were sent.",
      ),
    );
    expect((await invite(member, ["c4@example.org", "c5@example.org"])).status).toBe(200);

    const [first] = await invitations();
    expect((await server.as(member).delete(`/invites/${first.id}`)).status).toBe(200);
    await expectRefused(
      member,
      ["c6@example.org"],
      dailyLimit(
        "To protect users, you can send at most 5 invitations in 24 hours (INVITE_DAILY_MAX_PER_USER); 0 left now, fewer than the 1 asked for, so no invitations were sent.",
      ),
    );
    // Another user has their own budget.
    expect((await invite(other, ["c6@example.org"])).status).toBe(200);
  });

  it("lists the skipped addresses with the refusal, and counts only the ones that would be invited", async () => {
    const { member } = server.users;
    expect((await invite(member, ["d1@example.org", "d2@example.org", "d3@example.org"])).status).toBe(200);
    expect((await invite(member, ["d4@example.org"])).status).toBe(200);
    // One address left: an existing account does not use it up…
    expect((await invite(member, [server.users.other.email, "d5@example.org"])).status).toBe(400);
    expect(await server.db("invitations").where({ email: "d5@example.org" })).toHaveLength(1);
    // …and past the limit the refusal still says which addresses would have been skipped.
    await expectRefused(
      member,
      [server.users.other.email, "d6@example.org"],
      dailyLimit(
        "To protect users, you can send at most 5 invitations in 24 hours (INVITE_DAILY_MAX_PER_USER); 0 left now, fewer than the 1 asked for, so no invitations were sent.",
        [[server.users.other.email, "Already has an account.", false]],
      ),
    );
  });

  it("count the last 24 hours from the invitations' `invited` time", async () => {
    const { member } = server.users;
    expect((await invite(member, ["e1@example.org", "e2@example.org", "e3@example.org"])).status).toBe(200);
    expect((await invite(member, ["e4@example.org", "e5@example.org"])).status).toBe(200);
    expect((await invite(member, ["e6@example.org"])).status).toBe(400);
    await age(DAY - 60);
    expect((await invite(member, ["e6@example.org"])).status).toBe(400);
    await age(DAY + 1);
    expect((await invite(member, ["e6@example.org", "e7@example.org", "e8@example.org"])).status).toBe(200);
  });

  it("refuse a request that would pass the organization's limit; reusable links do not count", async () => {
    const { member, other, admin } = server.users;
    expect((await invite(member, ["f1@example.org", "f2@example.org", "f3@example.org"])).status).toBe(200);
    expect((await invite(member, ["f4@example.org", "f5@example.org"])).status).toBe(200);
    expect((await invite(other, ["f6@example.org", "f7@example.org"])).status).toBe(200);
    await expectRefused(
      admin,
      ["f8@example.org", "f9@example.org"],
      dailyLimit(
        "To protect users, this organization can send at most 8 invitations in 24 hours (INVITE_DAILY_MAX_PER_REALM); 1 left now, fewer than the 2 asked for, so no invitations were sent.",
      ),
    );
    expect((await server.as(admin).post("/invites/multiuse", { stream_ids: [] })).status).toBe(200);
    expect((await invite(admin, ["f8@example.org"])).status).toBe(200);
    expect((await invite(admin, ["f9@example.org"])).status).toBe(400);
  });

  it("hold for concurrent requests", async () => {
    const { member } = server.users;
    const emails = ["g1", "g2", "g3", "g4", "g5", "g6", "g7"].map((n) => `${n}@example.org`);
    const answers = await Promise.all(emails.map((e) => invite(member, [e])));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused.map((r) => [r.status, r.body.daily_limit_reached])).toEqual([
      [400, true],
      [400, true],
    ]);
    expect(await invitations()).toHaveLength(5);
  });
});

describe("recent pending invitations", () => {
  it("are not invited again within INVITE_RESEND_INTERVAL_SECONDS, whoever invites, in any letter case", async () => {
    const { member, other } = server.users;
    expect((await invite(member, ["h1@example.org"])).status).toBe(200);
    const failed = {
      code: "INVITATION_FAILED",
      msg: "We weren't able to invite anyone.",
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    };
    await expectRefused(member, ["h1@example.org"], { ...failed, errors: [["h1@example.org", RECENT, false]] });
    await expectRefused(other, ["H1@Example.org"], { ...failed, errors: [["H1@Example.org", RECENT, false]] });
  });

  it("are skipped and listed while the other addresses are invited", async () => {
    const { member } = server.users;
    expect((await invite(member, ["i1@example.org"])).status).toBe(200);
    const res = await invite(member, ["i1@example.org", "i2@example.org", server.users.other.email]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "INVITATION_FAILED",
      msg: "Some of those addresses were not invited (see errors for why). We did send invitations to everyone else!",
      errors: [
        [server.users.other.email, "Already has an account.", false],
        ["i1@example.org", RECENT, false],
      ],
      sent_invitations: true,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    expect((await invitations()).map((r: { email: string }) => r.email)).toEqual(["i1@example.org", "i2@example.org"]);
  });

  it("stop blocking once older than the interval, revoked or expired", async () => {
    const { member, admin } = server.users;
    expect((await invite(member, ["j1@example.org"])).status).toBe(200);
    await age(3601, { email: "j1@example.org" });
    expect((await invite(member, ["j1@example.org"])).status).toBe(200);

    const rows = await invitations();
    const newest = rows[rows.length - 1];
    expect((await invite(member, ["j1@example.org"])).status).toBe(400);
    expect((await server.as(member).delete(`/invites/${newest.id}`)).status).toBe(200);
    expect((await invite(member, ["j1@example.org"])).status).toBe(200);

    await server
      .db("invitations")
      .where({ email: "j1@example.org", revoked: false })
      .update({ expiry_date: Math.floor(Date.now() / 1000) - 1 });
    expect((await invite(admin, ["j1@example.org"])).status).toBe(200);
    expect(await server.db("invitations").where({ email: "j1@example.org" })).toHaveLength(4);
  });
});

describe("with SMTP_URL", () => {
  let smtp: SmtpSink;
  let mailing: TestServer;
  beforeAll(async () => {
    smtp = await fakeSmtp();
    mailing = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }); // default limits
  });
  afterAll(async () => {
    await mailing.close();
    await smtp.close();
  });

  /** Waits (bounded) until the sink has received a mail to `to`. */
  async function mailArrives(to: string): Promise<void> {
    const arrived = () => smtp.messages.some((m) => new RegExp(`^To: ${to}$`, "m").test(m));
    for (let i = 0; i < 500 && !arrived(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(arrived()).toBe(true);
  }
  const mailsTo = (to: string) => smtp.messages.filter((m) => new RegExp(`^To: ${to}$`, "m").test(m));

  it("20 requests for one address send one mail", async () => {
    const { member } = mailing.users;
    expect((await invite(member, ["victim@example.org"], mailing)).status).toBe(200);
    await mailArrives("victim@example.org");
    for (let i = 0; i < 19; i++) {
      const res = await invite(member, ["victim@example.org"], mailing);
      expect([res.status, res.body.errors]).toEqual([400, [["victim@example.org", RECENT, false]]]);
    }
    // Refused requests mail nothing: once a later mail has arrived, the count is final.
    expect((await invite(member, ["marker@example.org"], mailing)).status).toBe(200);
    await mailArrives("marker@example.org");
    expect(mailsTo("victim@example.org")).toHaveLength(1);
    expect(await mailing.db("invitations").where({ email: "victim@example.org" })).toHaveLength(1);
  });

  it("10,000 addresses in one request are refused by the default cap, and nothing is mailed", async () => {
    const { member } = mailing.users;
    const many = Array.from({ length: 10_000 }, (_, i) => `bulk${i}@example.org`);
    const before = smtp.messages.length;
    const res = await invite(member, many, mailing);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Too many addresses (10000): at most 100 can be invited in one request (INVITE_MAX_ADDRESSES_PER_REQUEST). No invites were sent.",
    });
    expect(await mailing.db("invitations").where("email", "like", "bulk%")).toHaveLength(0);
    expect((await invite(member, ["marker2@example.org"], mailing)).status).toBe(200);
    await mailArrives("marker2@example.org");
    expect(smtp.messages.length).toBe(before + 1);
  });
});
