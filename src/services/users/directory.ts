// Reading the organization's users as the API shows them: GET /users, /users/{id}, /users/me.
import type { Queryable } from "../../db/knex";
import { latestMessageId } from "../../db/messages";
import type { RealmRow, UserRow } from "../../db/rows";
import { findUserById, listRealmUsers } from "../../db/users";
import { Errors } from "../../errors";
import { userProfileExtras } from "../profileFields/userExtras";
import { formatUser } from "./format";
import { isAdmin } from "./users";

/** User objects as `viewer` may see them, with custom profile data when asked for. */
export async function userObjects(
  q: Queryable,
  realm: RealmRow,
  viewer: UserRow,
  users: UserRow[],
  includeCustomProfileFields: boolean,
): Promise<Record<string, unknown>[]> {
  const extras = await userProfileExtras(q, realm, users, includeCustomProfileFields);
  const viewerIsAdmin = isAdmin(viewer);
  return users.map((u) => ({ ...formatUser(u, { viewerIsAdmin }), ...(extras.get(u.id) ?? {}) }));
}

/** The requester's own user object (delivery email included), with the latest message id. */
export async function ownUser(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  includeCustomProfileFields: boolean,
): Promise<Record<string, unknown>> {
  const extras = await userProfileExtras(q, realm, [user], includeCustomProfileFields);
  return {
    ...formatUser(user, { viewerIsAdmin: true }),
    ...(extras.get(user.id) ?? {}),
    max_message_id: await latestMessageId(q, realm.id),
  };
}

export async function listUsers(
  q: Queryable,
  realm: RealmRow,
  viewer: UserRow,
  options: { userIds?: number[]; includeCustomProfileFields: boolean },
): Promise<Record<string, unknown>[]> {
  let users = await listRealmUsers(q, realm.id);
  if (options.userIds) users = users.filter((u) => options.userIds!.includes(u.id));
  return userObjects(q, realm, viewer, users, options.includeCustomProfileFields);
}

export async function getUser(
  q: Queryable,
  realm: RealmRow,
  viewer: UserRow,
  userId: number,
  includeCustomProfileFields: boolean,
): Promise<Record<string, unknown>> {
  const target = await findUserById(q, realm.id, userId);
  if (!target) throw Errors.badRequest("No such user");
  const [user] = await userObjects(q, realm, viewer, [target], includeCustomProfileFields);
  return user;
}
