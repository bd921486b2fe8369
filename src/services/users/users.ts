// Users and bots: creation with a fresh API key, role changes (system groups follow), activation.
import type { Db, Queryable } from "../../db/knex";
import { addGroupMembers, removeUserFromGroups, systemGroupIds } from "../../db/groups";
import { BOT_TYPE, bool, nowSeconds, ROLE, type UserRow } from "../../db/rows";
import { isUniqueViolation } from "../../db/errors";
import { withTransaction } from "../../db/transaction";
import {
  activeRealmUserIds,
  findUserByEmail,
  findUserById,
  findUserRowById,
  insertUser,
  listActiveBotsOwnedBy,
  updateUser,
} from "../../db/users";
import type { Notification } from "../../events/bus";
import { deleteUserSessions } from "../../db/sessions";
import { ApiError, Errors } from "../../errors";
import { generateApiKey, hashApiKey } from "./apiKeys";
import { normalizeName } from "../../names";

export const ROLE_NAMES: Record<string, number> = {
  owner: ROLE.owner,
  administrator: ROLE.administrator,
  admin: ROLE.administrator,
  moderator: ROLE.moderator,
  member: ROLE.member,
  guest: ROLE.guest,
};

/** Bot types by the names the CLI accepts. */
export const BOT_TYPE_NAMES: Record<string, number> = {
  "incoming-webhook": BOT_TYPE.incomingWebhook,
  generic: BOT_TYPE.generic,
};

/** The user (or bot) with this email in the organization, active or not. */
export async function findUserInRealm(q: Queryable, realmId: number, email: string): Promise<UserRow | undefined> {
  return findUserByEmail(q, realmId, email);
}

/** The system groups a role puts a user in directly (wider groups follow through subgroups). */
export function systemGroupForRole(role: number): string {
  switch (role) {
    case ROLE.owner:
      return "role:owners";
    case ROLE.administrator:
      return "role:administrators";
    case ROLE.moderator:
      return "role:moderators";
    case ROLE.member:
      return "role:fullmembers"; // no waiting period: every member is a full member
    case ROLE.guest:
      return "role:everyone";
    default:
      throw new ApiError("BAD_REQUEST", `Invalid role ${role}`);
  }
}

export interface NewUser {
  email: string;
  fullName: string;
  role?: number;
  botType?: number;
  botOwnerId?: number;
  isSystemBot?: boolean;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export async function createUserInTransaction(
  q: Queryable,
  realmId: number,
  input: NewUser,
): Promise<{ user: UserRow; apiKey: string }> {
  const email = normalizeName(input.email).trim();
  if (!EMAIL_PATTERN.test(email) || email.length > 254)
    throw new ApiError("BAD_REQUEST", `Invalid email '${input.email}'`);
  const fullName = input.fullName.trim();
  if (fullName.length === 0 || fullName.length > 100)
    throw new ApiError("BAD_REQUEST", "Full name must be 1 to 100 characters");
  if (await findUserByEmail(q, realmId, email)) throw new ApiError("BAD_REQUEST", `Email '${email}' already in use`);
  const role = input.role ?? ROLE.member;
  const apiKey = generateApiKey();
  const row: Omit<UserRow, "id"> = {
    realm_id: realmId,
    email,
    delivery_email: email,
    full_name: fullName,
    role,
    is_active: true,
    is_bot: input.botType !== undefined,
    bot_type: input.botType ?? null,
    bot_owner_id: input.botOwnerId ?? null,
    is_system_bot: input.isSystemBot ?? false,
    api_key_hash: hashApiKey(apiKey),
    webhook_secret: null,
    timezone: "",
    date_joined: nowSeconds(),
    last_active_at: null,
    long_term_idle: false,
    last_active_message_id: null,
  };
  let id: number;
  try {
    id = await insertUser(q, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError("BAD_REQUEST", `Email '${email}' already in use`);
    throw err;
  }
  const groups = await systemGroupIds(q, realmId);
  await addGroupMembers(q, groups[systemGroupForRole(role)], [id]);
  return { user: { id, ...row }, apiKey };
}

export async function createUser(db: Db, realmId: number, input: NewUser): Promise<{ user: UserRow; apiKey: string }> {
  return withTransaction(db, (trx) => createUserInTransaction(trx, realmId, input));
}

export async function createBot(
  db: Db,
  realmId: number,
  input: { email: string; fullName: string; ownerId: number; botType: number },
): Promise<{ user: UserRow; apiKey: string }> {
  if (![BOT_TYPE.generic, BOT_TYPE.incomingWebhook].includes(input.botType as 1 | 2)) {
    throw new ApiError("BAD_REQUEST", "Bot type must be generic (1) or incoming webhook (2)");
  }
  return withTransaction(db, async (trx) => {
    const owner = await findUserById(trx, realmId, input.ownerId);
    if (!owner || owner.is_bot) throw new ApiError("BAD_REQUEST", "Bot owner must be a user of the organization");
    return createUserInTransaction(trx, realmId, {
      email: input.email,
      fullName: input.fullName,
      botType: input.botType,
      botOwnerId: owner.id,
    });
  });
}

export async function changeRole(db: Db, realmId: number, userId: number, role: number): Promise<void> {
  await withTransaction(db, async (trx) => {
    const groups = await systemGroupIds(trx, realmId);
    await removeUserFromGroups(trx, userId, Object.values(groups));
    await addGroupMembers(trx, groups[systemGroupForRole(role)], [userId]);
    await updateUser(trx, userId, { role });
  });
}

export async function regenerateApiKey(db: Db, userId: number): Promise<string> {
  const apiKey = generateApiKey();
  await updateUser(db, userId, { api_key_hash: hashApiKey(apiKey) });
  return apiKey;
}

/**
 * Deactivates or reactivates a user. Deactivating a human deactivates every bot they own with
 * them, in one transaction (as the reference does), so their incoming webhooks stop posting;
 * reactivating brings back the user only (each bot is reactivated explicitly). Returns the
 * `realm_user` (everyone) and `realm_bot` (the bot's owner) updates to publish after the commit.
 */
export async function setUserActive(db: Db, userId: number, active: boolean): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const user = await findUserRowById(trx, userId);
    if (!user) throw Errors.badRequest("No such user");
    const changed = [user, ...(!active && !bool(user.is_bot) ? await listActiveBotsOwnedBy(trx, user.id) : [])];
    for (const row of changed) await updateUser(trx, row.id, { is_active: active });
    // A deactivated user's web sessions end with them (services/users/sessions.ts).
    if (!active) await deleteUserSessions(trx, user.id);
    const everyone = await activeRealmUserIds(trx, user.realm_id);
    return changed.flatMap((row): Notification[] => [
      {
        realmId: row.realm_id,
        userIds: everyone,
        event: { type: "realm_user", op: "update", person: { user_id: row.id, is_active: active } },
      },
      ...(bool(row.is_bot) && row.bot_owner_id !== null
        ? [
            {
              realmId: row.realm_id,
              userIds: [row.bot_owner_id],
              event: { type: "realm_bot", op: "update", bot: { user_id: row.id, is_active: active } },
            },
          ]
        : []),
    ]);
  });
}

export function isAdmin(user: Pick<UserRow, "role">): boolean {
  return user.role <= ROLE.administrator;
}

/** For changes only organization administrators may make. */
export function assertAdmin(user: Pick<UserRow, "role">): void {
  if (!isAdmin(user)) throw Errors.mustBeAdmin();
}

/** Incoming-webhook bots may only post through /external; the REST API refuses them. */
export function isIncomingWebhookBot(user: Pick<UserRow, "bot_type">): boolean {
  return user.bot_type === BOT_TYPE.incomingWebhook;
}

export function isGuest(user: Pick<UserRow, "role">): boolean {
  return user.role === ROLE.guest;
}
