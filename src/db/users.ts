import { bumpAuthGeneration, refreshAuthCaches } from "./authGeneration";
import { cachedRead, cachesOf, cacheTag, invalidate } from "./cache";
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import { bool, type UserRow } from "./rows";
import { nameKey } from "../names";

const userTags = (user: UserRow) => [cacheTag.user(user.id)];

export async function findUserByApiKeyHash(q: Queryable, hash: string): Promise<UserRow | undefined> {
  // Deactivated users are not kept: a reactivation made by another process (the CLI) works at once.
  // A new key or a deactivation anywhere is seen at once too: the cache is checked against the
  // database's auth generation first.
  await refreshAuthCaches(q);
  return cachedRead(
    q,
    "userByKey",
    hash,
    userTags,
    () => q<UserRow>("users").where({ api_key_hash: hash }).first(),
    (user) => bool(user.is_active),
  );
}

export async function findUserById(q: Queryable, realmId: number, id: number): Promise<UserRow | undefined> {
  return (await findUsersByIds(q, realmId, [id]))[0];
}

export async function findUserByEmail(q: Queryable, realmId: number, email: string): Promise<UserRow | undefined> {
  const key = nameKey(email);
  return cachedRead(q, "userByEmail", `${realmId}:${key}`, userTags, () =>
    q<UserRow>("users").where({ realm_id: realmId }).where("email_key", key).first(),
  );
}

/** The realm's users with these ids (unknown ids are left out), from the cache where possible. */
export async function findUsersByIds(q: Queryable, realmId: number, ids: number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  const keys = [...new Set(ids)].map((id) => `${realmId}:${id}`);
  const found = await cachesOf(q).readMany<UserRow>("userById", keys, userTags, async (missing) => {
    const rows = await q<UserRow>("users")
      .where({ realm_id: realmId })
      .whereIn(
        "id",
        missing.map((key) => Number(key.slice(key.indexOf(":") + 1))),
      );
    return new Map(rows.map((row) => [`${realmId}:${row.id}`, row]));
  });
  return keys.flatMap((key) => found.get(key) ?? []);
}

export async function listRealmUsers(q: Queryable, realmId: number): Promise<UserRow[]> {
  return q<UserRow>("users").where({ realm_id: realmId }).orderBy("id");
}

export async function insertUser(q: Queryable, row: Omit<UserRow, "id">): Promise<number> {
  return insertReturningId(q, "users", { ...row, email_key: nameKey(row.email) });
}

export async function updateUser(q: Queryable, id: number, fields: Partial<UserRow>): Promise<void> {
  const key = fields.email === undefined ? {} : { email_key: nameKey(fields.email) };
  await q("users")
    .where({ id })
    .update({ ...fields, ...key });
  if ("api_key_hash" in fields || "is_active" in fields) await bumpAuthGeneration(q);
  // Subscriber lists only count active users: (de)activation changes every one the user is in.
  await invalidate(q, "is_active" in fields ? [cacheTag.user(id), cacheTag.allSubscribers] : [cacheTag.user(id)]);
}

/** Everyone in a realm who should receive realm-wide events (active users and bots). */
export async function activeRealmUserIds(q: Queryable, realmId: number): Promise<number[]> {
  const rows = await q("users").where({ realm_id: realmId, is_active: true }).select("id");
  return rows.map((r: { id: number }) => r.id);
}

/** Active users of the realm whose full name is one of `names` (compared lower-cased; callers re-check). */
export async function findActiveUsersByFullNames(q: Queryable, realmId: number, names: string[]): Promise<UserRow[]> {
  if (names.length === 0) return [];
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  return q<UserRow>("users")
    .where({ realm_id: realmId, is_active: true })
    .whereRaw(`lower(full_name) in (${lowered.map(() => "?").join(", ")})`, lowered);
}

/** A user row by id alone, any organization (for operator tools that start from an id). */
export async function findUserRowById(q: Queryable, id: number): Promise<UserRow | undefined> {
  return q<UserRow>("users").where({ id }).first();
}

/** The active bots a user owns. */
export async function listActiveBotsOwnedBy(q: Queryable, ownerId: number): Promise<UserRow[]> {
  return q<UserRow>("users").where({ bot_owner_id: ownerId, is_bot: true, is_active: true }).orderBy("id");
}
