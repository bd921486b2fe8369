// Passwords of users: setting one, checking one (sign-in, fetch_api_key), and the API key that a correct
// password opens. Bots have no password.
import type { Db, Queryable } from "../../db/knex";
import {
  currentApiKeyHash,
  findPassword,
  findPasswordForUpdate,
  savePassword,
  updateSealedApiKey,
  type PasswordRow,
} from "../../db/passwords";
import { bool, nowSeconds, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { findUserByEmail, updateUser } from "../../db/users";
import { ApiError, Errors } from "../../errors";
import { generateApiKey, hashApiKey } from "./apiKeys";
import {
  checkPasswordStrength,
  hashPasswordWithKey,
  openApiKey,
  sealApiKey,
  verifyNothing,
  verifyPasswordWithKey,
} from "./passwords";

/** Refuses a password that fails the strength rule, naming the parameter that carried it. */
export function assertStrongPassword(
  password: string,
  user: Pick<UserRow, "delivery_email" | "full_name">,
  paramName = "password",
): void {
  const problem = checkPasswordStrength(password, { email: user.delivery_email, fullName: user.full_name });
  if (problem) throw Errors.weakPassword(paramName, problem);
}

/**
 * The user_passwords row for a new password (hashed off the event loop; no database work, so a caller
 * can hash before opening a transaction). `apiKey`: the user's current key when the caller knows it
 * (a new account, a password change), sealed under the new password so fetch_api_key returns it.
 */
export async function preparePassword(
  user: UserRow,
  password: string,
  options: { apiKey?: string; paramName?: string } = {},
): Promise<PasswordRow> {
  if (bool(user.is_bot)) throw new ApiError("BAD_REQUEST", "Bots have no password; they use their API key");
  assertStrongPassword(password, user, options.paramName);
  const { hash, sealingKey } = await hashPasswordWithKey(password);
  return {
    user_id: user.id,
    password_hash: hash,
    api_key_sealed: options.apiKey ? sealApiKey(sealingKey, options.apiKey) : null,
    changed_at: nowSeconds(),
  };
}

/** Sets (or replaces) the user's password; see preparePassword. */
export async function setPassword(
  q: Queryable,
  user: UserRow,
  password: string,
  options: { apiKey?: string; paramName?: string } = {},
): Promise<void> {
  await savePassword(q, await preparePassword(user, password, options));
}

/** Stores a prepared row (inside the caller's transaction). */
export async function storePassword(q: Queryable, row: PasswordRow): Promise<void> {
  await savePassword(q, row);
}

export interface PasswordMatch {
  user: UserRow;
  /** Opens the user's sealed API key; never stored. */
  sealingKey: Buffer;
  row: PasswordRow;
}

/**
 * The user of `realm` with this email and password. A wrong email or password (or a bot, or a user
 * without a password) is AUTHENTICATION_FAILED, after the same work as a real check; a deactivated
 * user is told so only once the password was right.
 */
export async function checkPassword(
  q: Queryable,
  realm: RealmRow,
  email: string,
  password: string,
): Promise<PasswordMatch> {
  if (bool(realm.deactivated)) throw Errors.realmDeactivated();
  const user = email ? await findUserByEmail(q, realm.id, email) : undefined;
  const row = user && !bool(user.is_bot) ? await findPassword(q, user.id) : undefined;
  if (!user || !row) {
    await verifyNothing(password);
    throw Errors.authenticationFailed();
  }
  const sealingKey = await verifyPasswordWithKey(password, row.password_hash);
  if (!sealingKey) throw Errors.authenticationFailed();
  if (!bool(user.is_active)) throw Errors.userDeactivated();
  return { user, sealingKey, row };
}

/**
 * The user's current API key, opened with their password. When no sealed copy matches the current key
 * (it was made or regenerated while the server did not have the password: the CLI, the regenerate
 * endpoint), the server cannot recover it: a new key replaces it and is sealed, so later calls return
 * the same key again.
 */
export async function apiKeyForPassword(db: Db, match: PasswordMatch): Promise<string> {
  const opened = (row: PasswordRow | undefined, currentHash: string | undefined) => {
    const key = row?.api_key_sealed ? openApiKey(match.sealingKey, row.api_key_sealed) : undefined;
    return key && currentHash && hashApiKey(key) === currentHash ? key : undefined;
  };
  const quick = opened(match.row, match.user.api_key_hash);
  if (quick) return quick;
  return withTransaction(db, async (trx) => {
    // Two clients signing in at once must not each replace the key: the second finds the first's.
    const row = await findPasswordForUpdate(trx, match.user.id);
    const again = opened(row, await currentApiKeyHash(trx, match.user.id));
    if (again) return again;
    const apiKey = generateApiKey();
    await updateUser(trx, match.user.id, { api_key_hash: hashApiKey(apiKey) });
    await updateSealedApiKey(trx, match.user.id, sealApiKey(match.sealingKey, apiKey));
    return apiKey;
  });
}

/** Whether the user has a password at all (pages offer "set a password" otherwise). */
export async function hasPassword(q: Queryable, userId: number): Promise<boolean> {
  return (await findPassword(q, userId)) !== undefined;
}
