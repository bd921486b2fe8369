// Baseline for the bench: the naive way to write the same send. One Koa handler, a form body, and one
// Knex transaction inserting the message row and one row per recipient (MySQL, or raw better-sqlite3
// with prepared statements when BASELINE=sqlite). No auth, no validation, no events.
// Env: PORT, DATABASE_URL (mysql://… or a SQLite file path), REALM_ID, SENDER_ID, STREAM_ID, RECIPIENTS (ids).
import { createRequire } from "node:module";
import Koa from "koa";
import knex from "knex";

// better-sqlite3 ships no type declarations (Knex uses it untyped too): the little used here.
interface Statement {
  run(...params: unknown[]): { lastInsertRowid: number | bigint };
}
interface SqliteDatabase {
  pragma(text: string): unknown;
  prepare(sql: string): Statement;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
}
const Database = createRequire(__filename)("better-sqlite3") as new (file: string) => SqliteDatabase;

const recipients = String(process.env.RECIPIENTS).split(",").map(Number);
const base = {
  realm_id: Number(process.env.REALM_ID),
  sender_id: Number(process.env.SENDER_ID),
  type: "stream",
  stream_id: Number(process.env.STREAM_ID),
  dm_key: null,
  client: "bench",
};

async function readForm(req: NodeJS.ReadableStream): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

function knexSend() {
  const db = knex({
    client: "mysql2",
    connection: { uri: process.env.DATABASE_URL } as never,
    pool: { min: 0, max: 10 },
  });
  return async (topic: string, content: string): Promise<number> =>
    db.transaction(async (trx) => {
      const now = Math.floor(Date.now() / 1000);
      const [id] = await trx("messages").insert({ ...base, topic, content, rendered_content: content, date_sent: now });
      await trx("user_messages").insert(recipients.map((user_id) => ({ user_id, message_id: id, flags: 0 })));
      return Number(id);
    });
}

function rawSqliteSend() {
  const db = new Database(String(process.env.DATABASE_URL));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const insertMessage = db.prepare(
    "INSERT INTO messages (realm_id, sender_id, type, stream_id, dm_key, client, topic, content, rendered_content, " +
      "date_sent) VALUES (@realm_id, @sender_id, @type, @stream_id, @dm_key, @client, @topic, @content, " +
      "@rendered_content, @date_sent)",
  );
  const insertRecipient = db.prepare("INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, 0)");
  const send = db.transaction((topic: string, content: string) => {
    const now = Math.floor(Date.now() / 1000);
    const info = insertMessage.run({ ...base, topic, content, rendered_content: content, date_sent: now });
    for (const userId of recipients) insertRecipient.run(userId, info.lastInsertRowid);
    return Number(info.lastInsertRowid);
  });
  return async (topic: string, content: string): Promise<number> => send(topic, content);
}

const send = process.env.BASELINE === "sqlite" ? rawSqliteSend() : knexSend();
const app = new Koa();
app.use(async (ctx) => {
  const form = await readForm(ctx.req);
  const id = await send(form.get("topic") ?? "", form.get("content") ?? "");
  ctx.body = { result: "success", msg: "", id };
});
app.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("listening\n"));
