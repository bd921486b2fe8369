import { cachedRead, cachesOf, cacheTag, invalidate } from "./cache";
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import type { StreamRow } from "./rows";
import { nameKey } from "../names";

const streamTags = (stream: Pick<StreamRow, "id">) => [cacheTag.stream(stream.id)];

export async function findStreamById(q: Queryable, realmId: number, id: number): Promise<StreamRow | undefined> {
  return cachedRead(q, "streamById", `${realmId}:${id}`, streamTags, () =>
    q<StreamRow>("streams").where({ realm_id: realmId, id }).first(),
  );
}

export async function findStreamByName(q: Queryable, realmId: number, name: string): Promise<StreamRow | undefined> {
  const key = nameKey(name);
  return cachedRead(q, "streamByName", `${realmId}:${key}`, streamTags, () =>
    q<StreamRow>("streams").where({ realm_id: realmId, name_key: key }).first(),
  );
}

export async function streamNamesByIds(q: Queryable, ids: number[]): Promise<{ id: number; name: string }[]> {
  if (ids.length === 0) return [];
  const found = await cachesOf(q).readMany<{ id: number; name: string }>(
    "streamName",
    [...new Set(ids)].map(String),
    streamTags,
    async (missing) => {
      const rows: { id: number; name: string }[] = await q("streams")
        .whereIn("id", missing.map(Number))
        .select("id", "name");
      return new Map(rows.map((row) => [String(row.id), row]));
    },
  );
  return [...found.values()];
}

export async function listRealmStreams(q: Queryable, realmId: number): Promise<StreamRow[]> {
  return q<StreamRow>("streams").where({ realm_id: realmId }).orderBy("id");
}

export async function insertStream(
  q: Queryable,
  row: Partial<StreamRow> & { realm_id: number; name: string },
): Promise<number> {
  return insertReturningId(q, "streams", { ...row, name_key: nameKey(row.name) });
}

/**
 * Records a channel's first message unless one is recorded already: a send prepared before another
 * process (or an earlier batch) wrote the first message must not move it forward.
 */
export async function setFirstMessageIdIfUnset(q: Queryable, id: number, messageId: number): Promise<void> {
  const changed = await q("streams")
    .where({ id })
    .whereNull("first_message_id")
    .update({ first_message_id: messageId });
  if (changed > 0) await invalidate(q, [cacheTag.stream(id)]);
}

export async function updateStream(q: Queryable, id: number, fields: Partial<StreamRow>): Promise<void> {
  await q("streams").where({ id }).update(fields);
  await invalidate(q, [cacheTag.stream(id)]);
}
