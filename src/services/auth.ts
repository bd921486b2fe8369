// Resolving an API key (and optional email) to an active user of an active realm.
import type { Queryable } from "../db/knex";
import { findRealmById } from "../db/realms";
import { bool, type RealmRow, type UserRow } from "../db/rows";
import { findUserByApiKeyHash } from "../db/users";
import { Errors } from "../errors";
import { API_KEY_PATTERN, hashApiKey } from "./apiKeys";

export interface Actor {
  user: UserRow;
  realm: RealmRow;
}

export async function authenticateApiKey(
  q: Queryable,
  apiKey: string,
  email: string | undefined,
  hostSubdomain: string | undefined,
): Promise<Actor> {
  if (!API_KEY_PATTERN.test(apiKey)) throw Errors.malformedApiKey();
  const user = await findUserByApiKeyHash(q, hashApiKey(apiKey));
  if (!user) throw Errors.invalidApiKey();
  if (email !== undefined && email.toLowerCase() !== user.email.toLowerCase() && email.toLowerCase() !== user.delivery_email.toLowerCase()) {
    throw Errors.invalidApiKey();
  }
  const realm = await findRealmById(q, user.realm_id);
  if (!realm) throw Errors.invalidApiKey();
  if (hostSubdomain !== undefined && realm.string_id !== hostSubdomain) throw Errors.wrongSubdomain();
  if (bool(realm.deactivated)) throw Errors.realmDeactivated();
  if (!bool(user.is_active)) throw Errors.userDeactivated();
  return { user, realm };
}
