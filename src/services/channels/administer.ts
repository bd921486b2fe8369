// Changing and archiving a channel (PATCH / DELETE /streams/{stream_id}) and reading its members
// (GET /streams/{stream_id}/members), as the reference: organization administrators and the
// channel's administrators (can_administer_channel_group) may change it. Each change sends a
// `stream` `update` event to everyone who can see the channel and a Notification Bot notice in the
// channel's "channel events" topic; archiving sends `stream` `delete` (or, to clients with the
// `archived_channels` capability, an `is_archived` update).
import type { Db, Queryable } from "../../db/knex";
import { isUserInGroup } from "../../db/groups";
import { bool, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { findStreamById, findStreamByName, updateStream } from "../../db/streams";
import { activeSubscriberIds, subscriberIdsByStream } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import { findUserById, listRealmUsers } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { nameKey, normalizeName } from "../../names";
import { renderMarkdown } from "../../markdown/markdown";
import { sendMessageInTransaction } from "../messages/send";
import { isAdmin } from "../users/users";
import { canAccessChannel } from "./channels";
import { checkChannelDescription, checkChannelName } from "./creation";
import { formatStreams } from "./format";
import { channelObserverIds } from "./subscriptionAccess";

/** The topic of the Notification Bot's notices about a channel's changes (the reference's). */
export const CHANNEL_EVENTS_TOPIC = "channel events";

export interface ChannelChanges {
  newName?: string;
  description?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
}

async function administrableChannel(q: Queryable, realm: RealmRow, user: UserRow, id: number): Promise<StreamRow> {
  const stream = await findStreamById(q, realm.id, id);
  if (!stream || !(await canAccessChannel(q, user, stream))) throw Errors.badRequest("Invalid channel ID");
  if (isAdmin(user)) return stream;
  const groupId = (stream.can_administer_channel_group as number | null) ?? null;
  if (await isUserInGroup(q, user.id, groupId, user.role)) return stream;
  throw Errors.badRequest("You do not have permission to administer this channel.");
}

/** The reference's names of the access policies, for the notice. */
function policyName(s: { invite_only: boolean; is_web_public: boolean; history_public_to_subscribers: boolean }) {
  if (s.is_web_public) return "Web-public";
  if (!s.invite_only) return "Public";
  return s.history_public_to_subscribers ? "Private, shared history" : "Private, protected history";
}

async function observers(q: Queryable, realm: RealmRow, stream: StreamRow): Promise<number[]> {
  const users = (await listRealmUsers(q, realm.id)).filter((u) => bool(u.is_active));
  const subscribers = (await subscriberIdsByStream(q, [stream.id])).get(stream.id) ?? [];
  return channelObserverIds(users, stream, subscribers);
}

async function notice(q: Queryable, realm: RealmRow, stream: StreamRow, content: string): Promise<Notification[]> {
  if (realm.notification_bot_id === null) return [];
  const bot = await findUserById(q, realm.id, realm.notification_bot_id);
  if (!bot) return [];
  const sent = await sendMessageInTransaction(q, {
    realm,
    sender: bot,
    destination: { type: "stream", stream: stream.id, topic: CHANNEL_EVENTS_TOPIC },
    content,
    client: "Internal",
  });
  return sent.notifications;
}

export async function updateChannel(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  streamId: number,
  changes: ChannelChanges,
  options: { webPublicStreamsEnabled: boolean },
): Promise<Notification[]> {
  const newName = changes.newName === undefined ? undefined : normalizeName(changes.newName).trim();
  if (newName !== undefined) checkChannelName(newName);
  const description = changes.description
    ?.split("\n")
    .map((line) => line.trim())
    .join(" ")
    .trim();
  if (description !== undefined) checkChannelDescription(description);
  return withTransaction(db, async (trx) => {
    const stream = await administrableChannel(trx, realm, user, streamId);
    if (bool(stream.is_archived)) throw Errors.badRequest("Channel is archived.");
    const actor = `@_**${user.full_name}|${user.id}**`;
    const notifications: Notification[] = [];
    const update = async (property: string, value: unknown, extra: Record<string, unknown> = {}) => {
      const current = (await findStreamById(trx, realm.id, stream.id))!;
      notifications.push({
        realmId: realm.id,
        userIds: await observers(trx, realm, current),
        event: { type: "stream", op: "update", stream_id: stream.id, name: stream.name, property, value, ...extra },
      });
    };

    if (newName !== undefined && newName !== stream.name) {
      const clash = await findStreamByName(trx, realm.id, newName);
      if (clash && clash.id !== stream.id) throw Errors.badRequest(`Channel name '${newName}' is already taken.`);
      await updateStream(trx, stream.id, { name: newName, name_key: nameKey(newName) });
      await update("name", newName);
      notifications.push(
        ...(await notice(trx, realm, stream, `${actor} renamed channel **${stream.name}** to **${newName}**.`)),
      );
    }

    if (description !== undefined && description !== stream.description) {
      const rendered = description ? renderMarkdown(description) : "";
      await updateStream(trx, stream.id, { description, rendered_description: rendered });
      await update("description", description, { rendered_description: rendered });
      const quote = (text: string) => (text ? `\`\`\`\` quote\n${text}\n\`\`\`\`` : "*No description.*");
      notifications.push(
        ...(await notice(
          trx,
          realm,
          stream,
          `${actor} changed the description for this channel.\n\n` +
            `* **Old description:**\n${quote(stream.description)}\n* **New description:**\n${quote(description)}`,
        )),
      );
    }

    const before = {
      invite_only: bool(stream.invite_only),
      is_web_public: bool(stream.is_web_public),
      history_public_to_subscribers: bool(stream.history_public_to_subscribers),
    };
    const after = { ...before };
    if (changes.isPrivate !== undefined) after.invite_only = changes.isPrivate;
    if (changes.isWebPublic !== undefined) after.is_web_public = changes.isWebPublic;
    if (after.invite_only && changes.isWebPublic === undefined) after.is_web_public = false;
    if (changes.historyPublicToSubscribers !== undefined)
      after.history_public_to_subscribers = changes.historyPublicToSubscribers;
    else if (changes.isPrivate === false) after.history_public_to_subscribers = true;
    if (after.is_web_public && after.invite_only) throw Errors.badRequest("A web-public channel cannot be private.");
    // Public channels always share their history, as the reference requires.
    if (!after.invite_only && !after.history_public_to_subscribers)
      throw Errors.badRequest("Invalid parameters: public channels must share their history with subscribers.");
    if (after.is_web_public && !before.is_web_public) {
      const webPublicGroup = (realm.can_create_web_public_channel_group as number | null) ?? null;
      if (!options.webPublicStreamsEnabled || !(await isUserInGroup(trx, user.id, webPublicGroup, user.role)))
        throw Errors.badRequest("Insufficient permission");
    }
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      await updateStream(trx, stream.id, after);
      const changedAccess = {
        history_public_to_subscribers: after.history_public_to_subscribers,
        is_web_public: after.is_web_public,
      };
      if (after.invite_only !== before.invite_only) await update("invite_only", after.invite_only, changedAccess);
      if (after.history_public_to_subscribers !== before.history_public_to_subscribers)
        await update("history_public_to_subscribers", after.history_public_to_subscribers);
      if (after.is_web_public !== before.is_web_public) await update("is_web_public", after.is_web_public);
      notifications.push(
        ...(await notice(
          trx,
          realm,
          stream,
          `${actor} changed the [access permissions](/help/channel-permissions) for this channel from ` +
            `**${policyName(before)}** to **${policyName(after)}**.`,
        )),
      );
    }
    return notifications;
  });
}

/** Archives the channel: it keeps its messages and subscribers, and nobody can post to it. */
export async function archiveChannel(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  streamId: number,
): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const stream = await administrableChannel(trx, realm, user, streamId);
    if (bool(stream.is_archived)) throw Errors.badRequest("Channel is already deactivated");
    const audience = await observers(trx, realm, stream);
    const [formatted] = await formatStreams(trx, realm, [stream]);
    // The notice goes first: an archived channel takes no messages.
    const notices = await notice(trx, realm, stream, `Channel #**${stream.name}** has been archived.`);
    await updateStream(trx, stream.id, { is_archived: true });
    return [
      ...notices,
      {
        realmId: realm.id,
        userIds: audience,
        withoutCapability: "archived_channels",
        event: {
          type: "stream",
          op: "delete",
          streams: [{ ...formatted, is_archived: true }],
          stream_ids: [stream.id],
        },
      },
      {
        realmId: realm.id,
        userIds: audience,
        capability: "archived_channels",
        event: {
          type: "stream",
          op: "update",
          stream_id: stream.id,
          name: stream.name,
          property: "is_archived",
          value: true,
        },
      },
    ];
  });
}

/** GET /streams/{stream_id}/members: the subscribers' ids, for whoever may see the channel. */
export async function channelMembers(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  streamId: number,
): Promise<number[]> {
  const stream = await findStreamById(q, realm.id, streamId);
  if (!stream || !(await canAccessChannel(q, user, stream))) throw Errors.badRequest("Invalid channel ID");
  return [...(await activeSubscriberIds(q, stream.id))].sort((a, b) => a - b);
}
