// Email invitations and reusable invitation links (one table; `is_multiuse` tells them apart).
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";

export interface InvitationRow {
  id: number;
  realm_id: number;
  is_multiuse: number | boolean;
  email: string | null;
  link_key: string | null;
  invited_by_user_id: number;
  invited_as: number;
  invited: number;
  expiry_date: number | null;
  notify_referrer_on_join: number | boolean;
  include_realm_default_subscriptions: number | boolean;
  stream_ids: string;
  group_ids: string;
  welcome_message_custom_text: string | null;
  revoked: number | boolean;
  /** When an email invitation was accepted (seconds), and the account it made; null until then. */
  used_at?: number | null;
  used_by_user_id?: number | null;
}

export async function insertInvitation(q: Queryable, row: Omit<InvitationRow, "id">): Promise<number> {
  return insertReturningId(q, "invitations", row);
}

/** Unrevoked, unexpired invitations; optionally only those one user created. */
export async function listLiveInvitations(
  q: Queryable,
  realmId: number,
  now: number,
  invitedBy?: number,
): Promise<InvitationRow[]> {
  const query = q<InvitationRow>("invitations")
    .where({ realm_id: realmId, revoked: false })
    .whereNull("used_at")
    .andWhere((w) => w.whereNull("expiry_date").orWhere("expiry_date", ">", now));
  if (invitedBy !== undefined) query.andWhere({ invited_by_user_id: invitedBy });
  return query.orderBy("id");
}

export async function findInvitation(
  q: Queryable,
  realmId: number,
  id: number,
  isMultiuse: boolean,
): Promise<InvitationRow | undefined> {
  return q<InvitationRow>("invitations").where({ realm_id: realmId, id, is_multiuse: isMultiuse }).first();
}

export async function revokeInvitation(q: Queryable, id: number): Promise<void> {
  await q("invitations").where({ id }).update({ revoked: true });
}

/** The invitation a /join/<key>/ link names, in any organization (the caller checks which). */
export async function findInvitationByKey(q: Queryable, key: string): Promise<InvitationRow | undefined> {
  return q<InvitationRow>("invitations").where({ link_key: key }).first();
}

/** An account was made for `email`: its pending email invitations in the realm are used up. */
export async function markInvitationsUsed(
  q: Queryable,
  realmId: number,
  email: string,
  userId: number,
  now: number,
): Promise<void> {
  await q("invitations")
    .where({ realm_id: realmId, is_multiuse: false })
    .whereNull("used_at")
    .whereRaw("lower(email) = ?", [email.toLowerCase()])
    .update({ used_at: now, used_by_user_id: userId });
}
