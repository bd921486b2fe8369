// Setting or clearing a bot's webhook secret (used for manifest-declared HMAC signatures).
// Only the bot's owner or an administrator may; the secret is never returned or logged.
import type { Db } from "../db/knex";
import { bool, type RealmRow, type UserRow } from "../db/rows";
import { findUserById, updateUser } from "../db/users";
import { Errors } from "../errors";
import { isAdmin } from "../services/users";

export const MAX_WEBHOOK_SECRET_LENGTH = 200;

export async function setBotWebhookSecret(db: Db, actor: { user: UserRow; realm: RealmRow }, botId: number, secret: string): Promise<{ hasSecret: boolean }> {
  const bot = await findUserById(db, actor.realm.id, botId);
  if (!bot || !bool(bot.is_bot) || bool(bot.is_system_bot)) throw Errors.badRequest("No such bot");
  if (bot.bot_owner_id !== actor.user.id && !isAdmin(actor.user)) throw Errors.badRequest("Insufficient permission");
  if (/[\u0000-\u001f\u007f]/.test(secret)) throw Errors.invalidParam("secret", "secret must not contain control characters");
  await updateUser(db, bot.id, { webhook_secret: secret === "" ? null : secret });
  return { hasSecret: secret !== "" };
}
