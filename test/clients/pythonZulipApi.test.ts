// The official Python client's tools and bots, unmodified, against the real app: zulip-send (a
// channel message and a DM), the bot framework's helloworld (answers a DM) and incrementor (answers
// a mention, then edits its answer; it keeps its count in bot storage), the git post-receive hook
// installed in a bare repository as its docs say and pushed to (an incoming-webhook bot that sends
// with POST /messages), print-events with a narrow (only matching messages arrive) and
// upload-file (the file part without a Content-Type). Every process has a hard timeout.
import fs from "node:fs";
import path from "node:path";
import { writeZuliprc } from "../../src/services/users/zuliprc";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import {
  describeWithClients,
  extractClients,
  pollFor,
  run,
  start,
  PYTHON,
  type ClientTree,
  type LongRunning,
} from "../support/realClients";

const RUN_TIMEOUT_MS = 60000;

describeWithClients("python-zulip-api", {}, () => {
  let server: TestServer;
  let clients: ClientTree;
  const running: LongRunning[] = [];
  /** Event queues registered so far, by user id: a client listening is a client that registered. */
  const registrations = new Map<number, number>();

  beforeAll(async () => {
    server = await startTestServer();
    clients = extractClients();
    const queues = server.deps.queues;
    const register = queues.register.bind(queues);
    queues.register = (options) => {
      registrations.set(options.userId, (registrations.get(options.userId) ?? 0) + 1);
      return register(options);
    };
  });

  afterAll(async () => {
    for (const client of running) await client.stop();
    clients?.remove();
    await server?.close();
  });

  const zuliprc = (name: string, user: TestUser) =>
    writeZuliprc(path.join(clients.dir, `zuliprc-${name}`), user.email, user.apiKey, server.url);

  const script = (...parts: string[]) => path.join(clients.pythonZulipApi, ...parts);

  async function python(args: string[], options: { cwd?: string; input?: string } = {}) {
    const result = await run(PYTHON, args, { env: clients.env, timeoutMs: RUN_TIMEOUT_MS, ...options });
    if (result.code !== 0 || result.timedOut)
      throw new Error(
        `${args.join(" ")} → ${result.timedOut ? "timed out" : `exit ${result.code}`}\n${result.stdout}\n${result.stderr}`,
      );
    return result;
  }

  /** Starts a long-running client and waits until it has registered its event queue. */
  async function startListening(user: TestUser, args: string[]): Promise<LongRunning> {
    const before = registrations.get(user.id) ?? 0;
    const child = start(PYTHON, args, { env: clients.env, cwd: clients.dir });
    running.push(child);
    await pollFor(
      () => {
        if (child.child.exitCode !== null) throw new Error(`${args[0]} exited:\n${child.output()}`);
        return (registrations.get(user.id) ?? 0) > before ? true : undefined;
      },
      () => `${args[0]} never registered an event queue:\n${child.output()}`,
    );
    return child;
  }

  async function messages(user: TestUser, narrow: Record<string, unknown>[]) {
    const res = await server.as(user).get("/messages", {
      anchor: "newest",
      num_before: 20,
      num_after: 0,
      narrow,
      apply_markdown: false,
    });
    expect(res.status).toBe(200);
    return res.body.messages as { id: number; content: string; sender_email: string; subject: string }[];
  }

  const send = async (user: TestUser, request: Record<string, unknown>) => {
    const res = await server.as(user).post("/messages", request);
    expect(res.status).toBe(200);
    return res.body.id as number;
  };

  it("zulip-send sends a channel message and a direct message", async () => {
    const rc = zuliprc("owner", server.users.owner);
    await python([
      script("zulip", "zulip", "send.py"),
      "--config-file",
      rc,
      "--stream",
      "general",
      "--subject",
      "cli",
      "-m",
      "sent by zulip-send",
    ]);
    await python([
      script("zulip", "zulip", "send.py"),
      "--config-file",
      rc,
      server.users.other.email,
      "-m",
      "a DM by zulip-send",
    ]);
    const inChannel = await messages(server.users.member, [
      { operator: "channel", operand: "general" },
      { operator: "topic", operand: "cli" },
    ]);
    expect(inChannel.map((m) => [m.sender_email, m.content])).toEqual([
      [server.users.owner.email, "sent by zulip-send"],
    ]);
    const dms = await messages(server.users.other, [{ operator: "dm", operand: server.users.owner.email }]);
    expect(dms.map((m) => m.content)).toEqual(["a DM by zulip-send"]);
  });

  it("the helloworld bot answers a direct message", async () => {
    const bot = server.users.genericBot;
    const helloworld = await startListening(bot, [
      script("zulip_bots", "zulip_bots", "run.py"),
      "helloworld",
      "--config-file",
      zuliprc("generic-bot", bot),
    ]);
    await send(server.users.member, { type: "private", to: JSON.stringify([bot.id]), content: "hello bot" });
    const reply = await pollFor(
      async () =>
        (await messages(server.users.member, [{ operator: "dm", operand: bot.email }])).find(
          (m) => m.sender_email === bot.email,
        ),
      () => `no answer from helloworld:\n${helloworld.output()}`,
    );
    expect(reply.content).toBe("beep boop");
    await helloworld.stop();
  });

  it("the incrementor bot answers a mention, then edits its answer (count kept in bot storage)", async () => {
    const bot = server.users.genericBot;
    // The bot hears channel messages where it is subscribed.
    expect(
      (await server.as(bot).post("/users/me/subscriptions", { subscriptions: [{ name: "general" }] })).status,
    ).toBe(200);
    const incrementor = await startListening(bot, [
      script("zulip_bots", "zulip_bots", "run.py"),
      "incrementor",
      "--config-file",
      zuliprc("generic-bot", bot),
    ]);
    const topic = [
      { operator: "channel", operand: "general" },
      { operator: "topic", operand: "counting" },
    ];
    const mention = { type: "stream", to: "general", topic: "counting", content: "@**Generic Bot** count" };
    await send(server.users.member, mention);
    const answer = await pollFor(
      async () => (await messages(server.users.member, topic)).find((m) => m.sender_email === bot.email),
      () => `no answer from incrementor:\n${incrementor.output()}`,
    );
    expect(answer.content).toBe("1");
    await send(server.users.member, mention);
    await pollFor(
      async () =>
        (await messages(server.users.member, topic)).find((m) => m.id === answer.id)?.content === "2"
          ? true
          : undefined,
      () => `incrementor did not edit its answer to 2:\n${incrementor.output()}`,
    );
    // One answer, edited in place: the second mention got no new message.
    expect((await messages(server.users.member, topic)).filter((m) => m.sender_email === bot.email)).toHaveLength(1);
    const storage = await server.as(bot).get("/bot_storage");
    expect(storage.status).toBe(200);
    expect(JSON.parse(storage.body.storage.number)).toBe(2);
    expect(JSON.parse(storage.body.storage.message_id)).toBe(answer.id);
    await incrementor.stop();
  });

  it("the git post-receive hook posts pushes as an incoming-webhook bot", async () => {
    const bot = server.users.bot;
    const bare = path.join(clients.dir, "project.git");
    const work = path.join(clients.dir, "project");
    const env = {
      ...clients.env,
      GIT_AUTHOR_NAME: "Dee Developer",
      GIT_AUTHOR_EMAIL: "dee@example.com",
      GIT_COMMITTER_NAME: "Dee Developer",
      GIT_COMMITTER_EMAIL: "dee@example.com",
      GIT_CONFIG_NOSYSTEM: "1",
    };
    const git = async (cwd: string, ...args: string[]) => {
      const result = await run("git", args, { env, cwd, timeoutMs: RUN_TIMEOUT_MS });
      if (result.code !== 0)
        throw new Error(`git ${args.join(" ")} → ${result.code}\n${result.stdout}\n${result.stderr}`);
      return result;
    };
    await git(clients.dir, "init", "--quiet", "--bare", "--initial-branch=main", bare);
    // As its doc.md installs it: the hook copied into hooks/, its edited config file beside it.
    const hooks = path.join(bare, "hooks");
    fs.copyFileSync(script("zulip", "integrations", "git", "post-receive"), path.join(hooks, "post-receive"));
    fs.chmodSync(path.join(hooks, "post-receive"), 0o755);
    fs.writeFileSync(
      path.join(hooks, "zulip_git_config.py"),
      [
        "from typing import Dict, Optional",
        `ZULIP_USER = ${JSON.stringify(bot.email)}`,
        `ZULIP_API_KEY = ${JSON.stringify(bot.apiKey)}`,
        `ZULIP_SITE = ${JSON.stringify(server.url)}`,
        "ZULIP_API_PATH: Optional[str] = None",
        "def commit_notice_destination(repo: str, branch: str, commit: str) -> Optional[Dict[str, str]]:",
        '    return dict(stream="general", subject=f"{repo} {branch}") if branch == "main" else None',
        "def format_commit_message(author: str, subject: str, commit_id: str) -> str:",
        '    return f"!avatar({author}) {subject}\\n"',
        "",
      ].join("\n"),
    );
    await git(clients.dir, "init", "--quiet", "--initial-branch=main", work);
    fs.writeFileSync(path.join(work, "README"), "one\n");
    await git(work, "add", "README");
    await git(work, "commit", "--quiet", "-m", "First commit");
    await git(work, "remote", "add", "origin", bare);
    await git(work, "push", "--quiet", "origin", "main");
    fs.writeFileSync(path.join(work, "README"), "two\n");
    await git(work, "commit", "--quiet", "-am", "Second commit");
    const pushed = await git(work, "push", "origin", "main");
    expect(pushed.stderr).not.toMatch(/Traceback|error/i);
    const head = (await git(work, "rev-parse", "HEAD")).stdout.trim().slice(0, 12);
    const first = (await git(work, "rev-parse", "HEAD~1")).stdout.trim().slice(0, 12);
    const posted = await messages(server.users.member, [
      { operator: "channel", operand: "general" },
      { operator: "topic", operand: "project main" },
    ]);
    expect(posted.map((m) => [m.sender_email, m.content])).toEqual([
      [bot.email, `\`${first}\` was pushed to new branch \`main\``],
      [bot.email, `\`${head}\` was deployed to \`main\` with:\n\n!avatar(dee@example.com) Second commit`], // trailing whitespace trimmed, as the reference does
    ]);
  });

  it("print-events with a narrow receives only the matching messages", async () => {
    const owner = server.users.owner;
    // The example listens to the channel Denmark.
    expect(
      (await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }] })).status,
    ).toBe(200);
    const printer = await startListening(owner, [
      script("zulip", "zulip", "examples", "print-events"),
      "--config-file",
      zuliprc("owner", owner),
    ]);
    await send(server.users.owner, { type: "stream", to: "Denmark", topic: "t", content: "first in Denmark" });
    await send(server.users.owner, { type: "stream", to: "general", topic: "t", content: "not in Denmark" });
    await send(server.users.owner, { type: "stream", to: "Denmark", topic: "t", content: "second in Denmark" });
    // Events arrive in order: once the last one is printed, the general one would have been too.
    await pollFor(
      () => (printer.output().includes("second in Denmark") ? true : undefined),
      () => `print-events did not print the Denmark messages:\n${printer.output()}`,
    );
    const out = printer.output();
    expect(out).toContain("first in Denmark");
    expect(out).not.toContain("not in Denmark");
    expect(out).not.toMatch(/Traceback/);
    await printer.stop();
  });

  it("the example scripts edit, read the history of, star, and delete a message; alert words, topics, muting, users", async () => {
    const rc = zuliprc("owner", server.users.owner);
    const example = (name: string, ...args: string[]) =>
      python([script("zulip", "zulip", "examples", name), "--config-file", rc, ...args]);
    const id = await send(server.users.owner, { type: "stream", to: "general", topic: "examples", content: "before" });
    await example("edit-message", "--message-id", String(id), "--content", "after");
    const history = await example("message-history", String(id));
    expect(history.stdout).toMatch(/'content': 'before'[\s\S]*'content': 'after'/);
    await example("update-message-flags", "add", "starred", String(id));
    const starred = await server.as(server.users.owner).get(`/messages/${id}`);
    expect(starred.body.message.content).toBe("<p>after</p>");
    expect(starred.body.message.flags).toContain("starred");
    await example("alert-words", "add", "pizza");
    expect((await server.as(server.users.owner).get("/users/me/alert_words")).body.alert_words).toEqual(["pizza"]);
    const topics = await example("get-stream-topics", "--stream-id", String(server.general.id));
    expect(topics.stdout).toMatch(/'name': 'examples', 'max_id': \d+/);
    await example("mute-topic", "mute", "general", "examples");
    const muted = await server.as(server.users.owner).post("/register", { fetch_event_types: ["user_topic"] });
    expect(muted.body.user_topics).toEqual([
      expect.objectContaining({ stream_id: server.general.id, topic_name: "examples", visibility_policy: 1 }),
    ]);
    await example(
      "create-user",
      "--new-email",
      "newcomer@test.example",
      "--new-password",
      "a-long-Passw0rd",
      "--new-full-name",
      "Nia Newcomer",
      "--new-short-name",
      "nia",
    );
    const users = await example("list-users");
    expect(users.stdout).toContain("newcomer@test.example");
    await example("delete-message", String(id));
    expect((await server.as(server.users.owner).get(`/messages/${id}`)).status).toBe(400);
  });

  it("upload-file uploads through the Python client (file part without a Content-Type)", async () => {
    const file = path.join(clients.dir, "notes.txt");
    const bytes = "uploaded by the Python client\n";
    fs.writeFileSync(file, bytes);
    const result = await python([
      script("zulip", "zulip", "examples", "upload-file"),
      "--config-file",
      zuliprc("member", server.users.member),
      "--file-path",
      file,
    ]);
    const uri = /File URI: (\S+)/.exec(result.stdout)?.[1];
    expect(uri).toMatch(/^\/user_uploads\/.+\/notes\.txt$/);
    const member = server.users.member;
    const fetched = await fetch(`${server.url}${uri}`, {
      headers: { authorization: "Basic " + Buffer.from(`${member.email}:${member.apiKey}`).toString("base64") },
    });
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe(bytes);
  });
});
