// Recipient rows are written in chunks (MySQL: literal integer VALUES lists; SQLite: Knex's
// compound INSERTs): every row arrives exactly once, across chunk boundaries, on the database
// under test; a value that is not an integer is refused before anything is written.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, migrateLatest, ROWS_PER_INSERT, type Db } from "../../src/db/knex";
import { insertUserMessageRows } from "../../src/db/messages";
import { freshDatabaseUrl, usingMysql } from "../support/harness";

let db: Db;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const database = await freshDatabaseUrl();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-rows-"));
  db = createDb(database.url, dataDir);
  await migrateLatest(db);
  cleanup = async () => {
    await db.destroy();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await cleanup();
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
