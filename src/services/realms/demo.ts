// First run: an empty database gets a demo organization so `npm start` is immediately usable.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "../../db/knex";
import { countRealms } from "../../db/realms";
import { BOT_TYPE, ROLE } from "../../db/rows";
import { upsertSubscriptions } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import { insertChannel } from "../channels/channels";
import { createRealm } from "./realms";
import { createBot, createUser } from "../users/users";
import { writeZuliprc } from "../users/zuliprc";
import { setPassword } from "../users/credentials";
import { findUserById } from "../../db/users";
import { sendMessageInTransaction } from "../messages/send";

export const WELCOME_TOPIC = "welcome";

function welcomeText(site: string): string {
  return (
    "Welcome to the **Switchboard Demo** organization! :wave:\n\n" +
    `This is the #**general** channel. Post here from any Zulip client (${site}), ` +
    "or send a webhook to the **Webhook Bot** and watch its message arrive."
  );
}

/** 4 groups of 5 letters and digits (about 119 bits), easy to type from a terminal. */
function generatePassword(): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"; // 32 symbols: no bias, no 0/o or 1/l
  const bytes = crypto.randomBytes(20);
  const chars = [...bytes].map((b) => alphabet[b % 32]).join("");
  return chars.match(/.{5}/g)!.join("-");
}

/** `sign-in.txt` beside the zuliprc files, readable by the operator only. */
function writeSignInFile(dataDir: string, site: string, email: string, password: string): string {
  const file = path.join(dataDir, "sign-in.txt");
  fs.writeFileSync(file, `Sign in at ${site}/login/\nemail:    ${email}\npassword: ${password}\n`, { mode: 0o600 });
  return file;
}

export interface DemoCredentials {
  owner: { email: string; apiKey: string; zuliprc: string; password: string };
  /** Where to sign in, and the file (next to the zuliprc files) that repeats it with the password. */
  signIn: { url: string; file: string };
  member: { email: string; apiKey: string };
  bot: { email: string; apiKey: string; zuliprc: string };
  channel: string;
  webhookCurl: string;
}

/** Seeds in one transaction, so a replica that loses a start-up race leaves nothing half-made. */
export async function seedDemoIfEmpty(
  db: Db,
  options: { dataDir: string; externalUrl: string },
): Promise<DemoCredentials | undefined> {
  return withTransaction(db, (trx) => seedDemo(trx, options));
}

async function seedDemo(
  db: Db,
  options: { dataDir: string; externalUrl: string },
): Promise<DemoCredentials | undefined> {
  if ((await countRealms(db)) > 0) return undefined;
  const { realm, owner, ownerApiKey } = await createRealm(db, {
    subdomain: "",
    name: "Switchboard Demo",
    owner: { email: "owner@example.com", fullName: "Demo Owner" },
  });
  const member = await createUser(db, realm.id, {
    email: "member@example.com",
    fullName: "Demo Member",
    role: ROLE.member,
  });
  const bot = await createBot(db, realm.id, {
    email: "webhook-bot@example.com",
    fullName: "Webhook Bot",
    ownerId: owner.id,
    botType: BOT_TYPE.incomingWebhook,
  });
  const channel = "general";
  await withTransaction(db, async (trx) => {
    const stream = await insertChannel(trx, realm, owner, { name: channel, description: "Everyone's channel" });
    await upsertSubscriptions(
      trx,
      [owner.id, member.user.id].map((user_id) => ({ user_id, stream_id: stream.id })),
    );
    // A first message: clients such as zulip-terminal cannot start on an empty message list.
    const bot = await findUserById(trx, realm.id, realm.notification_bot_id!);
    if (bot)
      await sendMessageInTransaction(trx, {
        realm,
        sender: bot,
        destination: { type: "stream", stream: stream.id, topic: WELCOME_TOPIC },
        content: welcomeText(options.externalUrl),
        client: "Internal",
      });
  });
  const site = options.externalUrl;
  // The owner signs in on the web with a generated password; their API key is sealed under it, so
  // fetch_api_key answers with the key in zuliprc-owner.
  const password = generatePassword();
  await setPassword(db, owner, password, { apiKey: ownerApiKey });
  const signIn = { url: `${site}/login/`, file: writeSignInFile(options.dataDir, site, owner.email, password) };
  const ownerRc = writeZuliprc(path.join(options.dataDir, "zuliprc-owner"), owner.email, ownerApiKey, site);
  const botRc = writeZuliprc(path.join(options.dataDir, "zuliprc-webhook-bot"), bot.user.email, bot.apiKey, site);
  const webhookCurl =
    `curl -X POST '${site}/api/v1/external/helloworld?api_key=${bot.apiKey}&stream=${channel}' ` +
    `-H 'Content-Type: application/json' -d '{"featured_title":"Webhooks","featured_url":"https://en.wikipedia.org/wiki/Webhook"}'`;
  return {
    owner: { email: owner.email, apiKey: ownerApiKey, zuliprc: ownerRc, password },
    signIn,
    member: { email: member.user.email, apiKey: member.apiKey },
    bot: { email: bot.user.email, apiKey: bot.apiKey, zuliprc: botRc },
    channel,
    webhookCurl,
  };
}
