// First run: an empty database gets a demo organization so `npm start` is immediately usable.
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

export interface DemoCredentials {
  owner: { email: string; apiKey: string; zuliprc: string };
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
  });
  const site = options.externalUrl;
  const ownerRc = writeZuliprc(path.join(options.dataDir, "zuliprc-owner"), owner.email, ownerApiKey, site);
  const botRc = writeZuliprc(path.join(options.dataDir, "zuliprc-webhook-bot"), bot.user.email, bot.apiKey, site);
  const webhookCurl =
    `curl -X POST '${site}/api/v1/external/helloworld?api_key=${bot.apiKey}&stream=${channel}' ` +
    `-H 'Content-Type: application/json' -d '{"featured_title":"Webhooks","featured_url":"https://en.wikipedia.org/wiki/Webhook"}'`;
  return {
    owner: { email: owner.email, apiKey: ownerApiKey, zuliprc: ownerRc },
    member: { email: member.user.email, apiKey: member.apiKey },
    bot: { email: bot.user.email, apiKey: bot.apiKey, zuliprc: botRc },
    channel,
    webhookCurl,
  };
}
