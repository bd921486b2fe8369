// The lean user_messages migration keeps every recipient row and its flags, makes
// (user_id, message_id) the primary key (a duplicate row is refused), and rolls back to the old
// shape with the rows intact. On the database under test (SQLite or MySQL).
import type { Db } from "../../src/db/knex";
import { migrateUntil, openFreshDatabase } from "../support/database";

const UNDER_TEST = "20261123000100_lean_user_messages.ts";

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openFreshDatabase());
  await migrateUntil(db, UNDER_TEST);
});
afterAll(async () => {
  await close();
});

/**
 * "inserted", or the database's error message. (Not `rejects.toThrow`: better-sqlite3's native code
 * keeps the error class of the first test file that loaded it, which Jest then does not take for
 * an Error in later files.)
 */
async function insertOutcome(row: { user_id: number; message_id: number; flags: number }): Promise<string> {
  try {
    await db("user_messages").insert(row);
    return "inserted";
  } catch (err) {
    return String((err as { message?: unknown }).message);
  }
}

const rowsNow = () => db("user_messages").orderBy(["message_id", "user_id"]).select("user_id", "message_id", "flags");

it("keeps the rows, refuses duplicates by primary key, and rolls back intact", async () => {
  const now = 1_700_000_000;
  const [realmId] = await db("realms").insert({ string_id: "", name: "Org", description: "", date_created: now });
  const userIds: number[] = [];
  for (const name of ["a", "b", "c"]) {
    const [id] = await db("users").insert({
      realm_id: realmId,
      full_name: name,
      date_joined: now,
      email: `${name}@example.com`,
      email_key: `${name}@example.com`,
      delivery_email: `${name}@example.com`,
      api_key_hash: name.repeat(64),
    });
    userIds.push(Number(id));
  }
  const message = { realm_id: realmId, sender_id: userIds[0], type: "private", content: "x", rendered_content: "x" };
  const messageIds: number[] = [];
  for (let i = 0; i < 2; i++) {
    const [id] = await db("messages").insert({ ...message, topic: "", topic_key: "", date_sent: now + i });
    messageIds.push(Number(id));
  }
  const before = [
    { user_id: userIds[0], message_id: messageIds[0], flags: 1 },
    { user_id: userIds[1], message_id: messageIds[0], flags: 8 },
    { user_id: userIds[0], message_id: messageIds[1], flags: 3 },
    { user_id: userIds[2], message_id: messageIds[1], flags: 0 },
  ];
  await db("user_messages").insert(before);

  await db.migrate.up({ name: UNDER_TEST });
  expect(await rowsNow()).toEqual(before);
  expect(await db.schema.hasColumn("user_messages", "id")).toBe(false);
  expect(await insertOutcome({ user_id: userIds[2], message_id: messageIds[1], flags: 1 })).toMatch(
    /duplicate|unique|primary/i,
  );
  // Who received a message is read by message id.
  expect(
    (await db("user_messages").where({ message_id: messageIds[1] }).orderBy("user_id").select("user_id")).map(
      (r) => r.user_id,
    ),
  ).toEqual([userIds[0], userIds[2]]);

  await db.migrate.down();
  expect(await rowsNow()).toEqual(before);
  expect(await db.schema.hasColumn("user_messages", "id")).toBe(true);
  expect(await insertOutcome({ user_id: userIds[2], message_id: messageIds[1], flags: 1 })).toMatch(
    /duplicate|unique/i,
  );
  await db.migrate.up({ name: UNDER_TEST });
  expect(await rowsNow()).toEqual(before);
});
