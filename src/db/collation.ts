// The collation key columns use on MySQL/MariaDB: byte-for-byte and without trailing-space
// padding, which is how SQLite compares text. Name keys (src/names.ts) carry the case-folding,
// so the database never folds anything itself and both databases give the same answers.
import type { Knex } from "knex";

const PREFERRED = ["utf8mb4_nopad_bin", "utf8mb4_0900_bin"]; // MariaDB ≥ 10.2, MySQL 8

export function isMysql(knex: Knex): boolean {
  return /mysql/.test(String(knex.client.config.client));
}

/** The binary NO PAD collation this server supports (utf8mb4_bin, which pads, as a last resort). */
export async function binaryCollation(knex: Knex): Promise<string> {
  const [rows] = await knex.raw("SHOW COLLATION LIKE 'utf8mb4%bin'");
  const available = new Set((rows as { Collation: string }[]).map((r) => r.Collation));
  return PREFERRED.find((name) => available.has(name)) ?? "utf8mb4_bin";
}
