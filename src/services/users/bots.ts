// Self-serve bots, the reference's way: POST/GET /bots, PATCH/DELETE /bots/{id}, key regeneration,
// reactivation. Who may create which kind follows the realm's can_create_bots_group (every kind)
// and can_create_write_only_bots_group (incoming webhooks only); a bot is managed by its owner and
// the organization's administrators, nobody else. Every write returns the events it causes.
import type { Db, Queryable } from "../../db/knex";
import { activeAdminIds, listRealmBots } from "../../db/bots";
import { botServicesOf, insertBotService, updateBotServices } from "../../db/botServices";
import { addGroupMembers, isUserInGroup, removeUserFromGroups, systemGroupIds } from "../../db/groups";
import { bool, BOT_TYPE, ROLE, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { findStreamById, findStreamByName } from "../../db/streams";
import { isSubscribed } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import {
  activeRealmUserIds,
  findActiveUsersByFullNames,
  findUserByEmail,
  findUserById,
  updateUser,
} from "../../db/users";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import {
  MAX_BOT_SHORT_NAME_LENGTH,
  MAX_FULL_NAME_LENGTH,
  MAX_PAYLOAD_URL_LENGTH,
  MIN_BOT_FULL_NAME_LENGTH,
} from "../../limits";
import { normalizeName, sameName } from "../../names";
import { realmUrl } from "../realms/realms";
import { generateApiKey, hashApiKey } from "./apiKeys";
import { formatUser } from "./format";
import { createUserInTransaction, isAdmin, isGuest, systemGroupForRole } from "./users";

export interface BotActor {
  user: UserRow;
  realm: RealmRow;
}

/**
 * The kinds this server creates. Embedded bots (4) need a bot runtime: added here when it exists.
 * Outgoing-webhook bots (3) have a service row; services/webhooks/outgoing.ts delivers to them.
 */
const CREATABLE_BOT_TYPES: ReadonlySet<number> = new Set([
  BOT_TYPE.generic,
  BOT_TYPE.incomingWebhook,
  BOT_TYPE.outgoingWebhook,
]);
/** The reference's Service.ALLOWED_INTERFACE_TYPES: 1 generic (Zulip's format), 2 Slack-compatible. */
export const SERVICE_INTERFACE = { generic: 1, slack: 2 } as const;
const INTERFACE_TYPES: ReadonlySet<number> = new Set(Object.values(SERVICE_INTERFACE));
const KNOWN_BOT_TYPES: ReadonlySet<number> = new Set(Object.values(BOT_TYPE));

/** The reference's require_member_or_admin, in front of the bot endpoints. */
export function assertMemberOrAdmin(user: UserRow): void {
  if (bool(user.is_bot)) throw Errors.badRequest("This endpoint does not accept bot requests.");
  if (isGuest(user)) throw Errors.badRequest("Not allowed for guest users");
}

/** The bot types `user` may create: every kind, incoming webhooks only, or none. */
export async function creatableBotTypes(q: Queryable, realm: RealmRow, user: UserRow): Promise<number[]> {
  if (isGuest(user) || bool(user.is_bot)) return [];
  const anyKind = realm.can_create_bots_group as number | null;
  if (await isUserInGroup(q, user.id, anyKind, user.role)) return [...CREATABLE_BOT_TYPES];
  const writeOnly = realm.can_create_write_only_bots_group as number | null;
  if (await isUserInGroup(q, user.id, writeOnly, user.role)) return [BOT_TYPE.incomingWebhook];
  return [];
}

function checkBotType(botType: number, allowed: number[]): void {
  if (!KNOWN_BOT_TYPES.has(botType)) throw Errors.badRequest("Invalid bot type");
  if (botType === BOT_TYPE.embedded) throw Errors.badRequest("Embedded bots are not enabled.");
  if (!allowed.includes(botType)) throw Errors.badRequest("Invalid bot type");
}

// eslint-disable-next-line no-control-regex -- control characters are what a name may not contain
const NAME_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\ufeff]/;
const MENTION_SUFFIX = /\|\d+$/;
const SHORT_NAME = /^[a-zA-Z0-9_+-][a-zA-Z0-9._+-]*$/;

/** The reference's full-name rules for bots; returns the stripped name. */
export function checkBotFullName(raw: string): string {
  const name = normalizeName(raw).trim();
  if ([...name].length > MAX_FULL_NAME_LENGTH)
    throw Errors.badRequest(`Name too long! The limit is ${MAX_FULL_NAME_LENGTH} characters.`);
  if ([...name].length < MIN_BOT_FULL_NAME_LENGTH)
    throw Errors.badRequest(`Name too short! It needs at least ${MIN_BOT_FULL_NAME_LENGTH} characters.`);
  if (NAME_CONTROL_CHARACTERS.test(name)) throw Errors.badRequest("Invalid characters in name!");
  if (MENTION_SUFFIX.test(name)) throw Errors.badRequest("Invalid format!");
  return name;
}

function checkInterfaceType(interfaceType: number): void {
  if (!INTERFACE_TYPES.has(interfaceType)) throw Errors.badRequest("Invalid interface type");
}

/**
 * An outgoing-webhook bot's payload URL: absolute http(s), no credentials in it (the URL is shown
 * in realm_bots), within MAX_PAYLOAD_URL_LENGTH. Deliveries go to exactly this URL (no redirects).
 */
export function checkPayloadUrl(raw: string): string {
  const text = raw.trim();
  if (text === "") throw Errors.badRequest("payload_url is required for outgoing webhook bots");
  if (text.length > MAX_PAYLOAD_URL_LENGTH)
    throw Errors.badRequest(`payload_url is too long (limit: ${MAX_PAYLOAD_URL_LENGTH} characters)`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw Errors.badRequest("payload_url is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw Errors.badRequest("payload_url must be an http:// or https:// URL");
  if (url.username !== "" || url.password !== "")
    throw Errors.badRequest("payload_url must not contain a user name or password");
  return url.toString();
}

async function checkNameAvailable(q: Queryable, realmId: number, name: string, exceptId?: number): Promise<void> {
  const same = await findActiveUsersByFullNames(q, realmId, [name]);
  if (same.some((u) => u.id !== exceptId && sameName(u.full_name, name)))
    throw Errors.badRequest("Name is already in use!");
}

/** `<short_name>-bot@<the organization's host>`, as the reference builds a bot's email. */
function botEmail(realm: RealmRow, externalUrl: string, rawShortName: string): string {
  const short = rawShortName.trim();
  if (short === "" || !SHORT_NAME.test(short)) throw Errors.badRequest("Bad name or username");
  if (short.length > MAX_BOT_SHORT_NAME_LENGTH)
    throw Errors.badRequest(`Bad name or username: the limit is ${MAX_BOT_SHORT_NAME_LENGTH} characters.`);
  return `${short}-bot@${new URL(realmUrl(realm, externalUrl)).hostname}`;
}

/** A default channel given by name: one the caller can post to and read (the reference's access rules). */
async function channelByName(q: Queryable, realm: RealmRow, user: UserRow, name: string): Promise<StreamRow> {
  const stream = await findStreamByName(q, realm.id, name);
  const readable =
    stream !== undefined &&
    !bool(stream.is_archived) &&
    ((!bool(stream.invite_only) && !isGuest(user)) || (await isSubscribed(q, user.id, stream.id)));
  if (!readable) throw Errors.badRequest(`Invalid channel name '${name}'`);
  return stream;
}

async function channelName(q: Queryable, realmId: number, id: number | null | undefined): Promise<string | null> {
  if (id === null || id === undefined) return null;
  return (await findStreamById(q, realmId, id))?.name ?? null;
}

/** The `services` of a bot object: an outgoing-webhook bot's URL, interface and token. */
async function botServices(q: Queryable, bot: UserRow): Promise<Record<string, unknown>[]> {
  if (bot.bot_type !== BOT_TYPE.outgoingWebhook) return [];
  const rows = await botServicesOf(q, [bot.id]);
  return rows.map((s) => ({ base_url: s.base_url, interface: s.interface, token: s.token }));
}

/** A bot as `realm_bots` and `realm_bot` events show it (feature level 474's shape). */
export async function botObject(q: Queryable, bot: UserRow): Promise<Record<string, unknown>> {
  return {
    user_id: bot.id,
    default_sending_stream: await channelName(q, bot.realm_id, bot.default_sending_stream_id),
    default_events_register_stream: await channelName(q, bot.realm_id, bot.default_events_register_stream_id),
    default_all_public_streams: bool(bot.default_all_public_streams),
    // Only outgoing-webhook and embedded bots have services; this server creates no embedded bots.
    services: await botServices(q, bot),
  };
}

/** Who administers a bot: its (active) owner and the organization's administrators. */
async function botManagerIds(q: Queryable, bot: UserRow): Promise<number[]> {
  const ids = await activeAdminIds(q, bot.realm_id);
  if (bot.bot_owner_id !== null) {
    const owner = await findUserById(q, bot.realm_id, bot.bot_owner_id);
    if (owner && bool(owner.is_active)) ids.push(owner.id);
  }
  return [...new Set(ids)];
}

/** A realm_user event for everyone; admins see the delivery email, others do not. */
async function realmUserEvents(q: Queryable, realmId: number, op: string, bot: UserRow): Promise<Notification[]> {
  const everyone = await activeRealmUserIds(q, realmId);
  const admins = new Set(await activeAdminIds(q, realmId));
  const event = (viewerIsAdmin: boolean) => ({ type: "realm_user", op, person: formatUser(bot, { viewerIsAdmin }) });
  return [
    { realmId, userIds: everyone.filter((id) => admins.has(id)), event: event(true) },
    { realmId, userIds: everyone.filter((id) => !admins.has(id)), event: event(false) },
  ].filter((n) => n.userIds.length > 0);
}

async function personUpdate(q: Queryable, bot: UserRow, person: Record<string, unknown>): Promise<Notification> {
  const userIds = await activeRealmUserIds(q, bot.realm_id);
  return {
    realmId: bot.realm_id,
    userIds,
    event: { type: "realm_user", op: "update", person: { user_id: bot.id, ...person } },
  };
}

export interface NewBotInput {
  fullName: string;
  shortName: string;
  botType: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  /** Outgoing-webhook bots: where their deliveries go, in which format, and the service's name. */
  payloadUrl?: string;
  interfaceType?: number;
  serviceName?: string;
}

export interface CreatedBot {
  bot: UserRow;
  apiKey: string;
  /** The POST /bots answer. */
  response: Record<string, unknown>;
  notifications: Notification[];
}

/** Inserts the bot and its defaults; the checks on the caller are done by the callers. */
async function insertBot(
  trx: Queryable,
  realm: RealmRow,
  owner: UserRow,
  input: {
    email: string;
    fullName: string;
    botType: number;
    sending?: StreamRow;
    register?: StreamRow;
    allPublic: boolean;
    service?: { name: string; baseUrl: string; interface: number };
  },
): Promise<CreatedBot> {
  if (await findUserByEmail(trx, realm.id, input.email)) throw Errors.badRequest("Username already in use");
  await checkNameAvailable(trx, realm.id, input.fullName);
  const created = await createUserInTransaction(trx, realm.id, {
    email: input.email,
    fullName: input.fullName,
    botType: input.botType,
    botOwnerId: owner.id,
  });
  const defaults = {
    default_sending_stream_id: input.sending?.id ?? null,
    default_events_register_stream_id: input.register?.id ?? null,
    default_all_public_streams: input.allPublic,
  };
  await updateUser(trx, created.user.id, defaults);
  if (input.service) {
    // The token the bot's server checks each delivery by (the reference's: an API-key-style string).
    const { name, baseUrl, interface: iface } = input.service;
    await insertBotService(trx, {
      bot_id: created.user.id,
      name,
      base_url: baseUrl,
      interface: iface,
      token: generateApiKey(),
    });
  }
  const bot: UserRow = { ...created.user, ...defaults };
  const dict = await botObject(trx, bot);
  const notifications = [
    ...(await realmUserEvents(trx, realm.id, "add", bot)),
    { realmId: realm.id, userIds: await botManagerIds(trx, bot), event: { type: "realm_bot", op: "add", bot: dict } },
  ];
  const response = {
    user_id: bot.id,
    api_key: created.apiKey,
    avatar_url: null,
    default_sending_stream: dict.default_sending_stream,
    default_events_register_stream: dict.default_events_register_stream,
    default_all_public_streams: dict.default_all_public_streams,
  };
  return { bot, apiKey: created.apiKey, response, notifications };
}

/** POST /bots: a bot owned by the caller. */
export async function addBot(db: Db, actor: BotActor, externalUrl: string, input: NewBotInput): Promise<CreatedBot> {
  const { realm, user } = actor;
  assertMemberOrAdmin(user);
  const allowed = await creatableBotTypes(db, realm, user);
  if (allowed.length === 0) throw Errors.mustBeAdmin();
  checkBotType(input.botType, allowed);
  const fullName = checkBotFullName(input.fullName);
  const email = botEmail(realm, externalUrl, input.shortName);
  let service: { name: string; baseUrl: string; interface: number } | undefined;
  if (input.botType === BOT_TYPE.outgoingWebhook) {
    const iface = input.interfaceType ?? SERVICE_INTERFACE.generic;
    checkInterfaceType(iface);
    const baseUrl = checkPayloadUrl(input.payloadUrl ?? "");
    service = { name: (input.serviceName ?? input.shortName).trim().slice(0, 100), baseUrl, interface: iface };
  }
  return withTransaction(db, async (trx) => {
    const sending =
      input.defaultSendingStream === undefined
        ? undefined
        : await channelByName(trx, realm, user, input.defaultSendingStream);
    const register =
      input.defaultEventsRegisterStream === undefined
        ? undefined
        : await channelByName(trx, realm, user, input.defaultEventsRegisterStream);
    return insertBot(trx, realm, user, {
      email,
      fullName,
      botType: input.botType,
      sending,
      register,
      allPublic: input.defaultAllPublicStreams ?? false,
      service,
    });
  });
}

/** The operator CLI's create-bot: any owner and email, the same name rules and events. */
export async function createBotAsOperator(
  db: Db,
  realm: RealmRow,
  input: { ownerEmail: string; email: string; fullName: string; botType: number },
): Promise<CreatedBot> {
  if (!CREATABLE_BOT_TYPES.has(input.botType)) checkBotType(input.botType, []);
  if (input.botType === BOT_TYPE.outgoingWebhook)
    throw Errors.badRequest("Outgoing webhook bots need a payload URL: create them with POST /bots");
  const fullName = checkBotFullName(input.fullName);
  return withTransaction(db, async (trx) => {
    const owner = await findUserByEmail(trx, realm.id, input.ownerEmail);
    if (!owner || bool(owner.is_bot) || !bool(owner.is_active))
      throw Errors.badRequest("Bot owner must be an active user of the organization");
    return insertBot(trx, realm, owner, { email: input.email, fullName, botType: input.botType, allPublic: false });
  });
}

/** GET /bots: the caller's own active bots, oldest first (the reference lists only one's own). */
export async function listOwnBots(db: Db, actor: BotActor): Promise<Record<string, unknown>[]> {
  assertMemberOrAdmin(actor.user);
  const bots = (await listRealmBots(db, actor.realm.id, actor.user.id)).filter((b) => bool(b.is_active));
  const out = [];
  for (const bot of bots) {
    const dict = await botObject(db, bot);
    // API keys are stored only as hashes: they are shown when created or regenerated, never again.
    out.push({
      user_id: bot.id,
      username: bot.email,
      full_name: bot.full_name,
      bot_type: bot.bot_type,
      avatar_url: null,
      default_sending_stream: dict.default_sending_stream,
      default_events_register_stream: dict.default_events_register_stream,
      default_all_public_streams: dict.default_all_public_streams,
    });
  }
  return out;
}

/** `realm_bots` in /register: every bot for administrators, one's own bots for everyone else. */
export async function realmBotsState(q: Queryable, realm: RealmRow, user: UserRow): Promise<Record<string, unknown>[]> {
  const bots = await listRealmBots(q, realm.id, isAdmin(user) ? undefined : user.id);
  const out = [];
  for (const bot of bots) out.push(await botObject(q, bot));
  return out;
}

/** Is this id one of the organization's (non-system) bots? */
export async function isBotOfRealm(q: Queryable, realmId: number, id: number): Promise<boolean> {
  const user = await findUserById(q, realmId, id);
  return user !== undefined && bool(user.is_bot) && !bool(user.is_system_bot);
}

/** The reference's access_bot_by_id: a bot of the caller's organization that the caller manages. */
async function accessBot(q: Queryable, actor: BotActor, botId: number): Promise<UserRow> {
  const bot = await findUserById(q, actor.realm.id, botId);
  if (!bot || !bool(bot.is_bot) || bool(bot.is_system_bot)) throw Errors.badRequest("No such bot");
  if (bot.bot_owner_id !== actor.user.id && !isAdmin(actor.user)) throw Errors.badRequest("Insufficient permission");
  return bot;
}

/** GET /bots/{id}/api_key: keys are kept only as hashes here, so after the access check this is a clear 400. */
export async function showBotApiKey(db: Db, actor: BotActor, botId: number): Promise<never> {
  assertMemberOrAdmin(actor.user);
  await accessBot(db, actor, botId);
  throw Errors.badRequest(
    "This server stores only a hash of each API key, so a key is shown once, when it is created. " +
      "Use POST /bots/{bot_id}/api_key/regenerate for a new one.",
  );
}

export async function regenerateBotApiKey(db: Db, actor: BotActor, botId: number): Promise<string> {
  assertMemberOrAdmin(actor.user);
  return withTransaction(db, async (trx) => {
    const bot = await accessBot(trx, actor, botId);
    const apiKey = generateApiKey();
    // The key → user cache is tagged with the user: the old key stops working at once, everywhere.
    await updateUser(trx, bot.id, { api_key_hash: hashApiKey(apiKey) });
    return apiKey;
  });
}

export interface BotChanges {
  fullName?: string;
  role?: number;
  botOwnerId?: number;
  /** A channel name; "" clears the default. */
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  /** An outgoing-webhook bot's new payload URL; its interface is read only when the URL is given (the reference's rule). */
  servicePayloadUrl?: string;
  serviceInterface?: number;
}

const ROLES: ReadonlySet<number> = new Set(Object.values(ROLE));

/** PATCH /bots/{id}: everything is checked before anything is written, in one transaction. */
export async function updateBot(
  db: Db,
  actor: BotActor,
  botId: number,
  changes: BotChanges,
): Promise<{ response: Record<string, unknown>; notifications: Notification[] }> {
  const { realm, user } = actor;
  assertMemberOrAdmin(user);
  const fullName = changes.fullName === undefined ? undefined : checkBotFullName(changes.fullName);
  const payloadUrl = changes.servicePayloadUrl === undefined ? undefined : checkPayloadUrl(changes.servicePayloadUrl);
  const serviceInterface =
    payloadUrl === undefined ? undefined : (changes.serviceInterface ?? SERVICE_INTERFACE.generic);
  if (serviceInterface !== undefined) checkInterfaceType(serviceInterface);
  return withTransaction(db, async (trx) => {
    let bot = await accessBot(trx, actor, botId);
    let servicesChanged = false;
    if (payloadUrl !== undefined && bot.bot_type === BOT_TYPE.outgoingWebhook) {
      await updateBotServices(trx, bot.id, { base_url: payloadUrl, interface: serviceInterface });
      servicesChanged = true;
    }
    const notifications: Notification[] = [];
    const fields: Partial<UserRow> = {};

    if (changes.role !== undefined && changes.role !== bot.role) {
      if (!ROLES.has(changes.role)) throw Errors.badRequest("Invalid role");
      if (changes.role === ROLE.owner || bot.role === ROLE.owner) {
        if (user.role !== ROLE.owner) throw Errors.mustBeOwner();
      } else if (!isAdmin(user)) throw Errors.mustBeAdmin();
      fields.role = changes.role;
    }
    let newOwner: UserRow | undefined;
    if (changes.botOwnerId !== undefined && changes.botOwnerId !== bot.bot_owner_id) {
      newOwner = await findUserById(trx, realm.id, changes.botOwnerId);
      if (!newOwner) throw Errors.badRequest("Failed to change owner, no such user");
      if (!bool(newOwner.is_active)) throw Errors.badRequest("Failed to change owner, user is deactivated");
      if (bool(newOwner.is_bot)) throw Errors.badRequest("Failed to change owner, bots can't own other bots");
      fields.bot_owner_id = newOwner.id;
    }
    if (fullName !== undefined && fullName !== bot.full_name) {
      await checkNameAvailable(trx, realm.id, fullName, bot.id);
      fields.full_name = fullName;
    }
    const botUpdates: Record<string, unknown> = {};
    for (const [given, column, key] of [
      [changes.defaultSendingStream, "default_sending_stream_id", "default_sending_stream"],
      [changes.defaultEventsRegisterStream, "default_events_register_stream_id", "default_events_register_stream"],
    ] as const) {
      if (given === undefined) continue;
      const stream = given === "" ? undefined : await channelByName(trx, realm, user, given);
      if ((stream?.id ?? null) === (bot[column] ?? null)) continue;
      fields[column] = stream?.id ?? null;
      botUpdates[key] = stream?.name ?? null;
    }
    if (
      changes.defaultAllPublicStreams !== undefined &&
      changes.defaultAllPublicStreams !== bool(bot.default_all_public_streams)
    ) {
      fields.default_all_public_streams = changes.defaultAllPublicStreams;
      botUpdates.default_all_public_streams = changes.defaultAllPublicStreams;
    }

    if (Object.keys(fields).length > 0) {
      if (fields.role !== undefined) {
        const groups = await systemGroupIds(trx, realm.id);
        await removeUserFromGroups(trx, bot.id, Object.values(groups));
        await addGroupMembers(trx, groups[systemGroupForRole(fields.role)], [bot.id]);
      }
      await updateUser(trx, bot.id, fields);
      const before = bot;
      bot = { ...bot, ...fields };
      if (fields.full_name !== undefined)
        notifications.push(await personUpdate(trx, bot, { full_name: bot.full_name }));
      if (fields.role !== undefined) notifications.push(await personUpdate(trx, bot, { role: bot.role }));
      if (newOwner) notifications.push(...(await ownerChangeEvents(trx, before, bot, newOwner)));
      for (const [key, value] of Object.entries(botUpdates)) {
        notifications.push({
          realmId: realm.id,
          userIds: await botManagerIds(trx, bot),
          event: { type: "realm_bot", op: "update", bot: { user_id: bot.id, [key]: value } },
        });
      }
    }
    const dict = await botObject(trx, bot);
    if (servicesChanged)
      notifications.push({
        realmId: realm.id,
        userIds: await botManagerIds(trx, bot),
        event: { type: "realm_bot", op: "update", bot: { user_id: bot.id, services: dict.services } },
      });
    const owner = bot.bot_owner_id === null ? undefined : await findUserById(trx, realm.id, bot.bot_owner_id);
    const response: Record<string, unknown> = {
      full_name: bot.full_name,
      avatar_url: null,
      // Echoes of the request, as the reference answers (null when not sent).
      service_interface: serviceInterface ?? SERVICE_INTERFACE.generic,
      service_payload_url: payloadUrl ?? null,
      config_data: null,
      default_sending_stream: dict.default_sending_stream,
      default_events_register_stream: dict.default_events_register_stream,
      default_all_public_streams: dict.default_all_public_streams,
      ...(owner ? { bot_owner: owner.email } : {}),
    };
    return { response, notifications };
  });
}

/** The reference's owner change: everyone learns the new owner id; the realm_bots lists of the two
 *  owners (when they are not administrators, who list every bot anyway) lose and gain the bot. */
async function ownerChangeEvents(
  q: Queryable,
  before: UserRow,
  bot: UserRow,
  newOwner: UserRow,
): Promise<Notification[]> {
  const out = [await personUpdate(q, bot, { bot_owner_id: newOwner.id })];
  if (before.bot_owner_id !== null) {
    const previous = await findUserById(q, bot.realm_id, before.bot_owner_id);
    if (previous && bool(previous.is_active) && !isAdmin(previous))
      out.push({
        realmId: bot.realm_id,
        userIds: [previous.id],
        event: { type: "realm_bot", op: "delete", bot: { user_id: bot.id } },
      });
  }
  if (!isAdmin(newOwner))
    out.push({
      realmId: bot.realm_id,
      userIds: [newOwner.id],
      event: { type: "realm_bot", op: "add", bot: await botObject(q, bot) },
    });
  return out;
}

/** DELETE /bots/{id}: deactivates the bot (its key stops working at once). */
export async function deactivateBot(db: Db, actor: BotActor, botId: number): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const bot = await accessBot(trx, actor, botId);
    if (!bool(bot.is_active)) throw Errors.badRequest("Bot is already deactivated");
    await updateUser(trx, bot.id, { is_active: false });
    const everyone = await activeRealmUserIds(trx, bot.realm_id);
    return [
      await personUpdate(trx, { ...bot, is_active: false }, { is_active: false }),
      // The YAML: sent to all users when a bot is deactivated ("remove" is no longer sent since level 222).
      {
        realmId: bot.realm_id,
        userIds: everyone,
        event: { type: "realm_bot", op: "delete", bot: { user_id: bot.id } },
      },
    ];
  });
}

/**
 * POST /users/{id}/reactivate for a bot: administrators only (as the reference); the bot's owner
 * must still be active, and the bot's name must not have been taken meanwhile.
 */
export async function reactivateBot(db: Db, actor: BotActor, botId: number): Promise<Notification[]> {
  if (!isAdmin(actor.user)) throw Errors.mustBeAdmin();
  return withTransaction(db, async (trx) => {
    const bot = await accessBot(trx, actor, botId);
    if (bool(bot.is_active)) throw Errors.badRequest("User is already active");
    const owner = bot.bot_owner_id === null ? undefined : await findUserById(trx, bot.realm_id, bot.bot_owner_id);
    if (owner && !bool(owner.is_active))
      throw Errors.badRequest("Cannot reactivate a bot whose owner is deactivated: change its owner first");
    await checkNameAvailable(trx, bot.realm_id, bot.full_name, bot.id);
    await updateUser(trx, bot.id, { is_active: true });
    // realm_bots lists deactivated bots too, so only the user object changes (as the reference since level 474).
    return [await personUpdate(trx, { ...bot, is_active: true }, { is_active: true })];
  });
}
