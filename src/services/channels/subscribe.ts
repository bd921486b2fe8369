// POST /users/me/subscriptions: subscribe users to channels, creating the missing ones — one
// transaction for rows, bot messages and events (published by the caller after commit).
import type { Db, Queryable } from "../../db/knex";
import { bool, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { findStreamByName } from "../../db/streams";
import { listUserSubscriptions, upsertSubscriptions } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import { reactivateIdleUsers } from "../users/softDeactivation";
import { findUserByEmail, findUsersByIds } from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import {
  assertCanCreate,
  checkChannelDescription,
  checkChannelName,
  createChannel,
  prepareCreation,
  type CreationOptions,
} from "./creation";
import { SERVER_CONSTANTS } from "../realms/serverInfo";
import { canAddSubscribers } from "./subscriptionAccess";
import { streamCreateEvents, subscriptionAddEvents } from "./subscriptionEvents";
import { announceNewChannels, sendSubscribedYouMessages } from "./subscriptionNotices";
import { nameKey, normalizeName } from "../../names";

export interface SubscribeInput {
  realm: RealmRow;
  user: UserRow;
  channels: { name: string; description?: string; color?: string }[];
  principals?: (number | string)[];
  authorizationErrorsFatal: boolean;
  announce: boolean;
  sendNewSubscriptionMessages: boolean;
  creation: CreationOptions;
  webPublicEnabled: boolean;
}

export interface SubscribeResult {
  body: Record<string, unknown>;
  notifications: Notification[];
}

const HEX_COLOR = /^#[0-9a-fA-F]{3,6}$/;
const PALETTE = [
  "#76ce90",
  "#fae589",
  "#a6c7e5",
  "#e79ab5",
  "#bfd56f",
  "#f4ae55",
  "#b0a5fd",
  "#addfe5",
  "#f5ce6e",
  "#c2726a",
];

/** Principals as user rows; unknown or deactivated users are a 400 naming none of the others. */
export async function resolvePrincipals(
  q: Queryable,
  realm: RealmRow,
  principals: (number | string)[],
): Promise<UserRow[]> {
  const ids = principals.filter((p): p is number => typeof p === "number");
  const users = await findUsersByIds(q, realm.id, ids);
  if (users.length !== new Set(ids).size) throw Errors.badRequest("No such user");
  for (const email of principals.filter((p): p is string => typeof p === "string")) {
    const user = await findUserByEmail(q, realm.id, email);
    if (!user) throw Errors.badRequest("No such user");
    users.push(user);
  }
  if (users.some((u) => !bool(u.is_active))) throw Errors.badRequest("User is deactivated");
  return [...new Map(users.map((u) => [u.id, u])).values()];
}

/**
 * Soft-deactivated principals are brought back first: the rows they missed are written from their
 * subscriptions as they stand, so those must not change before.
 */
export async function returnBeforeSubscriptionsChange(
  db: Db,
  realm: RealmRow,
  principals: (number | string)[] | undefined,
): Promise<void> {
  if (principals && principals.length > 0)
    await reactivateIdleUsers(db, await resolvePrincipals(db, realm, principals));
}

export async function subscribe(db: Db, input: SubscribeInput): Promise<SubscribeResult> {
  const { realm, user } = input;
  // Names are trimmed and descriptions kept to one line, as the reference does.
  const entries = new Map<string, { name: string; description: string; color?: string }>();
  for (const [index, raw] of input.channels.entries()) {
    const name = normalizeName(raw.name).trim();
    checkChannelName(name);
    const description = (raw.description ?? "").replace(/\r?\n/g, " ");
    checkChannelDescription(description);
    // Checked as the reference does; anything longer would not fit the column (a 500 on MySQL).
    if (raw.color !== undefined && !HEX_COLOR.test(raw.color))
      throw Errors.badRequest(`subscriptions[${index}]["color"] is not a valid hex color code`);
    if (!entries.has(nameKey(name))) entries.set(nameKey(name), { name, description, color: raw.color });
  }
  await returnBeforeSubscriptionsChange(db, realm, input.principals);
  return withTransaction(db, async (trx) => {
    const subscribers =
      input.principals && input.principals.length > 0 ? await resolvePrincipals(trx, realm, input.principals) : [user];
    const subscribingOthers = subscribers.some((u) => u.id !== user.id);
    const prepared = await prepareCreation(trx, realm, input.creation);

    const existing: StreamRow[] = [];
    const missing: { name: string; description: string }[] = [];
    for (const entry of entries.values()) {
      const stream = await findStreamByName(trx, realm.id, entry.name);
      if (stream) existing.push(stream);
      else missing.push(entry);
    }
    if (missing.length > 0) await assertCanCreate(trx, realm, user, input.creation, input.webPublicEnabled);

    const authorized: StreamRow[] = [];
    const unauthorized: StreamRow[] = [];
    const actorSubscribed = new Set((await listUserSubscriptions(trx, user.id)).map((s) => s.stream_id));
    for (const stream of existing) {
      const ok = await canAddSubscribers(trx, realm, user, stream, actorSubscribed.has(stream.id), subscribingOthers);
      (ok ? authorized : unauthorized).push(stream);
    }
    if (input.authorizationErrorsFatal && unauthorized.length > 0) {
      throw Errors.badRequest(`Unable to access channel (${unauthorized[0].name}).`);
    }

    const created: StreamRow[] = [];
    for (const entry of missing) created.push(await createChannel(trx, realm, user, prepared, entry));
    const createdIds = new Set(created.map((s) => s.id));
    const targets = [...authorized, ...created];

    const subscribed: Record<string, string[]> = {};
    const alreadySubscribed: Record<string, string[]> = {};
    const added = new Map<number, StreamRow[]>();
    for (const subscriber of subscribers) {
      const current = await listUserSubscriptions(trx, subscriber.id);
      const active = new Set(current.map((s) => s.stream_id));
      const usedColors = new Set(current.map((s) => s.color));
      for (const stream of targets) {
        const key = String(subscriber.id);
        if (active.has(stream.id)) {
          (alreadySubscribed[key] ??= []).push(stream.name);
          continue;
        }
        const requested = entries.get(nameKey(stream.name))?.color;
        const color = requested ?? PALETTE.find((c) => !usedColors.has(c)) ?? PALETTE[stream.id % PALETTE.length];
        usedColors.add(color);
        await upsertSubscriptions(trx, [{ user_id: subscriber.id, stream_id: stream.id, color }]);
        (subscribed[key] ??= []).push(stream.name);
        added.set(subscriber.id, [...(added.get(subscriber.id) ?? []), stream]);
      }
    }

    const notifications: Notification[] = [];
    notifications.push(...(await streamCreateEvents(trx, realm, created)));
    notifications.push(...(await subscriptionAddEvents(trx, realm, added)));
    const body: Record<string, unknown> = { subscribed, already_subscribed: alreadySubscribed };
    if (input.sendNewSubscriptionMessages) {
      const withinLimit = added.size <= SERVER_CONSTANTS.max_bulk_new_subscription_messages;
      if (withinLimit) {
        const addedUsers = new Map(subscribers.filter((u) => added.has(u.id)).map((u) => [u, added.get(u.id)!]));
        notifications.push(...(await sendSubscribedYouMessages(trx, realm, user, addedUsers, createdIds)));
      }
      body.new_subscription_messages_sent = withinLimit;
    }
    if (input.announce) notifications.push(...(await announceNewChannels(trx, realm, user, created)));
    if (!input.authorizationErrorsFatal) body.unauthorized = unauthorized.map((s) => s.name);
    return { body, notifications };
  });
}
