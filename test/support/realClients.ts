// Running the real, unmodified Zulip clients from ../shared/clients (zulip-terminal, the Python
// API client, its tools and bots, zulip_botserver) against a test server. They need Debian's
// python3 and packages (docs/testing.md, "Real clients"). Without ../shared/clients the suites
// skip (one visible skipped test saying why); in CI (CI=true) with ../shared present, a missing
// prerequisite fails instead, so a suite that silently stopped running cannot pass unnoticed.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
export const SHARED = path.resolve(ROOT, "..", "shared");
export const CLIENT_ARCHIVES = path.join(SHARED, "clients");
const ARCHIVES = ["python-zulip-api", "zulip-terminal", "urwid_readline"];

/** Debian's interpreter: the one the apt packages install into (not a pyenv/venv python3 in PATH). */
export const PYTHON = process.env.CLIENTS_PYTHON ?? "/usr/bin/python3";
/** What the clients import from Debian (the apt line in .ci/run installs them). */
const PYTHON_MODULES = [
  "requests",
  "distro",
  "click",
  "typing_extensions",
  "importlib_metadata",
  "urwid",
  "pygments",
  "pyperclip",
  "tzlocal",
  "pytz",
  "bs4",
  "lxml",
  "html2text",
  "dateutil",
  "flask",
];

/** Why the real clients cannot run here, or null when they can. */
export function missingPrerequisite(needs: { tmux?: boolean } = {}): string | null {
  if (!fs.existsSync(CLIENT_ARCHIVES)) return `${CLIENT_ARCHIVES} is absent`;
  for (const name of ARCHIVES) {
    if (!fs.existsSync(path.join(CLIENT_ARCHIVES, `${name}.tar.gz`))) return `${name}.tar.gz is missing`;
  }
  if (!fs.existsSync(PYTHON)) return `${PYTHON} is missing (apt-get install python3)`;
  const probe = spawnSync(PYTHON, ["-c", `import ${PYTHON_MODULES.join(", ")}`], { encoding: "utf8" });
  if (probe.status !== 0) return `Debian python packages missing: ${probe.stderr.trim().split("\n").pop()}`;
  if (needs.tmux && spawnSync("tmux", ["-V"]).status !== 0) return "tmux is missing";
  if (spawnSync("git", ["--version"]).status !== 0) return "git is missing";
  return null;
}

export const inCiWithShared = (): boolean => process.env.CI === "true" && fs.existsSync(SHARED);

/**
 * `describe` when the clients can run; otherwise one skipped test naming the reason, or, in CI
 * with ../shared present, one failing test.
 */
export function describeWithClients(name: string, needs: { tmux?: boolean }, body: () => void): void {
  const missing = missingPrerequisite(needs);
  if (missing === null) describe(name, body);
  else if (inCiWithShared())
    it(`${name} (CI with ../shared present)`, () => {
      throw new Error(`the real clients cannot run: ${missing}`);
    });
  else it.skip(`${name} (skipped: ${missing})`, () => undefined);
}

export interface ClientTree {
  /** The temporary folder: archives extracted in it, plus room for zuliprc files and logs. */
  dir: string;
  pythonZulipApi: string;
  zulipTerminal: string;
  /** Environment for the client processes: PYTHONPATH over the extracted trees, HOME in `dir`. */
  env: Record<string, string>;
  remove(): void;
}

/** Extracts the three archives into a new temporary folder (one per test file run). */
export function extractClients(): ClientTree {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-clients-"));
  for (const name of ARCHIVES) {
    const r = spawnSync("tar", ["-xzf", path.join(CLIENT_ARCHIVES, `${name}.tar.gz`), "-C", dir], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`tar ${name}: ${r.stderr}`);
  }
  const api = path.join(dir, "python-zulip-api");
  const home = path.join(dir, "home");
  fs.mkdirSync(home);
  // `#!/usr/bin/env python3` scripts (the git hook) must find Debian's python first.
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  fs.symlinkSync(PYTHON, path.join(bin, "python3"));
  return {
    dir,
    pythonZulipApi: api,
    zulipTerminal: path.join(dir, "zulip-terminal"),
    env: {
      PATH: `${bin}:/usr/bin:/bin`,
      HOME: home,
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      PYTHONPATH: [
        path.join(api, "zulip"),
        path.join(api, "zulip_bots"),
        path.join(api, "zulip_botserver"),
        path.join(dir, "zulip-terminal"),
        path.join(dir, "urwid_readline"),
      ].join(":"),
      PYTHONDONTWRITEBYTECODE: "1",
      PYTHONUNBUFFERED: "1",
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Runs a command to completion in its own process group, killed (whole group) after timeoutMs. */
export function run(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string; input?: string; timeoutMs: number },
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, options.timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    if (options.input !== undefined) {
      child.stdin!.on("error", () => undefined); // a process that exits without reading its input
      child.stdin!.end(options.input);
    }
  });
}

export interface LongRunning {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts a long-running client (a bot, the bot server) in its own process group. */
export function start(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string },
): LongRunning {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise((resolve) => child.once("close", resolve));
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      killGroup(child);
      await exited;
    },
  };
}

/**
 * Polls `probe` every intervalMs until it returns a value other than undefined; throws with
 * `describe()` (what was seen instead) when it still has not after timeoutMs.
 */
export async function pollFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  describe: () => string,
  timeoutMs = 30000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms; ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A tmux server of our own (its own socket), so no other tmux session is ever touched. */
export class Tmux {
  private readonly socket: string;

  constructor(
    readonly session: string,
    private readonly env: Record<string, string>,
  ) {
    this.socket = `switchboard-${process.pid}-${session}`;
  }

  private tmux(args: string[]): string {
    const r = spawnSync("tmux", ["-L", this.socket, ...args], {
      encoding: "utf8",
      env: { ...this.env, TERM: "xterm-256color" },
    });
    if (r.status !== 0) throw new Error(`tmux ${args[0]}: ${r.stderr}`);
    return r.stdout;
  }

  /** Starts `script` (a shell script path) in a width×height window that stays after it exits. */
  start(script: string, width = 200, height = 50): void {
    this.tmux(["new-session", "-d", "-s", this.session, "-x", String(width), "-y", String(height), `sh ${script}`]);
    this.tmux(["set-option", "-t", this.session, "remain-on-exit", "on"]);
  }

  screen(): string {
    return this.tmux(["capture-pane", "-p", "-t", this.session]);
  }

  /** tmux key names (`Enter`, `Tab`, `C-d`, `Escape`) or, with literal, text typed as is. */
  keys(keys: string[], literal = false): void {
    this.tmux(["send-keys", "-t", this.session, ...(literal ? ["-l"] : []), ...keys]);
  }

  type(text: string): void {
    this.keys([text], true);
  }

  /** Waits until the screen matches; returns it. */
  waitFor(pattern: RegExp, timeoutMs = 30000): Promise<string> {
    let last = "";
    return pollFor(
      () => {
        last = this.screen();
        return pattern.test(last) ? last : undefined;
      },
      () => `the screen never matched ${pattern}:\n${last}`,
      timeoutMs,
    );
  }

  kill(): void {
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
  }
}

/** A shell script that runs a command with the given environment, for tmux to start. */
/** A shell script that runs `command` in `cwd` with `env`; its stderr goes to `stderrFile` when given. */
export function writeScript(
  file: string,
  env: Record<string, string>,
  cwd: string,
  command: string[],
  stderrFile?: string,
): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const lines = [
    `cd ${quote(cwd)}`,
    ...Object.entries(env).map(([k, v]) => `export ${k}=${quote(v)}`),
    `exec ${command.map(quote).join(" ")}${stderrFile ? ` 2>>${quote(stderrFile)}` : ""}`,
  ];
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}
