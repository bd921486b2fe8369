// Direct messages from the realm's Notification Bot to a webhook bot's owner about a
// misconfigured webhook (wrong URL, non-JSON body, missing channel). Rate-limited in memory so a
// sender retrying every second does not flood the owner; a failure here never fails the request.
import type { Logger } from "pino";
import type { Db } from "../../db/knex";
import { findUserById } from "../../db/users";
import type { RealmRow, UserRow } from "../../db/rows";
import { escapeMarkdown } from "../../webhooks/safeMarkdown";
import type { MessageSender } from "../messages/groupCommit";

export const NOTICE_INTERVAL_MS = 10 * 60 * 1000;

/** What the notices are sent with (AppDeps has all of it). */
export interface OwnerNoticeDeps {
  db: Db;
  messageSender: MessageSender;
  logger: Logger;
}

export class OwnerNotices {
  private readonly lastSent = new Map<string, number>();

  constructor(private readonly deps: OwnerNoticeDeps) {}

  /** Sends `text` unless the same `key` was sent within the interval. */
  async send(realm: RealmRow, bot: UserRow, key: string, text: string): Promise<void> {
    const fullKey = `${bot.id}:${key}`;
    const now = Date.now();
    if (now - (this.lastSent.get(fullKey) ?? -Infinity) < NOTICE_INTERVAL_MS) return;
    if (this.lastSent.size > 10_000) {
      for (const [k, t] of this.lastSent) if (now - t >= NOTICE_INTERVAL_MS) this.lastSent.delete(k);
    }
    this.lastSent.set(fullKey, now);
    try {
      const sender = realm.notification_bot_id
        ? await findUserById(this.deps.db, realm.id, realm.notification_bot_id)
        : undefined;
      if (!sender) return;
      const recipient = bot.bot_owner_id ?? bot.id;
      await this.deps.messageSender.send({
        realm,
        sender,
        destination: { type: "private", to: [recipient] },
        content: text,
        client: "Internal",
      });
    } catch (err) {
      this.deps.logger.warn({ err, botId: bot.id, notice: key }, "could not send a webhook notice to the bot owner");
    }
  }
}

const who = (bot: UserRow) => `Your bot **${escapeMarkdown(bot.full_name)}** (\`${bot.email}\`)`;

export const noticeText = {
  missingHeader: (bot: UserRow, displayName: string, path: string, header: string) =>
    `${who(bot)} received a request at \`${path}\` without the \`${header}\` HTTP header. ` +
    `The ${displayName} integration learns the event type from that header, so this usually means the webhook URL ` +
    `was entered in a different service, or the sending service is too old to send the header. ` +
    `Please check the webhook settings on the ${displayName} side.`,
  invalidJson: (bot: UserRow, displayName: string) =>
    `${who(bot)} received a request for the ${displayName} integration whose body is not valid JSON, so nothing was posted. ` +
    `This integration only understands JSON: please make sure the webhook in ${displayName} is set to send JSON ` +
    `(content type \`application/json\`).`,
  missingChannel: (bot: UserRow, stream: string | number) =>
    `${who(bot)} tried to post to ${typeof stream === "number" ? `the channel with ID ${stream}` : `channel #**${stream}**`}, ` +
    `but that channel does not exist. Create the channel, or fix the \`stream\` parameter in the webhook URL.`,
  /** The channel named by the delivery itself (manifest `channel`): payload text, escaped and cut. */
  missingNamedChannel: (bot: UserRow, displayName: string, name: string) => {
    const cut = [...name].length > 60 ? `${[...name].slice(0, 60).join("")}…` : name;
    const shown = cut.replace(/\p{Cc}/gu, " ");
    return (
      `${who(bot)} received a ${displayName} delivery for the channel **${escapeMarkdown(shown)}**, ` +
      `but that channel does not exist, so nothing was posted there. Create the channel, or change where ` +
      `${displayName} sends its messages.`
    );
  },
};
