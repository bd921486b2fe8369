// PATCH /settings: the current user's own settings. For now the password (`old_password` +
// `new_password`, as the reference); other settings are added here as further fields of SettingsChange.
import type { Db } from "../../db/knex";
import { findPassword } from "../../db/passwords";
import type { RealmRow, UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { ApiError } from "../../errors";
import { hashApiKey } from "./apiKeys";
import { preparePassword, storePassword } from "./credentials";
import { openApiKey, verifyNothing, verifyPasswordWithKey } from "./passwords";
import { endUserSessions } from "./sessions";

export interface SettingsChange {
  oldPassword?: string;
  newPassword?: string;
}

/** The reference's answer to a wrong `old_password` (400 BAD_REQUEST). */
export const wrongPassword = () => new ApiError("BAD_REQUEST", "Wrong password!", { var_name: "old_password" });

export async function updateSettings(
  db: Db,
  actor: { user: UserRow; realm: RealmRow },
  change: SettingsChange,
  /** The session the request came with (a browser): it stays signed in when the password changes. */
  options: { currentSessionId?: string } = {},
): Promise<void> {
  // As the reference: only a non-empty new_password changes anything; old_password alone does nothing.
  if (change.newPassword) await changePassword(db, actor.user, change.oldPassword ?? "", change.newPassword, options);
}

async function changePassword(
  db: Db,
  user: UserRow,
  oldPassword: string,
  newPassword: string,
  options: { currentSessionId?: string },
): Promise<void> {
  const row = await findPassword(db, user.id);
  if (!row) {
    await verifyNothing(oldPassword);
    throw wrongPassword();
  }
  const sealingKey = await verifyPasswordWithKey(oldPassword, row.password_hash);
  if (!sealingKey) throw wrongPassword();
  // The current API key, if the old password sealed it, is sealed again under the new one.
  const key = row.api_key_sealed ? openApiKey(sealingKey, row.api_key_sealed) : undefined;
  const apiKey = key && hashApiKey(key) === user.api_key_hash ? key : undefined;
  const prepared = await preparePassword(user, newPassword, { apiKey, paramName: "new_password" });
  await withTransaction(db, async (trx) => {
    await storePassword(trx, prepared);
    // A password change signs the user out everywhere else (a thief's session ends with it).
    await endUserSessions(trx, user.id, options.currentSessionId);
  });
}
