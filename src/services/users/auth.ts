// Resolving an API key (and optional email) to an active user of an active realm.
import type { Queryable } from "../../db/knex";
import { findRealmById } from "../../db/realms";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { findUserByApiKeyHash } from "../../db/users";
import { Errors } from "../../errors";
import { API_KEY_PATTERN, hashApiKey } from "./apiKeys";
import { sameName } from "../../names";

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
  if (email !== undefined && !sameName(email, user.email) && !sameName(email, user.delivery_email)) {
    throw Errors.invalidApiKey();
  }
  const realm = await findRealmById(q, user.realm_id);
  if (!realm) throw Errors.invalidApiKey();
  // A bare host (or IP) is the root-domain organization's host: other organizations' keys fail there.
  if (realm.string_id !== (hostSubdomain ?? "")) throw Errors.wrongSubdomain();
  if (bool(realm.deactivated)) throw Errors.realmDeactivated();
  if (!bool(user.is_active)) throw Errors.userDeactivated();
  return { user, realm };
}
