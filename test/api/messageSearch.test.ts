// The `search` narrow: full-text over topic and content through each database's index (FTS5 on
// SQLite, FULLTEXT on MySQL/MariaDB), with the reference's highlights, bounded operands, access rules,
// edits and deletions reflected; the migration backfills messages that existed before it.
import type { Db } from "../../src/db/knex";
import { MAX_SEARCH_QUERY_LENGTH, MAX_SEARCH_TERMS } from "../../src/limits";
import { migrateUntil, openFreshDatabase } from "../support/database";
import { startTestServer, usingMysql, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;
const ids: Record<string, number> = {};

async function send(user: TestUser, topic: string, content: string, to = "general") {
  const res = await server.as(user).post("/messages", { type: "stream", to, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

beforeAll(async () => {
  server = await startTestServer();
  const { owner, member } = server.users;
  ids.kettle = await send(owner, "kitchen", "The kettle is boiling over");
  ids.teapot = await send(member, "kitchen", "Who broke the teapot?");
  ids.topicOnly = await send(member, "kettle maintenance", "descaling tomorrow");
  ids.phrase = await send(owner, "misc", "a boiling kettle sings");
  await server.as(owner).post("/users/me/subscriptions", {
    subscriptions: [{ name: "hidden" }],
    invite_only: true,
    principals: [owner.id],
  });
  ids.hidden = await send(owner, "secret", "kettle secrets", "hidden");
});
afterAll(async () => {
  await server.close();
});

async function search(user: TestUser, operand: string, extra: unknown[] = []) {
  return server.as(user).get("/messages", {
    anchor: "newest",
    num_before: 100,
    num_after: 0,
    narrow: JSON.stringify([...extra, { operator: "search", operand }]),
  });
}

const found = (res: { body: Record<string, any> }) => res.body.messages.map((m: { id: number }) => m.id);

it("matches words in content and topic, every word required, case-insensitively", async () => {
  const { member } = server.users;
  expect(found(await search(member, "KETTLE"))).toEqual([ids.kettle, ids.topicOnly, ids.phrase]);
  expect(found(await search(member, "kettle boiling"))).toEqual([ids.kettle, ids.phrase]);
  expect(found(await search(member, "teapot"))).toEqual([ids.teapot]);
  expect(found(await search(member, "nonexistentword"))).toEqual([]);
  // A quoted phrase keeps its words together and in order.
  expect(found(await search(member, '"boiling kettle"'))).toEqual([ids.phrase]);
  // With other operators.
  expect(found(await search(member, "kettle", [["topic", "kitchen"]]))).toEqual([ids.kettle]);
});

it("answers match_content and match_subject with the matches highlighted", async () => {
  const res = await search(server.users.member, "kettle");
  const byId = new Map(res.body.messages.map((m: { id: number }) => [m.id, m]));
  expect(byId.get(ids.kettle)).toMatchObject({
    match_content: '<p>The <span class="highlight">kettle</span> is boiling over</p>',
    match_subject: "kitchen",
  });
  expect(byId.get(ids.topicOnly)).toMatchObject({
    match_content: "<p>descaling tomorrow</p>",
    match_subject: '<span class="highlight">kettle</span> maintenance',
  });
  // Only searches carry them.
  const plain = await server
    .as(server.users.member)
    .get("/messages", { anchor: "newest", num_before: 1, num_after: 0 });
  expect(plain.body.messages[0]).not.toHaveProperty("match_content");
});

it("finds only what the user may read", async () => {
  expect(found(await search(server.users.owner, "secrets"))).toEqual([ids.hidden]);
  expect(found(await search(server.users.member, "secrets"))).toEqual([]);
});

it("follows edits and deletions", async () => {
  const { member } = server.users;
  const id = await send(member, "edits", "zebra crossing");
  expect(found(await search(member, "zebra"))).toEqual([id]);
  await server.as(member).patch(`/messages/${id}`, { content: "giraffe crossing" });
  expect(found(await search(member, "zebra"))).toEqual([]);
  expect(found(await search(member, "giraffe"))).toEqual([id]);
  await server.as(member).patch(`/messages/${id}`, { topic: "savannah", send_notification_to_new_thread: false });
  expect(found(await search(member, "savannah"))).toEqual([id]);
  await server.as(member).delete(`/messages/${id}`);
  expect(found(await search(member, "giraffe"))).toEqual([]);
});

it("refuses over-long and over-wordy searches, naming the limit", async () => {
  const long = await search(server.users.member, "a".repeat(MAX_SEARCH_QUERY_LENGTH + 1));
  expect(long.status).toBe(400);
  expect(long.body.msg).toContain("MAX_SEARCH_QUERY_LENGTH");
  const words = Array.from({ length: MAX_SEARCH_TERMS + 1 }, (_, i) => `word${i}`).join(" ");
  const wordy = await search(server.users.member, words);
  expect(wordy.status).toBe(400);
  expect(wordy.body.msg).toContain("MAX_SEARCH_TERMS");
  // Punctuation the query languages would read as operators is only text.
  const odd = await search(server.users.member, 'kettle" OR * -(NEAR');
  expect(odd.status).toBe(200);
  // Underscores alone are no word.
  expect(found(await search(server.users.member, "kettle __"))).toEqual([ids.kettle, ids.topicOnly, ids.phrase]);
});

it("is answered by the full-text index, not a scan of the messages", async () => {
  const statements: { sql: string; bindings: unknown[] }[] = [];
  const listener = (query: { sql: string; bindings: unknown[] }) => {
    if (/messages_fts|MATCH/.test(query.sql)) statements.push(query);
  };
  server.db.on("query", listener);
  try {
    await search(server.users.member, "kettle");
  } finally {
    server.db.removeListener("query", listener);
  }
  expect(statements.length).toBeGreaterThan(0);
  const { sql, bindings } = statements[0];
  if (usingMysql()) {
    const [plan] = await server.db.raw(`EXPLAIN ${sql}`, bindings as never);
    const messages = (plan as { table: string; type: string; key: string }[]).filter((row) => row.table === "m");
    expect(messages.map((row) => row.type)).toContain("fulltext");
  } else {
    const plan: { detail: string }[] = await server.db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as never);
    const details = plan.map((row) => row.detail).join("\n");
    expect(details).toMatch(/VIRTUAL TABLE INDEX/);
    expect(details).not.toMatch(/SCAN (m|messages)\b(?! USING)/);
  }
});

describe("the migration", () => {
  const UNDER_TEST = "20261201006001_message_edit_delete_search.ts";
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openFreshDatabase());
    await migrateUntil(db, UNDER_TEST);
  });
  afterAll(async () => {
    await close();
  });

  it("indexes the messages that exist before it, and adds the realm settings", async () => {
    const [realmId] = await db("realms").insert({ string_id: "", name: "R", description: "", date_created: 0 });
    const [groupId] = await db("user_groups").insert({
      realm_id: realmId,
      name: "role:members",
      description: "",
      is_system_group: true,
    });
    const [userId] = await db("users").insert({
      realm_id: realmId,
      email: "a@example.com",
      email_key: "a@example.com",
      delivery_email: "a@example.com",
      full_name: "A",
      api_key_hash: "x",
      date_joined: 0,
    });
    const [messageId] = await db("messages").insert({
      realm_id: realmId,
      sender_id: userId,
      type: "stream",
      topic: "old topic",
      topic_key: "old topic",
      content: "ancient walrus",
      rendered_content: "<p>ancient walrus</p>",
      date_sent: 0,
    });
    await db.migrate.up();
    const matches = usingMysql()
      ? (
          await db.raw("SELECT id FROM messages WHERE MATCH (topic, content) AGAINST (? IN BOOLEAN MODE)", ["+walrus"])
        )[0]
      : await db.raw("SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH ?", ['"walrus"']);
    expect(matches.map((r: { id: number }) => Number(r.id))).toEqual([Number(messageId)]);
    const realm = await db("realms").where({ id: realmId }).first();
    expect(realm).toMatchObject({
      message_content_edit_limit_seconds: 600,
      message_edit_history_visibility_policy: "all",
      can_move_messages_between_channels_group: groupId,
    });
    await db.migrate.down();
    expect(await db.schema.hasTable("message_edits")).toBe(false);
  });
});
