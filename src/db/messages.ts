import type { Knex } from "knex";
import type { Queryable } from "./knex";
import { insertReturningId, insertRows, ROWS_PER_INSERT } from "./knex";
import type { MessageRow } from "./rows";
import { nameKey } from "../names";
import { isMysql } from "./collation";
import { whereMatches, type SearchTerm } from "./messageSearch";

export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  wildcard_mentioned: 16,
  has_alert_word: 64,
  historical: 128,
  // The reference splits wildcard mentions by kind (wildcard_mentioned stays set for either).
  stream_wildcard_mentioned: 4096,
  topic_wildcard_mentioned: 8192,
} as const;
export type FlagName = keyof typeof FLAG_BITS;
/** A message "mentions" a user when either bit is set (`is:mentioned`, unread mentions, flags events). */
export const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.wildcard_mentioned;

export function flagsToNames(bits: number): FlagName[] {
  return (Object.keys(FLAG_BITS) as FlagName[]).filter((name) => (bits & FLAG_BITS[name]) !== 0);
}

const KNOWN_FLAGS = Object.values(FLAG_BITS).reduce((all, bit) => all | bit, 0);
/** Flag names by bits: messages carry one of a few combinations. At most 2^8 entries, frozen (shared). */
const flagNamesByBits = new Map<number, readonly FlagName[]>();

/** flagsToNames, one shared frozen list per combination (a page of messages, a send's recipients). */
export function flagNames(bits: number): readonly FlagName[] {
  const known = bits & KNOWN_FLAGS;
  let names = flagNamesByBits.get(known);
  if (!names) flagNamesByBits.set(known, (names = Object.freeze(flagsToNames(known))));
  return names;
}

/** The participants of a direct message, from its `dm_key` (their ids, ascending, comma-separated). */
export function dmParticipantIds(dmKey: string | null): number[] {
  return dmKey ? dmKey.split(",").map(Number) : [];
}

export async function insertMessage(q: Queryable, row: Omit<MessageRow, "id">): Promise<number> {
  return insertReturningId(q, "messages", { ...row, topic_key: nameKey(row.topic) });
}

/**
 * The step between the ids of one multi-row INSERT when InnoDB hands them out in one go: under
 * innodb_autoinc_lock_mode 0 and 1 (MariaDB's default) a simple INSERT's ids are consecutive, spaced by
 * auto_increment_increment. Undefined under mode 2 (interleaved), where they may not be. Asked once per
 * database.
 */
const consecutiveIdSteps = new WeakMap<object, Promise<number | undefined>>();
function consecutiveIdStep(q: Queryable): Promise<number | undefined> {
  const key = q.client.config as object;
  let step = consecutiveIdSteps.get(key);
  if (!step) {
    step = q
      .raw("SELECT @@innodb_autoinc_lock_mode AS lock_mode, @@auto_increment_increment AS increment")
      .then(([rows]: [{ lock_mode: number; increment: number }[]]) =>
        Number(rows[0].lock_mode) <= 1 ? Number(rows[0].increment) : undefined,
      )
      .catch(() => undefined);
    consecutiveIdSteps.set(key, step);
  }
  return step;
}

/**
 * Several messages in one multi-row INSERT; their ids, in row order. The drivers report one id: the
 * first row's on MySQL, the last row's on SQLite. On MySQL with consecutive ids (above) they follow
 * from it. Otherwise the rows are read back (the ones visible
 * from that id up, as many as were inserted) and must be these rows, in order: the ids then come
 * from the database, not from an assumption about how it allocates them (InnoDB reserves a simple
 * insert's ids in one step under every innodb_autoinc_lock_mode, but their step depends on
 * auto_increment_increment, and rows of other transactions could be committed in between).
 * Throws when they are not: the caller's transaction rolls back, and group commit writes the sends
 * again one row per INSERT.
 */
export async function insertMessages(q: Queryable, rows: Omit<MessageRow, "id">[]): Promise<number[]> {
  const sqlite = await sqliteTransactionConnection(q);
  if (sqlite) return rows.map((row) => sqliteInsert(sqlite, "messages", { ...row, topic_key: nameKey(row.topic) }));
  if (rows.length <= 1) return Promise.all(rows.map((row) => insertMessage(q, row)));
  const reported = Number(
    (await q("messages").insert(rows.map((row) => ({ ...row, topic_key: nameKey(row.topic) }))))[0],
  );
  const first = isMysql(q) ? reported : reported - rows.length + 1;
  const step = isMysql(q) ? await consecutiveIdStep(q) : undefined;
  if (step !== undefined) return rows.map((_, i) => first + i * step);
  const stored: Pick<MessageRow, "id" | "sender_id" | "topic" | "date_sent" | "dm_key" | "stream_id">[] = await q(
    "messages",
  )
    .where("id", ">=", first)
    .orderBy("id")
    .limit(rows.length)
    .select("id", "sender_id", "topic", "date_sent", "dm_key", "stream_id");
  const same = (i: number) =>
    stored[i] !== undefined &&
    stored[i].sender_id === rows[i].sender_id &&
    stored[i].topic === rows[i].topic &&
    Number(stored[i].date_sent) === Number(rows[i].date_sent) &&
    (stored[i].dm_key ?? null) === (rows[i].dm_key ?? null) &&
    (stored[i].stream_id ?? null) === (rows[i].stream_id ?? null);
  if (!rows.every((_, i) => same(i))) throw new Error("multi-row message INSERT: the rows read back are not these");
  return stored.map((row) => Number(row.id));
}

export async function insertUserMessages(
  q: Queryable,
  messageId: number,
  rows: { user_id: number; flags: number }[],
): Promise<void> {
  await insertUserMessageRows(
    q,
    rows.map((r) => ({ ...r, message_id: messageId })),
  );
}

/** Recipient rows of any number of messages, as few multi-row INSERTs as the database allows. */
export async function insertUserMessageRows(
  q: Queryable,
  rows: { user_id: number; message_id: number; flags: number }[],
): Promise<void> {
  if (!isMysql(q)) {
    const sqlite = await sqliteTransactionConnection(q);
    if (!sqlite) return insertRows(q, "user_messages", rows);
    for (const row of rows) sqliteInsert(sqlite, "user_messages", row);
    return;
  }
  // A big channel's send writes a row per subscriber: on MySQL they go as literal integers, which
  // skips Knex's query building and the driver's escaping of three values a row (measured: 1,000
  // rows in 4.4–5.1 ms, against 5.5–7.6 ms through Knex). Only integers are ever written so.
  // In primary-key order (user, message): a batch's rows for one user then land side by side in the
  // clustered index instead of one page visit per row (measured: a 1,000-subscriber channel's sends
  // +17–40% in 5 of 5 alternating runs).
  const sorted = [...rows].sort((a, b) => a.user_id - b.user_id || a.message_id - b.message_id);
  for (let i = 0; i < sorted.length; i += ROWS_PER_INSERT.mysql) {
    const end = Math.min(sorted.length, i + ROWS_PER_INSERT.mysql);
    let values = integerTuple(sorted[i]);
    for (let k = i + 1; k < end; k++) values += "," + integerTuple(sorted[k]);
    await q.raw(`INSERT INTO user_messages (user_id, message_id, flags) VALUES ${values}`);
  }
}

function integerTuple(row: { user_id: number; message_id: number; flags: number }): string {
  const { user_id, message_id, flags } = row;
  if (!Number.isSafeInteger(user_id) || !Number.isSafeInteger(message_id) || !Number.isSafeInteger(flags))
    throw new TypeError(`user_messages row holds a non-integer: ${JSON.stringify(row)}`);
  return "(" + user_id + "," + message_id + "," + flags + ")";
}

/** The part of a better-sqlite3 connection used here (the driver ships no types). */
interface SqliteConnection {
  prepare(sql: string): { run(...values: unknown[]): { lastInsertRowid: number | bigint } };
}

/**
 * The send path's writes on SQLite skip Knex: inside a transaction its connection runs one prepared
 * INSERT per row (prepared once per connection, see knex.ts), which is where SQLite is fastest, and
 * the new row's id comes from the driver exactly, so a batch's messages need no reading back
 * (measured: 0.21 ms a message with 20 recipient rows, against 0.46 ms through Knex's multi-row
 * INSERTs). Undefined outside a transaction or on MySQL: the callers then use Knex.
 */
async function sqliteTransactionConnection(q: Queryable): Promise<SqliteConnection | undefined> {
  if (isMysql(q) || !("isTransaction" in q && q.isTransaction)) return undefined;
  // A transaction's client hands out the transaction's own connection (and releasing it is a no-op).
  return (await q.client.acquireConnection()) as SqliteConnection;
}

const SQL_NAME = /^[a-z_][a-z0-9_]*$/;

function sqliteInsert(conn: SqliteConnection, table: string, row: Record<string, unknown>): number {
  const columns = Object.keys(row);
  // Column names come from this module's own row objects; the check keeps it so.
  if (!columns.every((column) => SQL_NAME.test(column))) throw new TypeError(`bad column name in ${columns}`);
  const sql = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  const values = columns.map((column) => {
    const value = row[column];
    return value === undefined ? null : typeof value === "boolean" ? Number(value) : value;
  });
  return Number(conn.prepare(sql).run(...values).lastInsertRowid);
}

export async function findMessage(q: Queryable, realmId: number, id: number): Promise<MessageRow | undefined> {
  return q<MessageRow>("messages").where({ realm_id: realmId, id }).first();
}

export async function findUserMessageFlags(
  q: Queryable,
  userId: number,
  messageId: number,
): Promise<number | undefined> {
  const row = await q("user_messages").where({ user_id: userId, message_id: messageId }).first("flags");
  return row?.flags;
}

/** Ids per `IN (…)` list: well under SQLite's bound on parameters per statement. */
const IDS_PER_STATEMENT = 500;

/** The user's own rows among these messages: message id → flags. */
export async function userMessageFlagsFor(
  q: Queryable,
  userId: number,
  messageIds: number[],
): Promise<Map<number, number>> {
  const flags = new Map<number, number>();
  for (let i = 0; i < messageIds.length; i += IDS_PER_STATEMENT) {
    const rows: { message_id: number; flags: number }[] = await q("user_messages")
      .where("user_id", userId)
      .whereIn("message_id", messageIds.slice(i, i + IDS_PER_STATEMENT))
      .select("message_id", "flags");
    for (const row of rows) flags.set(Number(row.message_id), Number(row.flags));
  }
  return flags;
}

/** Sets or clears one flag bit on the user's rows of these messages. */
export async function setUserMessageFlag(
  q: Queryable,
  userId: number,
  messageIds: number[],
  bit: number,
  on: boolean,
): Promise<void> {
  for (let i = 0; i < messageIds.length; i += IDS_PER_STATEMENT) {
    await q("user_messages")
      .where("user_id", userId)
      .whereIn("message_id", messageIds.slice(i, i + IDS_PER_STATEMENT))
      .update({ flags: on ? q.raw("flags | ?", [bit]) : q.raw("flags & ?", [~bit & 0x7fffffff]) });
  }
}

/** Messages of the realm by id (any order). */
export async function findMessagesByIds(q: Queryable, realmId: number, ids: number[]): Promise<MessageRow[]> {
  const rows: MessageRow[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    rows.push(
      ...(await q<MessageRow>("messages")
        .where("realm_id", realmId)
        .whereIn("id", ids.slice(i, i + IDS_PER_STATEMENT))),
    );
  }
  return rows;
}

export async function latestMessageId(q: Queryable, realmId: number): Promise<number> {
  const row = await q("messages").where({ realm_id: realmId }).max<{ m: number | null }[]>({ m: "id" }).first();
  return Number(row?.m ?? -1);
}

/** Conditions a narrow reduces to; built by services/narrow.ts. */
export interface MessageFilter {
  streamId?: number;
  topic?: string;
  senderId?: number;
  dmKey?: string;
  onlyDms?: boolean;
  onlyStreams?: boolean;
  messageId?: number;
  requireFlag?: number;
  /** Only messages the user has not read. */
  unread?: boolean;
  /** Read whole channel history (public history), not only the user's own rows. */
  historical?: boolean;
  /** Full-text terms (the `search` operator), all required: see messageSearch.ts. */
  search?: SearchTerm[];
}

export interface FetchedMessage extends MessageRow {
  flags: number | null;
}

function applyFilter(q: Queryable, query: Knex.QueryBuilder, filter: MessageFilter): Knex.QueryBuilder {
  if (filter.streamId !== undefined) query.where("m.stream_id", filter.streamId);
  if (filter.topic !== undefined) query.where("m.topic_key", nameKey(filter.topic));
  if (filter.senderId !== undefined) query.where("m.sender_id", filter.senderId);
  if (filter.dmKey !== undefined) query.where("m.dm_key", filter.dmKey);
  if (filter.onlyDms) query.where("m.type", "private");
  if (filter.onlyStreams) query.where("m.type", "stream");
  if (filter.messageId !== undefined) query.where("m.id", filter.messageId);
  if (filter.requireFlag !== undefined) query.whereRaw("(um.flags & ?) <> 0", [filter.requireFlag]);
  if (filter.unread) query.whereRaw("(um.flags & ?) = 0", [FLAG_BITS.read]);
  if (filter.search) whereMatches(query, q, filter.search);
  return query;
}

function baseQuery(q: Queryable, realmId: number, userId: number, filter: MessageFilter): Knex.QueryBuilder {
  const query = q("messages as m");
  // A channel's messages are all in the channel's organization, where the narrow found it. Without
  // the redundant realm condition MariaDB's optimizer has two fewer indexes to weigh on every read.
  if (filter.streamId === undefined) query.where("m.realm_id", realmId);
  if (filter.historical) {
    query.leftJoin("user_messages as um", function () {
      this.on("um.message_id", "=", "m.id").andOn("um.user_id", "=", q.raw("?", [userId]));
    });
  } else {
    query.join("user_messages as um", "um.message_id", "m.id").where("um.user_id", userId);
  }
  return applyFilter(q, query, filter).select("m.*", "um.flags");
}

/**
 * Messages around an anchor: `before` ids < anchor (oldest first) and `after` ids >= anchor (> without
 * it). Anchor Infinity: the newest messages, read without an id bound (which spares the optimizer a range).
 */
export async function fetchMessageWindow(
  q: Queryable,
  realmId: number,
  userId: number,
  filter: MessageFilter,
  anchor: number,
  before: number,
  after: number,
  includeAnchor: boolean,
): Promise<{ before: FetchedMessage[]; after: FetchedMessage[] }> {
  const older = () => {
    const query = baseQuery(q, realmId, userId, filter);
    if (anchor !== Infinity) query.where("m.id", "<", anchor);
    return query.orderBy("m.id", "desc").limit(before);
  };
  const newer = () =>
    baseQuery(q, realmId, userId, filter)
      .where("m.id", includeAnchor ? ">=" : ">", anchor)
      .orderBy("m.id", "asc")
      .limit(after + (includeAnchor ? 1 : 0));
  const wantOlder = before > 0;
  const wantNewer = (after > 0 || includeAnchor) && anchor !== Infinity;
  if (!wantNewer) return { before: wantOlder ? ((await older()) as FetchedMessage[]).reverse() : [], after: [] };
  if (!wantOlder) return { before: [], after: (await newer()) as FetchedMessage[] };
  // Both sides in one statement, one round trip. MySQL takes the two ordered, limited selects in
  // parentheses; SQLite only as derived tables. The union's row order is unspecified: sorted here.
  const rows: FetchedMessage[] = isMysql(q)
    ? await q.unionAll([older(), newer()], true)
    : await q
        .select("*")
        .from(older().as("older"))
        .unionAll(q.select("*").from(newer().as("newer")));
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  const split = rows.findIndex((row) => Number(row.id) >= anchor);
  return split === -1 ? { before: rows, after: [] } : { before: rows.slice(0, split), after: rows.slice(split) };
}

export async function firstUnreadId(
  q: Queryable,
  realmId: number,
  userId: number,
  filter: MessageFilter,
): Promise<number | undefined> {
  const row = await baseQuery(q, realmId, userId, { ...filter, historical: false })
    .whereRaw("(um.flags & ?) = 0", [FLAG_BITS.read])
    .orderBy("m.id", "asc")
    .first();
  return row?.id;
}

export interface UnreadRow {
  id: number;
  type: MessageRow["type"];
  stream_id: number | null;
  topic: string;
  dm_key: string | null;
  flags: number;
}

/** The user's newest unread messages, newest first, at most `limit`. */
export async function unreadMessagesOf(q: Queryable, userId: number, limit: number): Promise<UnreadRow[]> {
  const rows: UnreadRow[] = await q("user_messages as um")
    .join("messages as m", "m.id", "um.message_id")
    .where("um.user_id", userId)
    .whereRaw("(um.flags & ?) = 0", [FLAG_BITS.read])
    .orderBy("um.message_id", "desc")
    .limit(limit)
    .select("m.id", "m.type", "m.stream_id", "m.topic", "m.dm_key", "um.flags");
  return rows.map((r) => ({ ...r, id: Number(r.id), flags: Number(r.flags) }));
}

/** Ids of the messages the user has starred, oldest first. */
export async function starredMessageIds(q: Queryable, userId: number): Promise<number[]> {
  const rows: { message_id: number }[] = await q("user_messages")
    .where("user_id", userId)
    .whereRaw("(flags & ?) <> 0", [FLAG_BITS.starred])
    .orderBy("message_id", "asc")
    .select("message_id");
  return rows.map((r) => Number(r.message_id));
}

export async function userMessageRecipients(
  q: Queryable,
  messageId: number,
): Promise<{ user_id: number; flags: number }[]> {
  return q("user_messages").where({ message_id: messageId }).select("user_id", "flags");
}

/** Who has sent a message to this topic of the channel (for `@**topic**`). */
export async function topicSenderIds(q: Queryable, streamId: number, topic: string): Promise<number[]> {
  const rows: { sender_id: number }[] = await q("messages")
    .where({ stream_id: streamId, topic_key: nameKey(topic) })
    .distinct("sender_id");
  return rows.map((r) => r.sender_id);
}

/** Does the channel already have a message in this topic (names compared by key)? */
export async function topicHasMessages(q: Queryable, streamId: number, topic: string): Promise<boolean> {
  const row = await q("messages")
    .where({ stream_id: streamId, topic_key: nameKey(topic) })
    .first("id");
  return row !== undefined;
}
