// Invitations: email invitations and reusable links. Who may invite (realm group settings),
// as which role (never above your own), to which channels and groups; listing and revoking.
import crypto from "node:crypto";
import type { Db, Queryable } from "../../db/knex";
import { isUserInGroup } from "../../db/groups";
import {
  findInvitation,
  insertInvitation,
  listLiveInvitations,
  revokeInvitation,
  type InvitationRow,
} from "../../db/invitations";
import { bool, nowSeconds, ROLE, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { findUserByEmail, listRealmUsers } from "../../db/users";
import { ApiError, Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import {
  checkAddressCount,
  checkDailyLimits,
  checkInviteRole,
  checkTargets,
  isValidEmail,
  parseInviteeEmails,
  recentlyInvited,
  type InviteLimits,
} from "./checks";
import { lockRealmForInvitations } from "../../db/invitationLimits";
import { isAdmin, isGuest } from "../users/users";
import { realmUrl } from "../realms/realms";

export const INVITE_ROLES = [ROLE.owner, ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest] as const;
export const DEFAULT_INVITE_EXPIRY_MINUTES = 14400;

export interface InviteOptions {
  inviteAs: number;
  expiresInMinutes: number | null;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  welcomeMessageCustomText: string | null;
}

export interface CreatedEmailInvite {
  email: string;
  linkKey: string;
  expiryDate: number | null;
}

const insufficient = () => Errors.badRequest("Insufficient permission");

/** Lower-case letters and digits: the secret part of an invitation link. */
function newLinkKey(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return [...crypto.randomBytes(24)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** The /join/<key>/ page (src/web/joinPage.ts), on the organization's own host. */
export function invitationLink(externalUrl: string, key: string, realm?: Pick<RealmRow, "string_id">): string {
  return `${realm ? realmUrl(realm, externalUrl) : externalUrl}/join/${key}/`;
}

function rowFields(realm: RealmRow, user: UserRow, options: InviteOptions, now: number) {
  return {
    realm_id: realm.id,
    link_key: newLinkKey(),
    invited_by_user_id: user.id,
    invited_as: options.inviteAs,
    invited: now,
    expiry_date: options.expiresInMinutes === null ? null : now + options.expiresInMinutes * 60,
    include_realm_default_subscriptions: options.includeRealmDefaultSubscriptions,
    stream_ids: JSON.stringify(options.streamIds),
    group_ids: JSON.stringify(options.groupIds),
    // Only administrators choose the welcome text; for everyone else the realm default applies.
    welcome_message_custom_text: isAdmin(user) ? options.welcomeMessageCustomText : null,
    revoked: false,
  };
}

/** `invites_changed` for the administrators and the invitation's creator. */
async function invitesChanged(q: Queryable, realmId: number, inviterId: number): Promise<Notification> {
  const admins = (await listRealmUsers(q, realmId))
    .filter((u) => bool(u.is_active) && isAdmin(u) && !bool(u.is_bot))
    .map((u) => u.id);
  return { realmId, userIds: [...new Set([...admins, inviterId])], event: { type: "invites_changed" } };
}

function invitationFailed(msg: string, errors: [string, string, boolean][], sent: boolean): ApiError {
  return new ApiError("INVITATION_FAILED", msg, {
    errors,
    sent_invitations: sent,
    license_limit_reached: false,
    daily_limit_reached: false,
  });
}

export interface EmailInviteResult {
  created: CreatedEmailInvite[];
  /** Addresses skipped (accounts, recent invitations); the caller reports them after commit. */
  skipped: [string, string, boolean][];
  notifications: Notification[];
}

export async function createEmailInvites(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  inviteeEmails: string,
  options: InviteOptions,
  limits: InviteLimits,
): Promise<EmailInviteResult> {
  if (isGuest(user) || !(await isUserInGroup(db, user.id, realm.can_invite_users_group as number | null)))
    throw insufficient();
  checkInviteRole(user, options.inviteAs);
  const emails = parseInviteeEmails(inviteeEmails);
  if (emails.length === 0) throw Errors.badRequest("You must specify at least one email address.");
  checkAddressCount(emails, limits);
  // Every check runs before the first insert: a refused request writes nothing.
  return withTransaction(db, async (trx) => {
    await lockRealmForInvitations(trx, realm.id);
    await checkTargets(trx, realm, user, options);
    const invalid = emails
      .filter((e) => !isValidEmail(e))
      .map((e): [string, string, boolean] => [e, "Invalid address.", false]);
    if (invalid.length > 0)
      throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", invalid, false);
    const skipped: [string, string, boolean][] = [];
    const newcomers: string[] = [];
    for (const email of emails) {
      const existing = await findUserByEmail(trx, realm.id, email);
      if (!existing) newcomers.push(email);
      else if (bool(existing.is_active)) skipped.push([email, "Already has an account.", false]);
      else skipped.push([email, "Account has been deactivated.", true]);
    }
    const now = nowSeconds();
    // Not mailed again within the resend interval, whoever invited them.
    const recent = await recentlyInvited(trx, realm.id, newcomers, limits, now);
    skipped.push(...recent);
    const toInvite = newcomers.filter((e) => !recent.some(([r]) => r === e));
    if (toInvite.length === 0) throw invitationFailed("We weren't able to invite anyone.", skipped, false);
    await checkDailyLimits(trx, realm.id, user.id, toInvite.length, limits, now, skipped);
    const created: CreatedEmailInvite[] = [];
    for (const email of toInvite) {
      const fields = rowFields(realm, user, options, now);
      await insertInvitation(trx, {
        ...fields,
        is_multiuse: false,
        email,
        notify_referrer_on_join: options.notifyReferrerOnJoin,
      });
      created.push({ email, linkKey: fields.link_key, expiryDate: fields.expiry_date });
    }
    return { created, skipped, notifications: [await invitesChanged(trx, realm.id, user.id)] };
  });
}

const ACCOUNT_REASONS = ["Already has an account.", "Account has been deactivated."];

export function partialInviteFailure(skipped: [string, string, boolean][]): ApiError {
  const onlyAccounts = skipped.every(([, reason]) => ACCOUNT_REASONS.includes(reason));
  return invitationFailed(
    onlyAccounts
      ? "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!"
      : "Some of those addresses were not invited (see errors for why). We did send invitations to everyone else!",
    skipped,
    true,
  );
}

export async function createMultiuseInvite(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  options: InviteOptions,
): Promise<{ linkKey: string; notifications: Notification[] }> {
  if (isGuest(user) || !(await isUserInGroup(db, user.id, realm.create_multiuse_invite_group as number | null)))
    throw insufficient();
  checkInviteRole(user, options.inviteAs);
  return withTransaction(db, async (trx) => {
    await checkTargets(trx, realm, user, options);
    const fields = rowFields(realm, user, options, nowSeconds());
    await insertInvitation(trx, { ...fields, is_multiuse: true, email: null, notify_referrer_on_join: true });
    return { linkKey: fields.link_key, notifications: [await invitesChanged(trx, realm.id, user.id)] };
  });
}

export function formatInvitation(
  row: InvitationRow,
  externalUrl: string,
  realm?: Pick<RealmRow, "string_id">,
): Record<string, unknown> {
  const common = {
    id: row.id,
    invited_by_user_id: row.invited_by_user_id,
    invited: Number(row.invited),
    expiry_date: row.expiry_date === null ? null : Number(row.expiry_date),
    invited_as: row.invited_as,
    notify_referrer_on_join: bool(row.notify_referrer_on_join),
    is_multiuse: bool(row.is_multiuse),
  };
  return bool(row.is_multiuse)
    ? { ...common, link_url: invitationLink(externalUrl, row.link_key!, realm) }
    : { ...common, email: row.email };
}

/** Unexpired invitations the user may manage: their own; administrators see everyone's. */
export async function listInvitations(q: Queryable, realm: RealmRow, user: UserRow, externalUrl: string) {
  const rows = await listLiveInvitations(q, realm.id, nowSeconds(), isAdmin(user) ? undefined : user.id);
  return rows.map((r) => formatInvitation(r, externalUrl, realm));
}

export async function revokeInvite(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  id: number,
  isMultiuse: boolean,
): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const invite = await findInvitation(trx, realm.id, id, isMultiuse);
    if (!invite || (!isMultiuse && bool(invite.revoked))) throw Errors.badRequest("No such invitation");
    if (invite.invited_by_user_id !== user.id) {
      if (invite.invited_as === ROLE.owner && user.role !== ROLE.owner)
        throw Errors.badRequest("Must be an organization owner");
      if (!isAdmin(user)) throw Errors.badRequest("Must be an organization administrator");
    }
    if (bool(invite.revoked)) throw Errors.badRequest("Invitation has already been revoked");
    await revokeInvitation(trx, invite.id);
    return [await invitesChanged(trx, realm.id, invite.invited_by_user_id)];
  });
}
