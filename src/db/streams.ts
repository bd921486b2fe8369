import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import type { StreamRow } from "./rows";

export function streamNameKey(name: string): string {
  return name.toLowerCase();
}

export async function findStreamById(q: Queryable, realmId: number, id: number): Promise<StreamRow | undefined> {
  return q<StreamRow>("streams").where({ realm_id: realmId, id }).first();
}

export async function findStreamByName(q: Queryable, realmId: number, name: string): Promise<StreamRow | undefined> {
  return q<StreamRow>("streams").where({ realm_id: realmId, name_key: streamNameKey(name) }).first();
}

export async function streamNamesByIds(q: Queryable, ids: number[]): Promise<{ id: number; name: string }[]> {
  if (ids.length === 0) return [];
  return q("streams").whereIn("id", ids).select("id", "name");
}

export async function listRealmStreams(q: Queryable, realmId: number): Promise<StreamRow[]> {
  return q<StreamRow>("streams").where({ realm_id: realmId }).orderBy("id");
}

export async function insertStream(q: Queryable, row: Partial<StreamRow> & { realm_id: number; name: string }): Promise<number> {
  return insertReturningId(q, "streams", { ...row, name_key: streamNameKey(row.name) });
}

export async function updateStream(q: Queryable, id: number, fields: Partial<StreamRow>): Promise<void> {
  await q("streams").where({ id }).update(fields);
}
