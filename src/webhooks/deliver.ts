// Storing a pipeline's rendered messages: to the `stream` named in the URL (name, or ID when all
// digits), or — with no `stream` — as a direct message to the bot's owner (or to a human key's
// own user). All messages of one delivery are written in one transaction.
import type { Db, Queryable } from "../db/knex";
import type { RealmRow, StreamRow, UserRow } from "../db/rows";
import { findStreamById, findStreamByName } from "../db/streams";
import { withTransaction } from "../db/transaction";
import type { Notification } from "../events/bus";
import { sendMessageInTransaction, type Destination } from "../services/messages";
import type { RenderedMessage } from "./pipeline";

/** `stream` URL value → channel name or ID; undefined when absent or blank. */
export function parseStreamParam(raw: string | undefined): string | number | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  return /^\d+$/.test(value) ? Number(value) : value;
}

export async function findWebhookStream(q: Queryable, realmId: number, stream: string | number): Promise<StreamRow | undefined> {
  return typeof stream === "number" ? findStreamById(q, realmId, stream) : findStreamByName(q, realmId, stream);
}

export async function deliverWebhookMessages(
  db: Db,
  input: { realm: RealmRow; bot: UserRow; client: string; stream?: StreamRow; messages: RenderedMessage[] },
): Promise<{ ids: number[]; notifications: Notification[] }> {
  const { realm, bot, client, stream } = input;
  return withTransaction(db, async (trx) => {
    const ids: number[] = [];
    const notifications: Notification[] = [];
    for (const message of input.messages) {
      const destination: Destination = stream
        ? { type: "stream", stream: stream.id, topic: message.topic }
        : { type: "private", to: [bot.bot_owner_id ?? bot.id] };
      const result = await sendMessageInTransaction(trx, { realm, sender: bot, destination, content: message.content, client });
      ids.push(result.id);
      notifications.push(...result.notifications);
    }
    return { ids, notifications };
  });
}
