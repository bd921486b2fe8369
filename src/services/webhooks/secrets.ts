// Setting or clearing a bot's webhook secret (used for manifest-declared HMAC signatures).
// Only the bot's owner or an administrator may; the secret is never returned or logged.
import type { Db } from "../../db/knex";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { findUserByEmail, findUserById, updateUser } from "../../db/users";
import { Errors } from "../../errors";
import { isAdmin } from "../users/users";

export const MAX_WEBHOOK_SECRET_LENGTH = 200;
// eslint-disable-next-line no-control-regex -- control characters are what a secret may not contain
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export async function setBotWebhookSecret(
  db: Db,
  actor: { user: UserRow; realm: RealmRow },
  botId: number,
  secret: string,
): Promise<{ hasSecret: boolean }> {
  const bot = checkBot(await findUserById(db, actor.realm.id, botId));
  if (bot.bot_owner_id !== actor.user.id && !isAdmin(actor.user)) throw Errors.badRequest("Insufficient permission");
  return storeSecret(db, bot, secret);
}

/** The operator CLI's set-webhook-secret: the same checks on the bot and the secret, no actor. */
export async function setWebhookSecretByEmail(
  db: Db,
  realmId: number,
  botEmail: string,
  secret: string,
): Promise<{ hasSecret: boolean }> {
  return storeSecret(db, checkBot(await findUserByEmail(db, realmId, botEmail)), secret);
}

function checkBot(bot: UserRow | undefined): UserRow {
  if (!bot || !bool(bot.is_bot) || bool(bot.is_system_bot)) throw Errors.badRequest("No such bot");
  return bot;
}

async function storeSecret(db: Db, bot: UserRow, secret: string): Promise<{ hasSecret: boolean }> {
  if ([...secret].length > MAX_WEBHOOK_SECRET_LENGTH)
    throw Errors.invalidParam("secret", `secret is too long (limit: ${MAX_WEBHOOK_SECRET_LENGTH} characters)`);
  if (CONTROL_CHARACTERS.test(secret))
    throw Errors.invalidParam("secret", "secret must not contain control characters");
  await updateUser(db, bot.id, { webhook_secret: secret === "" ? null : secret });
  return { hasSecret: secret !== "" };
}
