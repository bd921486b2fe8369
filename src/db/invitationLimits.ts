// The queries behind the invitation limits (services/invitations/checks.ts): recent email
// invitations counted from their `invited` time, revoked ones included, on the (realm_id, invited)
// index; and the lock that makes one organization's invitation requests count one after another.
import { isMysql } from "./collation";
import type { Queryable } from "./knex";

/**
 * Holds the organization's row until the transaction ends, so concurrent invitation requests
 * count and insert one at a time and cannot together pass a daily limit. It must be the
 * transaction's first statement: MariaDB's snapshot for the counts is taken after it. SQLite has
 * one writer connection, so its transactions already run one at a time.
 */
export async function lockRealmForInvitations(q: Queryable, realmId: number): Promise<void> {
  if (isMysql(q)) await q("realms").where({ id: realmId }).forUpdate().first("id");
}

/** Email invitations created since `since` (seconds) in the realm, or by one user there. */
export async function countEmailInvitationsSince(
  q: Queryable,
  realmId: number,
  since: number,
  invitedBy?: number,
): Promise<number> {
  const query = q("invitations").where({ realm_id: realmId, is_multiuse: false }).andWhere("invited", ">", since);
  if (invitedBy !== undefined) query.andWhere({ invited_by_user_id: invitedBy });
  const row = await query.count({ n: "*" }).first();
  return Number(row?.n ?? 0);
}

/** Of `emails` (lower-cased), those with an unrevoked, unexpired email invitation in the realm created since `since`. */
export async function recentPendingInvitations(
  q: Queryable,
  realmId: number,
  emails: string[],
  since: number,
  now: number,
): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows: { email: string }[] = await q("invitations")
    .where({ realm_id: realmId, is_multiuse: false, revoked: false })
    .andWhere("invited", ">", since)
    .andWhere((w) => w.whereNull("expiry_date").orWhere("expiry_date", ">", now))
    .whereRaw(`lower(email) in (${emails.map(() => "?").join(", ")})`, emails)
    .select("email");
  return new Set(rows.map((r) => r.email.toLowerCase()));
}
