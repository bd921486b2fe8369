// A multi-row message INSERT returns each row's id, in row order: from the reported first id and
// InnoDB's consecutive allocation on MySQL (no read-back), by reading the rows back elsewhere.
import { migrateLatest, type Db } from "../../src/db/knex";
import { insertMessages } from "../../src/db/messages";
import type { MessageRow } from "../../src/db/rows";
import { createRealm } from "../../src/services/realms/realms";
import { openFreshDatabase } from "../support/database";
import { usingMysql } from "../support/harness";

let db: Db;
let close: () => Promise<void>;
let rows: Omit<MessageRow, "id">[];

beforeAll(async () => {
  ({ db, close } = await openFreshDatabase());
  await migrateLatest(db);
  const { realm, owner } = await createRealm(db, {
    subdomain: "",
    name: "Ids",
    owner: { email: "owner@ids.example", fullName: "Owner" },
  });
  rows = Array.from({ length: 7 }, (_, i) => ({
    realm_id: realm.id,
    sender_id: owner.id,
    type: "private" as const,
    stream_id: null,
    topic: `row ${i}`,
    dm_key: String(owner.id),
    content: `content ${i}`,
    rendered_content: `<p>content ${i}</p>`,
    date_sent: 1_700_000_000 + i,
    client: "test",
  })) as unknown as Omit<MessageRow, "id">[];
});
afterAll(async () => {
  await close();
});

it("gives each row of one INSERT its own id, in row order", async () => {
  let selects = 0;
  const count = (query: { sql: string }) => {
    if (/^select .* from [`"]messages[`"]/i.test(query.sql)) selects++;
  };
  db.on("query", count);
  let ids: number[];
  try {
    // Twice: the first call on a database also asks MySQL how it allocates ids.
    await db.transaction((trx) => insertMessages(trx, rows));
    ids = await db.transaction((trx) => insertMessages(trx, rows));
  } finally {
    db.off("query", count);
  }
  const stored = await db("messages").whereIn("id", ids).orderBy("id").select("id", "topic");
  expect(stored.map((r) => [Number(r.id), r.topic])).toEqual(ids.map((id, i) => [id, `row ${i}`]));
  if (usingMysql()) {
    const [[mode]] = await db.raw("SELECT @@innodb_autoinc_lock_mode AS lock_mode");
    // No reading back where InnoDB hands one INSERT's ids out in one go.
    expect(selects).toBe(Number(mode.lock_mode) <= 1 ? 0 : 2);
  }
});
