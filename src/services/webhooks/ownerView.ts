// What the bot owner's pages show from a web session: the bots and channels the URL builder offers,
// and, for each logged delivery, the messages it posted as a chat client shows them (where they
// went, the stored rendered HTML). A message is shown only to someone who may read it
// (services/messages/access.ts); otherwise the page says that it exists, nothing more.
import type { Db } from "../../db/knex";
import { listRealmBots } from "../../db/bots";
import { findUserById } from "../../db/users";
import { bool, BOT_TYPE, type RealmRow, type UserRow } from "../../db/rows";
import { findStreamById } from "../../db/streams";
import { listUserSubscriptions } from "../../db/subscriptions";
import { ApiError, Errors } from "../../errors";
import { accessMessage } from "../messages/access";
import { realmUrl } from "../realms/realms";
import { hashApiKey } from "../users/apiKeys";
import { assertMemberOrAdmin, type BotActor } from "../users/bots";
import { isAdmin } from "../users/users";
import { zuliprcText } from "../users/zuliprc";
import type { DeliverySummary } from "./deliveries";

/** The bot kinds (the reference's `bot_type` values), for the pages. */
export { BOT_TYPE };

export interface OwnedBot {
  id: number;
  fullName: string;
  email: string;
  botType: number;
}

/** The caller's own active bots, incoming-webhook bots first (they are what a webhook URL wants). */
export async function ownedBots(db: Db, realm: RealmRow, user: UserRow): Promise<OwnedBot[]> {
  const bots = (await listRealmBots(db, realm.id, user.id)).filter((b) => bool(b.is_active));
  const rank = (b: UserRow) => (b.bot_type === BOT_TYPE.incomingWebhook ? 0 : 1);
  return [...bots]
    .sort((a, b) => rank(a) - rank(b))
    .map((b) => ({ id: b.id, fullName: b.full_name, email: b.email, botType: Number(b.bot_type) }));
}

/** The bots whose deliveries `user` may read: every bot for administrators, their own otherwise. */
export async function deliveryBots(db: Db, realm: RealmRow, user: UserRow): Promise<OwnedBot[]> {
  if (!isAdmin(user)) return ownedBots(db, realm, user);
  return (await listRealmBots(db, realm.id)).map((b) => ({
    id: b.id,
    fullName: b.full_name,
    email: b.email,
    botType: Number(b.bot_type),
  }));
}

/** The names of the channels the user is subscribed to (not archived), sorted. */
export async function subscribedChannelNames(db: Db, realm: RealmRow, user: UserRow): Promise<string[]> {
  const names: string[] = [];
  for (const sub of await listUserSubscriptions(db, user.id)) {
    const stream = await findStreamById(db, realm.id, sub.stream_id);
    if (stream && !bool(stream.is_archived)) names.push(stream.name);
  }
  return names.sort((a, b) => a.localeCompare(b));
}

export type PostedMessage =
  | { id: number; readable: true; channel: string | null; topic: string; renderedHtml: string; sentAt: number }
  | { id: number; readable: false };

export interface DeliveryView extends DeliverySummary {
  botName: string;
  messages: PostedMessage[];
}

/** At most this many of a delivery's messages are shown on the page (a delivery may post several). */
export const MAX_SHOWN_MESSAGES_PER_DELIVERY = 5;

/** The deliveries with their bot's name and the messages they posted, as `user` may see them. */
export async function withPostedMessages(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  deliveries: DeliverySummary[],
): Promise<DeliveryView[]> {
  const botNames = new Map<number, string>();
  const out: DeliveryView[] = [];
  for (const d of deliveries) {
    if (!botNames.has(d.bot_id)) botNames.set(d.bot_id, (await findUserById(db, realm.id, d.bot_id))?.full_name ?? "");
    const messages: PostedMessage[] = [];
    for (const id of d.message_ids.slice(0, MAX_SHOWN_MESSAGES_PER_DELIVERY)) {
      try {
        const { message, stream } = await accessMessage(db, realm, user, id);
        messages.push({
          id,
          readable: true,
          channel: stream?.name ?? null,
          topic: message.topic,
          // Stored output of the Markdown renderer, which escapes raw HTML (src/markdown/markdown.ts).
          renderedHtml: message.rendered_content,
          sentAt: Number(message.date_sent),
        });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        messages.push({ id, readable: false });
      }
    }
    out.push({ ...d, botName: botNames.get(d.bot_id)!, messages });
  }
  return out;
}

/**
 * A bot's zuliprc, for the page that has just shown its key (keys are stored hashed, so the page
 * posts the key back). Only for a bot the caller manages, and only with the bot's current key.
 */
export async function botZuliprc(
  db: Db,
  actor: BotActor,
  botId: number,
  apiKey: string,
  externalUrl: string,
): Promise<{ filename: string; text: string }> {
  assertMemberOrAdmin(actor.user);
  // The same rule and answers as the REST API's bot endpoints (services/users/bots.ts, accessBot).
  const bot = await findUserById(db, actor.realm.id, botId);
  if (!bot || !bool(bot.is_bot) || bool(bot.is_system_bot)) throw Errors.badRequest("No such bot");
  if (bot.bot_owner_id !== actor.user.id && !isAdmin(actor.user)) throw Errors.badRequest("Insufficient permission");
  if (!bool(bot.is_active)) throw Errors.badRequest("The bot is deactivated");
  if (!apiKey || hashApiKey(apiKey) !== bot.api_key_hash)
    throw Errors.badRequest("That is not the bot's current API key: regenerate the key to download a new zuliprc");
  const short = bot.email.split("@")[0].replace(/[^A-Za-z0-9._+-]/g, "");
  return { filename: `zuliprc-${short}`, text: zuliprcText(bot.email, apiKey, realmUrl(actor.realm, externalUrl)) };
}
