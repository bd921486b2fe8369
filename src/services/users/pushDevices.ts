// Push device registration. Tokens are stored per user; this server does not deliver push
// notifications itself, so registration only records the device (docs/api-coverage.md, "Profile fields, push devices…").
import type { Db } from "../../db/knex";
import {
  deletePushToken,
  findPushToken,
  insertClientDevice,
  insertPushToken,
  PUSH_KIND,
  updatePushTokenApp,
} from "../../db/pushDevices";
import type { UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { isUniqueViolation } from "../../db/errors";
import { Errors } from "../../errors";

const MAX_TOKEN_LENGTH = 4096;

/** The reference's checks: non-empty, at most 4096 characters, and hex-decodable for APNs. */
function validateApnsToken(token: string): void {
  if (token === "" || token.length > MAX_TOKEN_LENGTH) throw Errors.badRequest("Empty or invalid length token");
  if (token.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(token)) throw Errors.badRequest("Invalid APNS token");
}

export async function addApnsToken(db: Db, user: UserRow, token: string, appId: string): Promise<void> {
  validateApnsToken(token);
  if (!/^[.a-zA-Z0-9-]+$/.test(appId) || appId.length > 191) throw Errors.badRequest("Invalid app ID");
  await withTransaction(db, async (trx) => {
    const existing = await findPushToken(trx, user.id, PUSH_KIND.apns, token);
    if (existing) return updatePushTokenApp(trx, existing.id, appId);
    try {
      await insertPushToken(trx, user.id, PUSH_KIND.apns, token, appId);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err; // registered concurrently: same outcome
    }
  });
}

export async function removeApnsToken(db: Db, user: UserRow, token: string): Promise<void> {
  validateApnsToken(token);
  const existing = await findPushToken(db, user.id, PUSH_KIND.apns, token);
  if (!existing) throw Errors.badRequest("Token does not exist");
  await deletePushToken(db, existing.id);
}

export async function registerClientDevice(db: Db, user: UserRow): Promise<number> {
  return insertClientDevice(db, user.id);
}
