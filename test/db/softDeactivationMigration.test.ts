// The soft-deactivation migration adds the users' activity columns (existing users: not idle, never
// seen) and rolls back without them. On the database under test (SQLite or MySQL).
import type { Db } from "../../src/db/knex";
import { migrateUntil, openFreshDatabase } from "../support/database";

const UNDER_TEST = "20261124000100_soft_deactivation.ts";
const COLUMNS = ["last_active_at", "long_term_idle", "last_active_message_id"];

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openFreshDatabase());
  await migrateUntil(db, UNDER_TEST);
});
afterAll(async () => {
  await close();
});

const present = async () => Promise.all(COLUMNS.map((column) => db.schema.hasColumn("users", column)));

it("adds the columns with an existing user not idle and never seen, and removes them on rollback", async () => {
  const [realmId] = await db("realms").insert({ string_id: "", name: "R", description: "", date_created: 0 });
  await db("users").insert({
    realm_id: realmId,
    email: "a@example.com",
    email_key: "a@example.com",
    delivery_email: "a@example.com",
    full_name: "A",
    api_key_hash: "x",
    date_joined: 0,
  });
  expect(await present()).toEqual([false, false, false]);
  await db.migrate.up();
  expect(await present()).toEqual([true, true, true]);
  const user = await db("users").first(...COLUMNS);
  expect([user.last_active_at, Boolean(user.long_term_idle), user.last_active_message_id]).toEqual([null, false, null]);
  await db.migrate.down();
  expect(await present()).toEqual([false, false, false]);
  expect(await db("users").count({ n: "*" })).toEqual([{ n: 1 }]);
});
