// zulip-terminal, the official terminal client, unmodified, under tmux against the real app: it
// starts without a traceback, lists the channels, sends from the compose box, shows a message
// another user sends while it runs, edits a message (`e`) and reacts (`+`, thumbs_up). What it
// shows is read with `tmux capture-pane`; what it did is checked through the API.
import fs from "node:fs";
import path from "node:path";
import { writeZuliprc } from "../../src/services/users/zuliprc";
import { startTestServer, type TestServer } from "../support/harness";
import {
  freePort,
  killProcess,
  serverEnvironment,
  SERVER_COMMAND,
  startServerProcess,
  waitUntilListening,
  type ServerProcess,
} from "../support/process";
import {
  describeWithClients,
  extractClients,
  pollFor,
  Tmux,
  writeScript,
  PYTHON,
  type ClientTree,
} from "../support/realClients";

const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");

// The client's own start-up race, not an answer of ours: its presence thread starts before the
// screen does, and when our answer to its first presence update arrives before its main loop
// exists, that thread's redraws (of the user list, of the message list's markers) fail
// `assert hasattr(self, "_update_pipe")` in update_screen (zulipterminal/core.py) and the thread
// ends; the client goes on. Threads print at once, so their lines can interleave: a traceback is
// counted as the race when an assertion on `_update_pipe` ends it.
const RACE_ENDING = /assert hasattr\(self, "_update_pipe"\)\s*\n\s*AssertionError/g;

/**
 * The client's stderr (the script sends it to a file, so its threads' tracebacks do not garble the
 * screen being read) when it holds a traceback other than the start-up race; else "".
 */
const threadTracebacks = (stderrFile: string): string => {
  const text = read(stderrFile);
  const tracebacks = text.match(/Traceback \(most recent call last\)/g)?.length ?? 0;
  return tracebacks > (text.match(RACE_ENDING)?.length ?? 0) ? text : "";
};

describeWithClients("zulip-terminal", { tmux: true }, () => {
  let server: TestServer;
  let clients: ClientTree;
  let tmux: Tmux;
  let tracebacks: string;
  let stderr: string;

  beforeAll(async () => {
    server = await startTestServer();
    clients = extractClients();
    const owner = server.as(server.users.owner);
    // A second channel to list, and one message: the client opens on the message list.
    expect((await owner.post("/users/me/subscriptions", { subscriptions: [{ name: "design" }] })).status).toBe(200);
    const first = await server.as(server.users.member).post("/messages", {
      type: "stream",
      to: "general",
      topic: "greetings",
      content: "hello from mel",
    });
    expect(first.status).toBe(200);
    const rc = writeZuliprc(
      path.join(clients.dir, "zuliprc-owner"),
      server.users.owner.email,
      server.users.owner.apiKey,
      server.url,
    );
    // It writes its crash report into the working folder.
    tracebacks = path.join(clients.dir, "zulip-terminal-tracebacks.log");
    stderr = path.join(clients.dir, "zulip-terminal-stderr.log");
    const script = writeScript(
      path.join(clients.dir, "zulip-terminal.sh"),
      clients.env,
      clients.dir,
      [PYTHON, "-c", "from zulipterminal.cli.run import main; main()", "-c", rc],
      stderr,
    );
    tmux = new Tmux("zt", clients.env);
    tmux.start(script);
  });

  afterAll(async () => {
    tmux?.kill();
    clients?.remove();
    await server?.close();
  });

  /** Its crash report, and any traceback of its threads. */
  const crashReport = () => read(tracebacks) + threadTracebacks(stderr);

  /** Waits for the screen; a crash report ends the wait at once with its traceback. */
  async function screenShows(pattern: RegExp, timeoutMs = 30000): Promise<string> {
    let last = "";
    return pollFor(
      () => {
        const crash = crashReport();
        if (crash) throw new Error(`zulip-terminal crashed:\n${crash}\nscreen:\n${tmux.screen()}`);
        last = tmux.screen();
        return pattern.test(last) ? last : undefined;
      },
      () => `the screen never matched ${pattern}:\n${last}`,
      timeoutMs,
    );
  }

  // The compose box's recipient line: "│# general  ▶ topic", or "│✗ ▶" while the channel is empty
  // (message headers in the list read "│ # general ▶").
  const COMPOSE_OPEN = /│[#✗] [^━\n]*▶/;

  /** Escape closes the compose box; the next keys wait for it (an Escape followed at once by a
   * key would reach urwid as one Alt-key). */
  async function closeCompose(): Promise<void> {
    tmux.keys(["Escape"]);
    await pollFor(
      () => (COMPOSE_OPEN.test(tmux.screen()) ? undefined : true),
      () => `the compose box stayed open:\n${tmux.screen()}`,
    );
  }

  async function latestMessages(topic: string) {
    const res = await server.as(server.users.owner).get("/messages", {
      anchor: "newest",
      num_before: 5,
      num_after: 0,
      narrow: [
        { operator: "channel", operand: "general" },
        { operator: "topic", operand: topic },
      ],
      apply_markdown: false,
    });
    expect(res.status).toBe(200);
    return res.body.messages as {
      id: number;
      content: string;
      sender_email: string;
      reactions: { emoji_name: string; user_id: number }[];
    }[];
  }

  it("starts without a traceback and lists the channels", async () => {
    // The title bar names the user and the organization once loading is done.
    const screen = await screenShows(/Olivia Owner \(owner@test\.example\) - Test Org/, 60000);
    expect(screen).toMatch(/# general/);
    expect(screen).toMatch(/# design/);
    expect(screen).toMatch(/hello from mel/);
    expect(screen).not.toMatch(/Traceback|has crashed/);
    expect(crashReport()).toBe("");
  });

  it("sends a channel message from the compose box", async () => {
    tmux.keys(["c"]);
    await screenShows(COMPOSE_OPEN);
    tmux.type("general");
    tmux.keys(["Tab"]);
    tmux.type("from zt");
    tmux.keys(["Tab"]);
    tmux.type("sent from the terminal");
    tmux.keys(["C-d"]);
    const sent = await pollFor(
      async () => (await latestMessages("from zt")).find((m) => m.content === "sent from the terminal"),
      () => `no message in general > from zt; screen:\n${tmux.screen()}`,
    );
    expect(sent.sender_email).toBe(server.users.owner.email);
    await screenShows(/general ▶ +from zt[\s\S]*sent from the terminal/);
    await closeCompose();
  });

  it("edits its own message with e", async () => {
    const [sent] = await latestMessages("from zt");
    tmux.keys(["G", "e"]); // the newest message (its own) is focused, then edit
    await screenShows(/Also change later messages to this topic/);
    tmux.type(" and edited");
    tmux.keys(["C-d"]);
    await pollFor(
      async () =>
        (await latestMessages("from zt")).find((m) => m.id === sent.id)?.content === "sent from the terminal and edited"
          ? true
          : undefined,
      () => `message ${sent.id} was not edited; screen:\n${tmux.screen()}`,
    );
    await screenShows(/EDITED .*sent from the terminal and edited/);
    await closeCompose();
  });

  it("reacts with + (thumbs_up)", async () => {
    const [sent] = await latestMessages("from zt");
    tmux.keys(["G", "+"]);
    const reactions = await pollFor(
      async () => {
        const message = (await latestMessages("from zt")).find((m) => m.id === sent.id);
        return message && message.reactions.length > 0 ? message.reactions : undefined;
      },
      () => `no reaction on message ${sent.id}; screen:\n${tmux.screen()}`,
    );
    expect(reactions).toEqual([expect.objectContaining({ emoji_name: "thumbs_up", user_id: server.users.owner.id })]);
    await screenShows(/:thumbs_up: You/);
  });

  it("shows a message another user sends while it runs", async () => {
    const res = await server.as(server.users.member).post("/messages", {
      type: "stream",
      to: "general",
      topic: "live",
      content: "live from mel",
    });
    expect(res.status).toBe(200);
    const screen = await screenShows(/general ▶ +live[\s\S]*live from mel/);
    expect(screen).not.toMatch(/Traceback|has crashed/);
    expect(crashReport()).toBe("");
  });
});

// The organization `npm start` creates on an empty database, with the zuliprc it writes: the
// client must start on it as it is (its welcome message is the whole message list).
describeWithClients("zulip-terminal on the demo organization of npm start", { tmux: true }, () => {
  const cleanups: (() => Promise<void>)[] = [];
  let server: ServerProcess;
  let clients: ClientTree;
  let tmux: Tmux;

  beforeAll(async () => {
    const env = await serverEnvironment("switchboard-zt-demo-", (fn) => cleanups.push(fn));
    const port = await freePort();
    // Only the helloworld plugin: the catalogue is not what this test is about (and loads slower).
    const integrations = path.join(env.DATA_DIR, "integrations");
    fs.cpSync(path.join(__dirname, "..", "..", "integrations", "helloworld"), path.join(integrations, "helloworld"), {
      recursive: true,
    });
    server = startServerProcess(
      SERVER_COMMAND,
      { ...env, EXTERNAL_URL: `http://127.0.0.1:${port}`, INTEGRATIONS_DIR: integrations },
      port,
    );
    cleanups.push(() => killProcess(server.child));
    await waitUntilListening(server);
    clients = extractClients();
    cleanups.push(async () => clients.remove());
    const rc = path.join(env.DATA_DIR, "zuliprc-owner");
    // Its stderr (where Python prints an exception in one of its threads) goes to a file, read below,
    // instead of over the screen being checked.
    const script = writeScript(
      path.join(clients.dir, "zulip-terminal.sh"),
      clients.env,
      clients.dir,
      [PYTHON, "-c", "from zulipterminal.cli.run import main; main()", "-c", rc],
      path.join(clients.dir, "zulip-terminal-stderr.log"),
    );
    tmux = new Tmux("zt-demo", clients.env);
    cleanups.push(async () => tmux.kill());
    tmux.start(script);
  });

  afterAll(async () => {
    for (const fn of cleanups.reverse()) await fn();
  });

  it("starts and shows the welcome message", async () => {
    const tracebacks = path.join(clients.dir, "zulip-terminal-tracebacks.log");
    const stderr = path.join(clients.dir, "zulip-terminal-stderr.log");
    let last = "";
    const screen = await pollFor(
      () => {
        if (fs.existsSync(tracebacks) || threadTracebacks(stderr))
          throw new Error(
            `zulip-terminal crashed:\n${read(tracebacks)}\n${threadTracebacks(stderr)}\n${tmux.screen()}`,
          );
        last = tmux.screen();
        // Loaded, and done drawing the first messages (a poll may catch the screen half drawn).
        return /Demo Owner \(owner@example\.com\) - Switchboard Demo/.test(last) &&
          /Notification Bot[\s\S]*Welcome to the Switchboard Demo organization!/.test(last)
          ? last
          : undefined;
      },
      () => `zulip-terminal never loaded:\n${last}\nserver:\n${server.output()}`,
      60000,
    );
    expect(screen).toMatch(/# general/);
    expect(screen).toMatch(/Notification Bot[\s\S]*Welcome to the Switchboard Demo organization!/);
    expect(screen).not.toMatch(/Traceback|has crashed/);
    expect(threadTracebacks(stderr)).toBe("");
  });
});
