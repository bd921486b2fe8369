// The operator CLI against the test server's database; the zuliprc it writes is used by the
// official JS client. Most commands run in this process (runCli, as src/cli.ts runs it); the
// tests of what only the program does (its output, the exit code and message of a failure) run
// it as a real process.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { runCommand, type CliResult } from "./support/cli";
import { startTestServer, type TestServer } from "./support/harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const zulipInit = require("zulip-js");
const run = promisify(execFile);
// A real process compiles the sources (tsx): seconds on a busy machine.
jest.setTimeout(120_000);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const cliEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: server.config.dataDir,
  EXTERNAL_URL: server.url,
  LOG_LEVEL: "silent",
  ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : { DATABASE_URL: "" }),
});

/** `npm run cli -- …` as a real process. */
async function cliProcess(...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [require.resolve("tsx/cli"), "src/cli.ts", ...args], {
      env: cliEnv(),
      cwd: path.join(__dirname, ".."),
    });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/** The same command in this process. */
const cli = (...args: string[]): Promise<CliResult> => runCommand(args, cliEnv());

describe("npm run cli", () => {
  it("creates a user, writes a zuliprc that zulip-js can use, and the key works", async () => {
    const rc = path.join(server.config.dataDir, "zuliprc-carol");
    const res = await cliProcess("create-user", "--email", "carol@test.example", "--name", "Carol", "--zuliprc", rc);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/api key: [A-Za-z0-9]{32}/);
    const text = fs.readFileSync(rc, "utf8");
    expect(text).toMatch(/^\[api\]\nemail=carol@test\.example\nkey=[A-Za-z0-9]{32}\nsite=http:\/\/127\.0\.0\.1:\d+\n$/);
    const client = await zulipInit({ zuliprc: rc });
    const me = await client.users.me.getProfile();
    expect(me).toMatchObject({ result: "success", email: "carol@test.example", role: 400 });
    // Only the hash is stored.
    const key = /key=(\w+)/.exec(text)![1];
    const row = await server.db("users").where({ email: "carol@test.example" }).first();
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it("creates an incoming-webhook bot owned by a user", async () => {
    const res = await cli(
      "create-bot",
      "--owner-email",
      "owner@test.example",
      "--email",
      "ci-bot@test.example",
      "--name",
      "CI Bot",
    );
    expect(res.code).toBe(0);
    const row = await server.db("users").where({ email: "ci-bot@test.example" }).first();
    expect(row).toMatchObject({ bot_type: 2, bot_owner_id: server.users.owner.id });
  });

  it("creates a channel with subscribers", async () => {
    const res = await cli(
      "create-channel",
      "--name",
      "ops",
      "--description",
      "Operations",
      "--subscribe",
      "owner@test.example,member@test.example",
    );
    expect(res.code).toBe(0);
    const stream = await server.db("streams").where({ name: "ops" }).first();
    const subs = await server.db("subscriptions").where({ stream_id: stream.id }).pluck("user_id");
    expect(subs.sort()).toEqual([server.users.owner.id, server.users.member.id].sort());
  });

  it("creates channels under the API's rules: name checks, no duplicates", async () => {
    const long = await cli("create-channel", "--name", "x".repeat(61));
    expect(long.code).toBe(1);
    expect(long.stderr).toContain("Channel name too long (limit: 60 characters).");
    const dup = await cli("create-channel", "--name", "ops");
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain("Channel 'ops' already exists");
    const stranger = await cli("create-channel", "--name", "lonely", "--subscribe", "nobody@test.example");
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain("No user 'nobody@test.example'");
    expect(await server.db("streams").where({ name: "lonely" }).first()).toBeUndefined();
  });

  it("regenerates an API key, invalidating the old one", async () => {
    const rc = path.join(server.config.dataDir, "zuliprc-other");
    const res = await cli("regenerate-api-key", "--email", "other@test.example", "--zuliprc", rc);
    expect(res.code).toBe(0);
    expect((await server.as(server.users.other).get("/users/me")).body.code).toBe("UNAUTHORIZED");
    const client = await zulipInit({ zuliprc: rc });
    expect((await client.users.me.getProfile()).result).toBe("success");
  });

  it("changes a role, and the system groups follow", async () => {
    const groupsOf = async () =>
      (
        await server
          .db("user_group_members as m")
          .join("user_groups as g", "g.id", "m.group_id")
          .where({ "m.user_id": server.users.guest.id })
          .pluck("g.name")
      ).sort();
    expect(await groupsOf()).toEqual(["role:everyone"]);
    expect((await cli("change-role", "--email", "guest@test.example", "--role", "administrator")).code).toBe(0);
    expect(await groupsOf()).toEqual(["role:administrators"]);
    const me = await server.as(server.users.guest).get("/users/me");
    expect(me.body).toMatchObject({ role: 200, is_admin: true, is_guest: false });
    // An administrator may now do what only administrators may.
    const folder = await server
      .as(server.users.guest)
      .post("/channel_folders/create", { name: "Admin-made", description: "" });
    expect(folder.status).toBe(200);
    expect((await cli("change-role", "--email", "guest@test.example", "--role", "guest")).code).toBe(0);
    expect(await groupsOf()).toEqual(["role:everyone"]);
  });

  it("creates a named user group that works as a group-setting value", async () => {
    const res = await cli(
      "create-group",
      "--name",
      "reviewers",
      "--description",
      "Code review",
      "--members",
      "member@test.example",
    );
    expect(res.code).toBe(0);
    const group = await server.db("user_groups").where({ realm_id: server.realm.id, name: "reviewers" }).first();
    expect(await server.db("user_group_members").where({ group_id: group.id }).pluck("user_id")).toEqual([
      server.users.member.id,
    ]);
    const created = await server.as(server.users.owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "reviewed" }],
      can_send_message_group: group.id,
    });
    expect(created.status).toBe(200);
    const stream = await server.db("streams").where({ name: "reviewed" }).first();
    expect(stream.can_send_message_group).toBe(group.id);
    const dup = await cli("create-group", "--name", "reviewers");
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain("A group named 'reviewers' already exists");
  });

  it("sets a webhook secret with the API's checks on the bot and the secret", async () => {
    const secretOf = async (email: string) => (await server.db("users").where({ email }).first()).webhook_secret;
    const bot = "webhook-bot@test.example";
    const set = await cli("set-webhook-secret", "--email", bot, "--secret", "s3cret");
    expect(set).toMatchObject({ code: 0, stdout: "Webhook secret set.\n" });
    expect(await secretOf(bot)).toBe("s3cret");

    const control = await cli("set-webhook-secret", "--email", bot, "--secret", "bad\tsecret");
    expect(control.code).toBe(1);
    expect(control.stderr).toContain("secret must not contain control characters");
    expect(await secretOf(bot)).toBe("s3cret");
    // The Notification Bot is a system bot: its secret is not the operator's to set either.
    const system = await cli("set-webhook-secret", "--email", "notification-bot@test.example", "--secret", "x");
    expect(system.code).toBe(1);
    expect(system.stderr).toContain("No such bot");
    expect(await secretOf("notification-bot@test.example")).toBeNull();

    const cleared = await cli("set-webhook-secret", "--email", bot, "--secret", "");
    expect(cleared.stdout).toBe("Webhook secret cleared.\n");
    expect(await secretOf(bot)).toBeNull();
  });

  it("deactivates and reactivates a user", async () => {
    expect((await cli("deactivate-user", "--email", "moderator@test.example")).code).toBe(0);
    expect((await server.as(server.users.moderator).get("/users/me")).body.code).toBe("USER_DEACTIVATED");
    expect((await cli("reactivate-user", "--email", "moderator@test.example")).code).toBe(0);
    expect((await server.as(server.users.moderator).get("/users/me")).status).toBe(200);
  });

  it("soft-deactivates the users idle for the days given; their next request brings them back", async () => {
    const { guest } = server.users;
    const longAgo = Math.floor(Date.now() / 1000) - 10 * 86_400;
    await server.db("users").where({ id: guest.id }).update({ last_active_at: longAgo });
    expect((await cli("soft-deactivate-users", "--days", "0")).stderr).toContain("--days must be");
    const res = await cli("soft-deactivate-users", "--days", "9");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Soft-deactivated [1-9]\d* user\(s\) inactive for 9 days or more\.\n$/);
    expect(Boolean((await server.db("users").where({ id: guest.id }).first()).long_term_idle)).toBe(true);
    expect((await server.as(guest).get("/users/me")).status).toBe(200);
    expect(Boolean((await server.db("users").where({ id: guest.id }).first()).long_term_idle)).toBe(false);
  });

  it("creates a realm on a subdomain with its owner, and deactivates it", async () => {
    const res = await cli(
      "create-realm",
      "--subdomain",
      "acme",
      "--name",
      "Acme",
      "--owner-email",
      "boss@acme.example",
      "--owner-name",
      "Boss",
    );
    expect(res.code).toBe(0);
    const realm = await server.db("realms").where({ string_id: "acme" }).first();
    const groups = await server.db("user_groups").where({ realm_id: realm.id, is_system_group: true }).pluck("name");
    expect(groups.sort()).toEqual([
      "role:administrators",
      "role:everyone",
      "role:fullmembers",
      "role:internet",
      "role:members",
      "role:moderators",
      "role:nobody",
      "role:owners",
    ]);
    expect(realm.notification_bot_id).not.toBeNull();
    expect((await cli("deactivate-realm", "--realm", "acme")).code).toBe(0);
    expect((await server.db("realms").where({ string_id: "acme" }).first()).deactivated).toBeTruthy();
  });

  it("fails with a clear message on bad input", async () => {
    const res = await cliProcess("create-user", "--email", "not-an-email", "--name", "X");
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("Invalid email 'not-an-email'");
    const unknown = await cliProcess("frobnicate");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Unknown command 'frobnicate'");
  });
});
