// Shared pieces of the property-based fuzz suites (fast-check): the fixed seed, hostile values,
// the envelope every answer must be, and a snapshot of the main tables' row counts (a refused
// request must leave them as they were).
import fc from "fast-check";
import type { TestServer } from "../support/harness";

/** Fixed unless FUZZ_SEED is set: every run sends the same requests. */
export const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

/** A seed per property (route, integration), so that each one draws its own values. */
export function seedFor(label: string): number {
  let hash = SEED | 0;
  for (const ch of label) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return hash;
}

/** fc.assert with the suite's seed; the failure names the seed and how to replay it. */
export async function check<T>(
  label: string,
  arb: fc.Arbitrary<T>,
  run: (value: T) => Promise<void>,
  numRuns: number,
  /** Counterexamples found before (bugs since fixed): tried first, on every run. */
  regressions: T[] = [],
) {
  const seed = seedFor(label);
  try {
    await fc.assert(fc.asyncProperty(arb, run), {
      seed,
      numRuns,
      includeErrorInReport: true,
      examples: regressions.map((r) => [r] as [T]),
    });
  } catch (err) {
    const hint = `[fuzz] ${label}: seed ${seed} (suite seed FUZZ_SEED=${SEED})`;
    throw new Error(`${hint}\n${(err as Error).message}`, { cause: err });
  }
}

/** A JSON text nested `depth` levels deep (the servers' limit is 100). */
export const nestedJson = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** Strings that have broken parsers, databases and renderers before. */
export const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800", // a lone surrogate (JSON can carry it; UTF-8 cannot)
  "x\udfffy",
  "😀",
  "e\u0301",
  "İı",
  "\u202e", // right-to-left override
  "\r\n",
  "<script>alert(1)</script>",
  "@**all**",
  "[x](javascript:alert(1))",
  "../../etc/passwd",
  "%00",
  "null",
  "true",
  "[]",
  "{}",
  "[[[",
  '{"a":',
  "1e309",
  "-0",
  "NaN",
  "-1",
  "0",
  "9".repeat(40),
  nestedJson(150),
  nestedJson(90),
  "é".repeat(61),
  "x".repeat(70_000),
];

/** Any text: hostile constants, arbitrary code points (lone surrogates included), JSON texts. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
);

export const anyNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double().map(String),
  fc.integer({ min: -2, max: 40 }).map(String),
);

/** A JSON value of any shape, nested a little. */
export const anyJsonValue: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 4 });

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Every answer is the JSON envelope: `result` and `msg`, and `code` on errors; never a 5xx. */
export function expectEnvelope(label: string, answer: Answer): Record<string, unknown> {
  const where = `${label} → ${answer.status} ${answer.text.slice(0, 300)}`;
  if (answer.status >= 500) throw new Error(`5xx: ${where}`);
  if (!answer.contentType.includes("application/json")) throw new Error(`not JSON (${answer.contentType}): ${where}`);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`unparsable JSON: ${where}`);
  }
  const errorAnswer = answer.status >= 400;
  if (body.result !== (errorAnswer ? "error" : "success")) throw new Error(`bad result: ${where}`);
  if (typeof body.msg !== "string") throw new Error(`no msg: ${where}`);
  if (errorAnswer && typeof body.code !== "string") throw new Error(`error without code: ${where}`);
  return body;
}

/** The tables a write fills; a refused write must not change how many rows they hold. */
const MAIN_TABLES = [
  "realms",
  "users",
  "streams",
  "subscriptions",
  "messages",
  "user_messages",
  "reactions",
  "attachments",
  "attachment_messages",
  "realm_emoji",
  "custom_profile_fields",
  "custom_profile_field_values",
  "channel_folders",
  "linkifiers",
  "invitations",
  "muted_users",
  "user_groups",
  "user_group_members",
  "user_group_subgroups",
  "push_device_tokens",
  "client_devices",
  "webhook_overrides",
  "webhook_delivery_claims",
];

export type RowCounts = Record<string, number>;

/**
 * Row counts of the main tables, in one query. `exceptSender`: messages of this sender (the
 * Notification Bot, which tells a bot's owner about a misconfigured webhook by design) are not
 * counted, nor are any user_messages then.
 */
export async function rowCounts(server: TestServer, exceptSender?: number): Promise<RowCounts> {
  const tables = exceptSender === undefined ? MAIN_TABLES : MAIN_TABLES.filter((t) => t !== "user_messages");
  const parts = tables.map((t) =>
    t === "messages" && exceptSender !== undefined
      ? `(SELECT COUNT(*) FROM messages WHERE sender_id <> ${Number(exceptSender)}) AS ${t}`
      : `(SELECT COUNT(*) FROM ${t}) AS ${t}`,
  );
  const result = await server.db.raw(`SELECT ${parts.join(", ")}`);
  const row = (Array.isArray(result) ? (Array.isArray(result[0]) ? result[0][0] : result[0]) : result) as RowCounts;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}
