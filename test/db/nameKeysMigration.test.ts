// The name-keys migration converts a database written by the previous schema: names and topics
// become NFC, every key is recomputed by src/names.ts, keys that now coincide are resolved, and the
// lookups the app uses answer by the new rules. On the database under test (SQLite or MySQL).
import type { Db } from "../../src/db/knex";
import { findStreamByName } from "../../src/db/streams";
import { findUserByEmail } from "../../src/db/users";
import { fetchMessageWindow } from "../../src/db/messages";
import { nameKey } from "../../src/names";
import { migrateUntil, openFreshDatabase } from "../support/database";
import { usingMysql } from "../support/harness";

/** Only this migration is run and rolled back here (later migrations stay pending). */
const UNDER_TEST = "20261122001000_name_keys.ts";
const NFD = (text: string) => text.normalize("NFD");

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openFreshDatabase());
  await migrateUntil(db, UNDER_TEST);
});
afterAll(async () => {
  await close();
});

/** What the previous code stored: the name as given, its JavaScript lower case as the key. */
const oldKeyed = (name: string) => ({ name, name_key: name.toLowerCase() });

it("recomputes keys, stores NFC, resolves keys that now coincide, and the lookups follow the new rules", async () => {
  const now = 1_700_000_000;
  const [realmId] = await db("realms").insert({ string_id: "", name: "Org", description: "", date_created: now });
  const user = { realm_id: realmId, full_name: "A", date_joined: now };
  const [annId] = await db("users").insert({
    ...user,
    email: "Ann@Example.com",
    delivery_email: "Ann@Example.com",
    api_key_hash: "a".repeat(64),
  });
  const stream = { realm_id: realmId, description: "", rendered_description: "", date_created: now };
  const [resumeId] = await db("streams").insert({ ...stream, ...oldKeyed("Résumé") });
  const [nfdId] = await db("streams").insert({ ...stream, ...oldKeyed(NFD("Café noir")) });
  // Only SQLite could hold both spellings (MySQL's accent-insensitive index refused the second).
  const [nfcTwinId] = usingMysql() ? [undefined] : await db("streams").insert({ ...stream, ...oldKeyed("café noir") });
  const message = { realm_id: realmId, sender_id: annId, type: "stream", content: "x", rendered_content: "x" };
  for (const topic of [NFD("Crème"), "crème", "CREME", ""]) {
    await db("messages").insert({ ...message, stream_id: resumeId, topic, date_sent: now });
  }
  await db("user_groups").insert({ realm_id: realmId, name: NFD("Équipe"), description: "" });
  await db("user_groups").insert({ realm_id: realmId, name: null, description: "" });
  await db("custom_profile_fields").insert({
    realm_id: realmId,
    ...oldKeyed(NFD("Âge")),
    field_type: 1,
    field_data: "",
    sort_order: 0,
  });
  await db("channel_folders").insert({
    realm_id: realmId,
    ...oldKeyed(NFD("Équipes")),
    description: "",
    rendered_description: "",
  });

  await db.migrate.up({ name: UNDER_TEST });

  const streams = await db("streams").orderBy("id").select("id", "name", "name_key");
  expect(streams.map((s) => s.name)).toEqual(
    ["Résumé", "Café noir", ...(nfcTwinId === undefined ? [] : ["café noir (2)"])].map((n) => n.normalize("NFC")),
  );
  for (const s of streams) expect(s.name_key).toBe(nameKey(s.name));
  expect((await findStreamByName(db, realmId, "RÉSUMÉ"))?.id).toBe(resumeId);
  expect(await findStreamByName(db, realmId, "resume")).toBeUndefined();
  expect((await findStreamByName(db, realmId, "café noir"))?.id).toBe(nfdId);

  const topics = await db("messages").orderBy("id").select("topic", "topic_key");
  expect(topics).toEqual(
    ["Crème", "crème", "CREME", ""].map((t) => ({ topic: t.normalize("NFC"), topic_key: nameKey(t) })),
  );
  await db("user_messages").insert(
    (await db("messages").pluck("id")).map((id) => ({ user_id: annId, message_id: id })),
  );
  const narrow = await fetchMessageWindow(db, realmId, annId, { streamId: resumeId, topic: "CRÈME" }, 0, 0, 10, true);
  expect(narrow.after.map((m) => m.topic)).toEqual(["Crème", "crème"]);

  expect((await findUserByEmail(db, realmId, "ann@example.COM"))?.id).toBe(annId);
  expect(await findUserByEmail(db, realmId, "ánn@example.com")).toBeUndefined();

  const groups = await db("user_groups").orderBy("id").select("name", "name_key");
  expect(groups).toEqual([
    { name: "Équipe", name_key: "équipe" },
    { name: null, name_key: null },
  ]);
  expect(await db("custom_profile_fields").first("name", "name_key")).toEqual({ name: "Âge", name_key: "âge" });
  expect(await db("channel_folders").first("name", "name_key")).toEqual({ name: "Équipes", name_key: "équipes" });
});

it("rolls back to the previous keys and forward again", async () => {
  const realmId = (await db("realms").first("id")).id;
  await db.migrate.down();
  expect(await db("streams").orderBy("id").pluck("name_key")).toEqual(
    (await db("streams").orderBy("id").pluck("name")).map((n: string) => n.toLowerCase()),
  );
  await db.migrate.up({ name: UNDER_TEST });
  expect((await findStreamByName(db, realmId, NFD("RÉSUMÉ")))?.name).toBe("Résumé".normalize("NFC"));
  expect((await findUserByEmail(db, realmId, "ANN@example.com"))?.email).toBe("Ann@Example.com");
});

// MySQL's case-insensitive unique index never let two such accounts exist.
(usingMysql() ? it.skip : it)("refuses two accounts whose emails now compare equal, naming them", async () => {
  await db.migrate.down();
  const realmId = (await db("realms").first("id")).id;
  const user = { realm_id: realmId, full_name: "B", date_joined: 0 };
  // JavaScript's toLowerCase() and SQLite's ASCII LOWER() told these apart; the new keys do not.
  await db("users").insert({ ...user, email: "Éve@x.example", delivery_email: "e", api_key_hash: "b".repeat(64) });
  await db("users").insert({ ...user, email: "éve@x.example", delivery_email: "e", api_key_hash: "c".repeat(64) });
  await expect(db.migrate.up({ name: UNDER_TEST })).rejects.toThrow(
    `Users 'Éve@x.example' and 'éve@x.example' (realm ${realmId}) have emails that compare equal`,
  );
});
