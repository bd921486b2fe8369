// The operator CLI's commands (src/cli.ts runs them): npm run cli -- <command> [--options].
// Commands that make credentials print them and, with --zuliprc FILE, write a zuliprc the official
// clients read. One table (COMMANDS) holds each command's name, usage, options and handler; the
// help is generated from it. runCli takes the environment and where output goes, so tests can run
// a command without starting a process.
import path from "node:path";
import { parseArgs } from "node:util";
import { createDeps } from "./bootstrap";
import { loadConfig, type Config } from "./config";
import type { Db } from "./db/knex";
import type { RealmRow } from "./db/rows";
import type { EventBus } from "./events/bus";
import { createChannelAsOperator } from "./services/channels/creation";
import { createNamedGroup } from "./services/groups/groups";
import { createRealm, findRealm, realmUrl, setRealmDeactivated } from "./services/realms/realms";
import {
  BOT_TYPE_NAMES,
  changeRole,
  createUser,
  findUserInRealm,
  regenerateApiKey,
  ROLE_NAMES,
  setUserActive,
} from "./services/users/users";
import { softDeactivateIdleUsers } from "./services/users/softDeactivation";
import { setPassword } from "./services/users/credentials";
import { endUserSessions } from "./services/users/sessions";
import { createBotAsOperator } from "./services/users/bots";
import { writeZuliprc } from "./services/users/zuliprc";
import { setWebhookSecretByEmail } from "./services/webhooks/secrets";
import { deliveryToFixture } from "./services/webhooks/fixtureFromDelivery";
import { loadIntegrationsForApp } from "./webhooks/startup";

type Options = Record<string, string | boolean | undefined>;
/** Where a command writes what it tells the operator (standard output in a real run). */
export type Output = (text: string) => void;

function need(opts: Options, name: string): string {
  const value = opts[name];
  if (typeof value !== "string") throw new Error(`--${name} is required`);
  return value;
}

async function realmOf(db: Db, opts: Options): Promise<RealmRow> {
  const subdomain = typeof opts.realm === "string" ? opts.realm : "";
  const realm = await findRealm(db, subdomain);
  if (!realm) throw new Error(`No organization with subdomain '${subdomain}'`);
  return realm;
}

function printCredentials(out: Output, email: string, apiKey: string, site: string, opts: Options): void {
  out(`email:   ${email}\napi key: ${apiKey}\nsite:    ${site}\n`);
  if (typeof opts.zuliprc === "string") out(`zuliprc: ${writeZuliprc(opts.zuliprc, email, apiKey, site)}\n`);
}

/** The first line of stdin (a terminal is prompted, without echo where possible): never an argument, so never in `ps` or shell history. */
async function readPasswordFromStdin(): Promise<string> {
  const input = process.stdin;
  if (input.isTTY) {
    process.stderr.write("New password: ");
    input.setRawMode?.(true);
  }
  let text = "";
  for await (const chunk of input) {
    text += String(chunk);
    if (input.isTTY && (/[\r\n]/.test(text) || text.includes("\u0003"))) break; // Enter or Ctrl-C
  }
  if (input.isTTY) {
    input.setRawMode?.(false);
    process.stderr.write("\n");
    if (text.includes("\u0003")) throw new Error("cancelled");
  }
  const line = text.split(/\r?\n|\r/)[0];
  if (!line)
    throw new Error("No password on stdin (e.g. printf '%s\\n' \"$PASSWORD\" | npm run cli -- set-password …)");
  return line;
}

interface CommandContext {
  db: Db;
  bus: EventBus;
  config: Config;
  /** The server's external URL (what printed credentials point at). */
  site: string;
  opts: Options;
  /** The name the command was run by (commands sharing a handler tell themselves apart). */
  command: string;
  out: Output;
}

interface Command {
  name: string;
  /** What follows the name in the help; adjacent commands with the same usage share a help line. */
  usage: string;
  /** The options it reads (every command accepts every option, as the help is one list). */
  options: Record<string, "string" | "boolean">;
  /** Starts with the plugins loaded (the others start faster without them). */
  usesPlugins?: boolean;
  run(c: CommandContext): Promise<void>;
}

const ROLES = "owner|administrator|moderator|member|guest";

async function setActive({ db, bus, opts, command, out }: CommandContext): Promise<void> {
  const realm = await realmOf(db, opts);
  const user = await findUserInRealm(db, realm.id, need(opts, "email"));
  if (!user) throw new Error(`No user '${String(opts.email)}'`);
  // Servers with Redis hear of it (and of the bots deactivated with the user) as events.
  await bus.publish(await setUserActive(db, user.id, command === "reactivate-user"));
  out(`${command === "reactivate-user" ? "Reactivated" : "Deactivated"} ${user.email}.\n`);
}

async function setRealmActive({ db, opts, command, out }: CommandContext): Promise<void> {
  const realm = await setRealmDeactivated(db, (opts.realm as string) ?? "", command === "deactivate-realm");
  out(`${command === "deactivate-realm" ? "Deactivated" : "Reactivated"} organization '${realm.name}'.\n`);
}

const COMMANDS: Command[] = [
  {
    name: "migrate",
    usage: "",
    options: {},
    async run({ out }) {
      out("Database is migrated to the latest schema.\n");
    },
  },
  {
    name: "create-realm",
    usage: "--subdomain S --name N --owner-email E --owner-name F [--zuliprc FILE]",
    options: {
      subdomain: "string",
      name: "string",
      "owner-email": "string",
      "owner-name": "string",
      zuliprc: "string",
    },
    async run({ db, site, opts, out }) {
      const created = await createRealm(db, {
        subdomain: need(opts, "subdomain"),
        name: need(opts, "name"),
        owner: { email: need(opts, "owner-email"), fullName: need(opts, "owner-name") },
      });
      const realmSite = realmUrl(created.realm, site);
      out(`Created organization '${created.realm.name}' (id ${created.realm.id}).\nOwner:\n`);
      printCredentials(out, created.owner.email, created.ownerApiKey, realmSite, opts);
    },
  },
  {
    name: "create-user",
    usage: `--realm S --email E --name F [--role ${ROLES}] [--zuliprc FILE]`,
    options: { realm: "string", email: "string", name: "string", role: "string", zuliprc: "string" },
    async run({ db, site, opts, out }) {
      const realm = await realmOf(db, opts);
      const role = ROLE_NAMES[(opts.role as string) ?? "member"];
      if (role === undefined) throw new Error(`Unknown role '${String(opts.role)}'`);
      const { user, apiKey } = await createUser(db, realm.id, {
        email: need(opts, "email"),
        fullName: need(opts, "name"),
        role,
      });
      printCredentials(out, user.email, apiKey, site, opts);
    },
  },
  {
    name: "create-bot",
    usage: "--realm S --owner-email E --email E --name F [--type incoming-webhook|generic] [--zuliprc FILE]",
    options: {
      realm: "string",
      "owner-email": "string",
      email: "string",
      name: "string",
      type: "string",
      zuliprc: "string",
    },
    async run({ db, bus, site, opts, out }) {
      const realm = await realmOf(db, opts);
      const botType = BOT_TYPE_NAMES[(opts.type as string) ?? "incoming-webhook"];
      if (botType === undefined) throw new Error("--type must be incoming-webhook or generic");
      // The same service as POST /bots (name rules, events), without the caller's permission checks.
      const created = await createBotAsOperator(db, realm, {
        ownerEmail: need(opts, "owner-email"),
        email: need(opts, "email"),
        fullName: need(opts, "name"),
        botType,
      });
      await bus.publish(created.notifications);
      printCredentials(out, created.bot.email, created.apiKey, site, opts);
    },
  },
  {
    name: "create-channel",
    usage: "--realm S --name N [--description D] [--private] [--subscribe E1,E2]",
    options: { realm: "string", name: "string", description: "string", private: "boolean", subscribe: "string" },
    async run({ db, opts, out }) {
      const realm = await realmOf(db, opts);
      const emails = typeof opts.subscribe === "string" ? opts.subscribe.split(",").filter(Boolean) : [];
      const stream = await createChannelAsOperator(db, realm, {
        name: need(opts, "name"),
        description: (opts.description as string) ?? "",
        inviteOnly: Boolean(opts.private),
        subscriberEmails: emails,
      });
      out(`Created channel #${stream.name} (id ${stream.id}).\n`);
    },
  },
  {
    name: "change-role",
    usage: `--realm S --email E --role ${ROLES}`,
    options: { realm: "string", email: "string", role: "string" },
    async run({ db, opts, out }) {
      const realm = await realmOf(db, opts);
      const user = await findUserInRealm(db, realm.id, need(opts, "email"));
      if (!user) throw new Error(`No user '${String(opts.email)}'`);
      const role = ROLE_NAMES[need(opts, "role")];
      if (role === undefined) throw new Error(`Unknown role '${String(opts.role)}'`);
      await changeRole(db, realm.id, user.id, role);
      out(`${user.email} is now ${String(opts.role)}.\n`);
    },
  },
  {
    name: "create-group",
    usage: "--realm S --name N [--description D] [--members E1,E2]   (a named user group)",
    options: { realm: "string", name: "string", description: "string", members: "string" },
    async run({ db, opts, out }) {
      const realm = await realmOf(db, opts);
      const emails = typeof opts.members === "string" ? opts.members.split(",").filter(Boolean) : [];
      const id = await createNamedGroup(db, realm, {
        name: need(opts, "name"),
        description: (opts.description as string) ?? "",
        memberEmails: emails,
      });
      out(`Created group '${String(opts.name)}' (id ${id}) with ${emails.length} member(s).\n`);
    },
  },
  {
    name: "regenerate-api-key",
    usage: "--realm S --email E [--zuliprc FILE]",
    options: { realm: "string", email: "string", zuliprc: "string" },
    async run({ db, site, opts, out }) {
      const realm = await realmOf(db, opts);
      const user = await findUserInRealm(db, realm.id, need(opts, "email"));
      if (!user) throw new Error(`No user '${String(opts.email)}'`);
      printCredentials(out, user.email, await regenerateApiKey(db, user.id), site, opts);
    },
  },
  {
    name: "set-webhook-secret",
    usage: "--realm S --email E --secret X   (use --secret '' to clear)",
    options: { realm: "string", email: "string", secret: "string" },
    async run({ db, opts, out }) {
      const realm = await realmOf(db, opts);
      const secret = need(opts, "secret");
      await setWebhookSecretByEmail(db, realm.id, need(opts, "email"), secret);
      out(secret === "" ? "Webhook secret cleared.\n" : "Webhook secret set.\n");
    },
  },
  {
    name: "set-password",
    usage: "--realm S --email E   (reads the new password from stdin; ends the user's web sessions)",
    options: { realm: "string", email: "string" },
    async run({ db, opts, out }) {
      const realm = await realmOf(db, opts);
      const user = await findUserInRealm(db, realm.id, need(opts, "email"));
      if (!user) throw new Error(`No user '${String(opts.email)}'`);
      const password = await readPasswordFromStdin();
      // The operator replaces a password: every web session of the user ends (as on a change).
      await setPassword(db, user, password);
      await endUserSessions(db, user.id);
      out(`Password set for ${user.email}; their web sessions have ended.\n`);
    },
  },
  {
    name: "deactivate-user",
    usage: "--realm S --email E",
    options: { realm: "string", email: "string" },
    run: setActive,
  },
  {
    name: "reactivate-user",
    usage: "--realm S --email E",
    options: { realm: "string", email: "string" },
    run: setActive,
  },
  { name: "deactivate-realm", usage: "--realm S", options: { realm: "string" }, run: setRealmActive },
  { name: "reactivate-realm", usage: "--realm S", options: { realm: "string" }, run: setRealmActive },
  {
    name: "soft-deactivate-users",
    usage:
      "[--days N]   (mark users idle for N days, default SOFT_DEACTIVATION_DAYS: sends to\n" +
      "                 channels skip their rows until they return; the server also does this every hour)",
    options: { days: "string" },
    async run({ db, config, opts, out }) {
      const days = opts.days === undefined ? config.softDeactivation.inactiveDays : Number(opts.days);
      if (!Number.isInteger(days) || days < 1) throw new Error("--days must be a whole number of days, at least 1");
      const ids = await softDeactivateIdleUsers(db, { inactiveDays: days });
      out(`Soft-deactivated ${ids.length} user(s) inactive for ${days} days or more.\n`);
    },
  },
  {
    name: "delivery-to-fixture",
    usage:
      "--id N [--name VARIANT] [--force] [--fixtures-dir DIR (instead of the plugin's fixtures/)]\n" +
      "                 (a logged webhook delivery → integrations/<name>/fixtures/<event>__<variant>.json + .expected.json)",
    options: { id: "string", name: "string", force: "boolean", "fixtures-dir": "string" },
    usesPlugins: true,
    async run({ db, config, opts, out }) {
      const id = Number(need(opts, "id"));
      if (!Number.isSafeInteger(id) || id <= 0) throw new Error("--id must be a delivery id (a positive integer)");
      // By default the case goes to the plugin's own fixtures folder (integrations/<name>/fixtures).
      const fixturesDir = typeof opts["fixtures-dir"] === "string" ? path.resolve(opts["fixtures-dir"]) : undefined;
      const variant = typeof opts.name === "string" ? opts.name : undefined;
      // The other commands start without the plugins; this one renders with them.
      const integrations = await loadIntegrationsForApp(config);
      const made = await deliveryToFixture(db, integrations, { id, variant, force: !!opts.force, fixturesDir });
      out(`Wrote ${path.relative(process.cwd(), made.payloadPath)}\n`);
      out(`Wrote ${path.relative(process.cwd(), made.expectedPath)} (review it)\n`);
    },
  },
];

/** The help: one line per command (or per run of commands with the same usage), from the table. */
function usageText(): string {
  const lines: string[] = [];
  for (let i = 0; i < COMMANDS.length;) {
    const names = [COMMANDS[i].name];
    const { usage } = COMMANDS[i];
    while (++i < COMMANDS.length && COMMANDS[i].usage === usage) names.push(COMMANDS[i].name);
    const label = names.join(" | ");
    lines.push(usage ? `  ${label.padEnd(14)} ${usage}` : `  ${label}`);
  }
  return `Usage: npm run cli -- <command> [options]\n\n${lines.join("\n")}\n\n--realm '' (or omitted) means the root-domain organization.`;
}

/** Every command's options: parsed for whichever command runs. */
const ALL_OPTIONS = Object.fromEntries(
  COMMANDS.flatMap((c) => Object.entries(c.options)).map(([name, type]) => [name, { type }]),
) as Record<string, { type: "string" | "boolean" }>;

/** The line a failed command ends with, on standard error. */
export const errorLine = (err: unknown): string => `error: ${err instanceof Error ? err.message : String(err)}\n`;

/** Runs one command line (without the program's name); throws what the operator is told as an error. */
export async function runCli(
  argv: string[],
  {
    env = process.env,
    out = (text) => void process.stdout.write(text),
  }: { env?: NodeJS.ProcessEnv; out?: Output } = {},
): Promise<void> {
  const [command, ...rest] = argv;
  const { values: opts } = parseArgs({ args: rest, options: ALL_OPTIONS, allowPositionals: false }) as {
    values: Options;
  };
  if (!command || command === "help" || command === "--help") {
    out(usageText() + "\n");
    return;
  }
  const entry = COMMANDS.find((c) => c.name === command);
  const config = loadConfig(env);
  const deps = await createDeps(config, { migrate: true, integrations: entry?.usesPlugins ?? false });
  try {
    if (!entry) throw new Error(`Unknown command '${command}'\n\n${usageText()}`);
    await entry.run({ db: deps.db, bus: deps.bus, config, site: config.externalUrl, opts, command, out });
  } finally {
    await deps.close();
  }
}
