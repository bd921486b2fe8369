// Extra per-user fields for user objects (custom profile data); filled in by the profile-fields feature.
import type { Queryable } from "../../db/knex";
import type { RealmRow, UserRow } from "../../db/rows";
import { profileDataByUser } from "./data";

export async function userProfileExtras(
  q: Queryable,
  realm: RealmRow,
  users: UserRow[],
  includeCustomProfileFields: boolean,
): Promise<Map<number, Record<string, unknown>>> {
  if (!includeCustomProfileFields) return new Map();
  const data = await profileDataByUser(q, realm, users);
  return new Map(users.map((u) => [u.id, { profile_data: data.get(u.id) ?? {} }]));
}
