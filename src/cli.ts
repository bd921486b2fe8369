// Operator CLI: npm run cli -- <command> [--options]. Commands that make credentials print them
// and, with --zuliprc FILE, write a zuliprc the official clients read.
import path from "node:path";
import { parseArgs } from "node:util";
import { createDeps } from "./bootstrap";
import { loadConfig } from "./config";
import type { Db } from "./db/knex";
import type { RealmRow } from "./db/rows";
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

const USAGE = `Usage: npm run cli -- <command> [options]

  migrate
  create-realm   --subdomain S --name N --owner-email E --owner-name F [--zuliprc FILE]
  create-user    --realm S --email E --name F [--role owner|administrator|moderator|member|guest] [--zuliprc FILE]
  create-bot     --realm S --owner-email E --email E --name F [--type incoming-webhook|generic] [--zuliprc FILE]
  create-channel --realm S --name N [--description D] [--private] [--subscribe E1,E2]
  change-role    --realm S --email E --role owner|administrator|moderator|member|guest
  create-group   --realm S --name N [--description D] [--members E1,E2]   (a named user group)
  regenerate-api-key --realm S --email E [--zuliprc FILE]
  set-webhook-secret --realm S --email E --secret X   (use --secret '' to clear)
  set-password   --realm S --email E   (reads the new password from stdin; ends the user's web sessions)
  deactivate-user | reactivate-user --realm S --email E
  deactivate-realm | reactivate-realm --realm S
  soft-deactivate-users [--days N]   (mark users idle for N days, default SOFT_DEACTIVATION_DAYS: sends to
                 channels skip their rows until they return; the server also does this every hour)
  delivery-to-fixture --id N [--name VARIANT] [--force] [--fixtures-dir DIR (instead of the plugin's fixtures/)]
                 (a logged webhook delivery → integrations/<name>/fixtures/<event>__<variant>.json + .expected.json)

--realm '' (or omitted) means the root-domain organization.`;

type Options = Record<string, string | boolean | undefined>;

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

function printCredentials(email: string, apiKey: string, site: string, opts: Options): void {
  process.stdout.write(`email:   ${email}\napi key: ${apiKey}\nsite:    ${site}\n`);
  if (typeof opts.zuliprc === "string")
    process.stdout.write(`zuliprc: ${writeZuliprc(opts.zuliprc, email, apiKey, site)}\n`);
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

const COMMANDS_USING_PLUGINS = new Set(["delivery-to-fixture"]);

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values: opts } = parseArgs({
    args: rest,
    options: Object.fromEntries(
      [
        "subdomain",
        "name",
        "owner-email",
        "owner-name",
        "zuliprc",
        "realm",
        "email",
        "role",
        "type",
        "description",
        "subscribe",
        "secret",
        "members",
        "id",
        "fixtures-dir",
        "days",
      ]
        .map((n) => [n, { type: "string" as const }])
        .concat([["private", { type: "boolean" as const }] as never, ["force", { type: "boolean" as const }] as never]),
    ),
    allowPositionals: false,
  }) as { values: Options };
  if (!command || command === "help" || command === "--help") {
    process.stdout.write(USAGE + "\n");
    return;
  }
  const config = loadConfig();
  // Only commands that replay deliveries need the plugins; the others start faster without them.
  const deps = await createDeps(config, { migrate: true, integrations: COMMANDS_USING_PLUGINS.has(command) });
  const { db } = deps;
  const site = config.externalUrl;
  try {
    switch (command) {
      case "migrate":
        process.stdout.write("Database is migrated to the latest schema.\n");
        break;
      case "create-realm": {
        const created = await createRealm(db, {
          subdomain: need(opts, "subdomain"),
          name: need(opts, "name"),
          owner: { email: need(opts, "owner-email"), fullName: need(opts, "owner-name") },
        });
        const realmSite = realmUrl(created.realm, site);
        process.stdout.write(`Created organization '${created.realm.name}' (id ${created.realm.id}).\nOwner:\n`);
        printCredentials(created.owner.email, created.ownerApiKey, realmSite, opts);
        break;
      }
      case "create-user": {
        const realm = await realmOf(db, opts);
        const role = ROLE_NAMES[(opts.role as string) ?? "member"];
        if (role === undefined) throw new Error(`Unknown role '${String(opts.role)}'`);
        const { user, apiKey } = await createUser(db, realm.id, {
          email: need(opts, "email"),
          fullName: need(opts, "name"),
          role,
        });
        printCredentials(user.email, apiKey, site, opts);
        break;
      }
      case "create-bot": {
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
        await deps.bus.publish(created.notifications);
        printCredentials(created.bot.email, created.apiKey, site, opts);
        break;
      }
      case "create-channel": {
        const realm = await realmOf(db, opts);
        const emails = typeof opts.subscribe === "string" ? opts.subscribe.split(",").filter(Boolean) : [];
        const stream = await createChannelAsOperator(db, realm, {
          name: need(opts, "name"),
          description: (opts.description as string) ?? "",
          inviteOnly: Boolean(opts.private),
          subscriberEmails: emails,
        });
        process.stdout.write(`Created channel #${stream.name} (id ${stream.id}).\n`);
        break;
      }
      case "create-group": {
        const realm = await realmOf(db, opts);
        const emails = typeof opts.members === "string" ? opts.members.split(",").filter(Boolean) : [];
        const id = await createNamedGroup(db, realm, {
          name: need(opts, "name"),
          description: (opts.description as string) ?? "",
          memberEmails: emails,
        });
        process.stdout.write(`Created group '${String(opts.name)}' (id ${id}) with ${emails.length} member(s).\n`);
        break;
      }
      case "change-role": {
        const realm = await realmOf(db, opts);
        const user = await findUserInRealm(db, realm.id, need(opts, "email"));
        if (!user) throw new Error(`No user '${String(opts.email)}'`);
        const role = ROLE_NAMES[need(opts, "role")];
        if (role === undefined) throw new Error(`Unknown role '${String(opts.role)}'`);
        await changeRole(db, realm.id, user.id, role);
        process.stdout.write(`${user.email} is now ${String(opts.role)}.\n`);
        break;
      }
      case "regenerate-api-key": {
        const realm = await realmOf(db, opts);
        const user = await findUserInRealm(db, realm.id, need(opts, "email"));
        if (!user) throw new Error(`No user '${String(opts.email)}'`);
        printCredentials(user.email, await regenerateApiKey(db, user.id), site, opts);
        break;
      }
      case "set-password": {
        const realm = await realmOf(db, opts);
        const user = await findUserInRealm(db, realm.id, need(opts, "email"));
        if (!user) throw new Error(`No user '${String(opts.email)}'`);
        const password = await readPasswordFromStdin();
        // The operator replaces a password: every web session of the user ends (as on a change).
        await setPassword(db, user, password);
        await endUserSessions(db, user.id);
        process.stdout.write(`Password set for ${user.email}; their web sessions have ended.\n`);
        break;
      }
      case "set-webhook-secret": {
        const realm = await realmOf(db, opts);
        const secret = need(opts, "secret");
        await setWebhookSecretByEmail(db, realm.id, need(opts, "email"), secret);
        process.stdout.write(secret === "" ? "Webhook secret cleared.\n" : "Webhook secret set.\n");
        break;
      }
      case "delivery-to-fixture": {
        const id = Number(need(opts, "id"));
        if (!Number.isSafeInteger(id) || id <= 0) throw new Error("--id must be a delivery id (a positive integer)");
        // By default the case goes to the plugin's own fixtures folder (integrations/<name>/fixtures).
        const fixturesDir = typeof opts["fixtures-dir"] === "string" ? path.resolve(opts["fixtures-dir"]) : undefined;
        const variant = typeof opts.name === "string" ? opts.name : undefined;
        // The other commands start without the plugins; this one renders with them.
        const integrations = await loadIntegrationsForApp(config);
        const made = await deliveryToFixture(db, integrations, { id, variant, force: !!opts.force, fixturesDir });
        process.stdout.write(`Wrote ${path.relative(process.cwd(), made.payloadPath)}\n`);
        process.stdout.write(`Wrote ${path.relative(process.cwd(), made.expectedPath)} (review it)\n`);
        break;
      }
      case "deactivate-user":
      case "reactivate-user": {
        const realm = await realmOf(db, opts);
        const user = await findUserInRealm(db, realm.id, need(opts, "email"));
        if (!user) throw new Error(`No user '${String(opts.email)}'`);
        // Servers with Redis hear of it (and of the bots deactivated with the user) as events.
        await deps.bus.publish(await setUserActive(db, user.id, command === "reactivate-user"));
        process.stdout.write(`${command === "reactivate-user" ? "Reactivated" : "Deactivated"} ${user.email}.\n`);
        break;
      }
      case "deactivate-realm":
      case "reactivate-realm": {
        const realm = await setRealmDeactivated(db, (opts.realm as string) ?? "", command === "deactivate-realm");
        process.stdout.write(
          `${command === "deactivate-realm" ? "Deactivated" : "Reactivated"} organization '${realm.name}'.\n`,
        );
        break;
      }
      case "soft-deactivate-users": {
        const days = opts.days === undefined ? config.softDeactivation.inactiveDays : Number(opts.days);
        if (!Number.isInteger(days) || days < 1) throw new Error("--days must be a whole number of days, at least 1");
        const ids = await softDeactivateIdleUsers(db, { inactiveDays: days });
        process.stdout.write(`Soft-deactivated ${ids.length} user(s) inactive for ${days} days or more.\n`);
        break;
      }
      default:
        throw new Error(`Unknown command '${command}'\n\n${USAGE}`);
    }
  } finally {
    await deps.close();
  }
}

run(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
