// linkifiers: a realm's ordered regex → URL template rules.
import { cachedRead, cacheTag, invalidate } from "./cache";
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";

export interface LinkifierRow {
  id: number;
  realm_id: number;
  pattern: string;
  url_template: string;
  example_input: string | null;
  reverse_template: string | null;
  alternative_url_templates: string; // JSON list
  sort_order: number;
}

export type LinkifierFields = Pick<
  LinkifierRow,
  "pattern" | "url_template" | "example_input" | "reverse_template" | "alternative_url_templates"
>;

// Linkifiers change rarely: any change drops every realm's cached list (tag `linkifiers`).
export async function listLinkifiers(q: Queryable, realmId: number): Promise<LinkifierRow[]> {
  const rows = await cachedRead(
    q,
    "linkifiers",
    String(realmId),
    () => [cacheTag.linkifiers],
    () =>
      q<LinkifierRow>("linkifiers")
        .where({ realm_id: realmId })
        .orderBy([{ column: "sort_order" }, { column: "id" }]),
  );
  return rows ?? [];
}

export async function findLinkifier(q: Queryable, realmId: number, id: number): Promise<LinkifierRow | undefined> {
  return q<LinkifierRow>("linkifiers").where({ realm_id: realmId, id }).first();
}

export async function insertLinkifier(q: Queryable, realmId: number, fields: LinkifierFields): Promise<number> {
  const row = await q("linkifiers")
    .where({ realm_id: realmId })
    .max<{ m: number | null }[]>({ m: "sort_order" })
    .first();
  const id = await insertReturningId(q, "linkifiers", {
    ...fields,
    realm_id: realmId,
    sort_order: Number(row?.m ?? -1) + 1,
  });
  await invalidate(q, [cacheTag.linkifiers]);
  return id;
}

export async function updateLinkifier(q: Queryable, id: number, fields: Partial<LinkifierRow>): Promise<void> {
  await q("linkifiers").where({ id }).update(fields);
  await invalidate(q, [cacheTag.linkifiers]);
}

export async function deleteLinkifier(q: Queryable, id: number): Promise<void> {
  await q("linkifiers").where({ id }).delete();
  await invalidate(q, [cacheTag.linkifiers]);
}
