// POST /users: an organization administrator creates an account (email, password, full name), as
// the reference's create_user API. The new user joins the default channels; everyone is told with
// a `realm_user` `add` event (administrators see the delivery email).
import type { Db } from "../../db/knex";
import { bool, nowSeconds, type RealmRow, type UserRow } from "../../db/rows";
import { listRealmStreams } from "../../db/streams";
import { upsertSubscriptions } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import type { Notification } from "../../events/bus";
import { subscriptionAddEvents } from "../channels/subscriptionEvents";
import { assertStrongPassword, storePassword } from "../users/credentials";
import { realmUserAddEvents } from "../users/joinEvents";
import { hashPasswordWithKey, sealApiKey } from "../users/passwords";
import { assertAdmin, createUserInTransaction } from "../users/users";

export async function createUserByAdmin(
  db: Db,
  realm: RealmRow,
  admin: UserRow,
  input: { email: string; password: string; fullName: string },
): Promise<{ userId: number; notifications: Notification[] }> {
  assertAdmin(admin);
  const email = input.email.trim();
  assertStrongPassword(input.password, { delivery_email: email, full_name: input.fullName });
  const { hash, sealingKey } = await hashPasswordWithKey(input.password);
  return withTransaction(db, async (trx) => {
    const created = await createUserInTransaction(trx, realm.id, { email, fullName: input.fullName });
    const user = created.user;
    await storePassword(trx, {
      user_id: user.id,
      password_hash: hash,
      api_key_sealed: sealApiKey(sealingKey, created.apiKey),
      changed_at: nowSeconds(),
    });
    const defaults = (await listRealmStreams(trx, realm.id)).filter(
      (s) => bool(s.is_default_stream) && !bool(s.is_archived),
    );
    if (defaults.length > 0)
      await upsertSubscriptions(
        trx,
        defaults.map((s) => ({ user_id: user.id, stream_id: s.id })),
      );
    const notifications = (await realmUserAddEvents(trx, realm, user)).events;
    if (defaults.length > 0)
      notifications.push(...(await subscriptionAddEvents(trx, realm, new Map([[user.id, defaults]]))));
    return { userId: user.id, notifications };
  });
}
