// Named user groups (as opposed to system and anonymous ones): usable as group-setting values.
import type { Db } from "../../db/knex";
import { addGroupMembers, findGroupByName, insertGroup } from "../../db/groups";
import type { RealmRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import { findUserInRealm } from "../users/users";
import { normalizeName } from "../../names";

export const MAX_GROUP_NAME_LENGTH = 100;

/** Creates a named group with the given members; `role:` names belong to the system groups. */
export async function createNamedGroup(
  db: Db,
  realm: RealmRow,
  input: { name: string; description: string; memberEmails: string[] },
): Promise<number> {
  const name = normalizeName(input.name).trim();
  if (!name || name.length > MAX_GROUP_NAME_LENGTH || name.startsWith("role:"))
    throw Errors.badRequest(`Group name must be 1-${MAX_GROUP_NAME_LENGTH} characters and not start with 'role:'`);
  return withTransaction(db, async (trx) => {
    if (await findGroupByName(trx, realm.id, name)) throw Errors.badRequest(`A group named '${name}' already exists`);
    const memberIds: number[] = [];
    for (const email of input.memberEmails) {
      const user = await findUserInRealm(trx, realm.id, email.trim());
      if (!user) throw Errors.badRequest(`No user '${email}'`);
      memberIds.push(user.id);
    }
    const groupId = await insertGroup(trx, { realm_id: realm.id, name, description: input.description });
    await addGroupMembers(trx, groupId, memberIds);
    return groupId;
  });
}
