// Recipient rows are written in chunks (MySQL: literal integer VALUES lists; SQLite: Knex's
// compound INSERTs): every row arrives exactly once, across chunk boundaries, on the database
// under test; a value that is not an integer is refused before anything is written.
import { migrateLatest, ROWS_PER_INSERT, type Db } from "../../src/db/knex";
import { insertUserMessageRows } from "../../src/db/messages";
import { openFreshDatabase } from "../support/database";
import { usingMysql } from "../support/harness";

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openFreshDatabase());
  await migrateLatest(db);
});
afterAll(async () => {
  await close();
});

it("writes every row once across chunk boundaries", async () => {
  const count = 2 * ROWS_PER_INSERT.mysql + 7;
  const rows = Array.from({ length: count }, (_, i) => ({
    user_id: (i % 1000) + 1,
    message_id: 10 + Math.floor(i / 1000),
    flags: i % 3 === 0 ? 9 : 0,
  }));
  await db.transaction((trx) => insertUserMessageRows(trx, rows));
  const stored = await db("user_messages").orderBy(["message_id", "user_id"]).select("user_id", "message_id", "flags");
  expect(stored.map((r) => ({ ...r, message_id: Number(r.message_id) }))).toEqual(rows);
});

(usingMysql() ? it : it.skip)(
  "refuses a non-integer value before writing anything (MySQL's literal rows)",
  async () => {
    const before = await db("user_messages").count<{ n: number }[]>({ n: "*" });
    await expect(
      insertUserMessageRows(db, [
        { user_id: 1, message_id: 99, flags: 0 },
        { user_id: 2, message_id: 99, flags: "1) ; DROP TABLE x; --" as unknown as number },
      ]),
    ).rejects.toThrow(/non-integer/);
    expect(await db("user_messages").count<{ n: number }[]>({ n: "*" })).toEqual(before);
  },
);
