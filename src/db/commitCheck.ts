// After a commit whose answer was lost (the connection died during COMMIT): which of the messages
// the transaction inserted are stored. Read with a share lock on MySQL, so that if the transaction
// is still being committed or rolled back on the server, the read waits for its end instead of
// seeing the rows as not there yet.
import type { Db } from "./knex";
import { isMysql } from "./collation";

export interface StoredMessageKey {
  id: number;
  sender_id: number;
  date_sent: number;
}

export async function storedMessageKeys(db: Db, ids: number[]): Promise<StoredMessageKey[]> {
  if (ids.length === 0) return [];
  const query = db("messages").whereIn("id", ids).select("id", "sender_id", "date_sent");
  if (isMysql(db)) query.forShare();
  const rows = (await query) as StoredMessageKey[];
  return rows.map((r) => ({ id: Number(r.id), sender_id: Number(r.sender_id), date_sent: Number(r.date_sent) }));
}
