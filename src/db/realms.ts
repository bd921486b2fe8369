import { bumpAuthGeneration } from "./authGeneration";
import { cachedRead, cacheTag, invalidate } from "./cache";
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import { bool, nowSeconds, type RealmRow } from "./rows";

const realmTags = (realm: RealmRow) => [cacheTag.realm(realm.id)];
// Deactivated realms are not kept: a reactivation made by another process (the CLI) works at once.
const isActive = (realm: RealmRow) => !bool(realm.deactivated);

export async function findRealmBySubdomain(q: Queryable, subdomain: string): Promise<RealmRow | undefined> {
  return cachedRead(
    q,
    "realmBySubdomain",
    subdomain,
    realmTags,
    () => q<RealmRow>("realms").where({ string_id: subdomain }).first(),
    isActive,
  );
}

export async function findRealmById(q: Queryable, id: number): Promise<RealmRow | undefined> {
  return cachedRead(q, "realmById", String(id), realmTags, () => q<RealmRow>("realms").where({ id }).first(), isActive);
}

export async function countRealms(q: Queryable): Promise<number> {
  const row = await q("realms").count<{ n: number }[]>({ n: "*" }).first();
  return Number(row?.n ?? 0);
}

export async function insertRealm(
  q: Queryable,
  fields: { string_id: string; name: string; description?: string },
): Promise<number> {
  return insertReturningId(q, "realms", { description: "", ...fields, date_created: nowSeconds() });
}

export async function updateRealm(q: Queryable, id: number, fields: Partial<RealmRow>): Promise<void> {
  await q("realms").where({ id }).update(fields);
  if ("deactivated" in fields) await bumpAuthGeneration(q); // keys of a deactivated organization stop at once
  await invalidate(q, [cacheTag.realm(id)]);
}
