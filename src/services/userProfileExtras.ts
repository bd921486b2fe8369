// Extra per-user fields for user objects (custom profile data); filled in by the profile-fields feature.
import type { Queryable } from "../db/knex";
import type { RealmRow, UserRow } from "../db/rows";

export async function userProfileExtras(
  _q: Queryable,
  _realm: RealmRow,
  _users: UserRow[],
  _includeCustomProfileFields: boolean,
): Promise<Map<number, Record<string, unknown>>> {
  return new Map();
}
