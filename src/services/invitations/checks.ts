// The checks behind creating invitations: the invitee list, the role one may invite as, the
// channels and groups an invitation may bring the new user into, and the limits on how many
// invitations (and mails) a request, a user and an organization may make.
import type { Queryable } from "../../db/knex";
import { findGroup, isUserInGroup } from "../../db/groups";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { findStreamById } from "../../db/streams";
import { ApiError, Errors } from "../../errors";
import { countEmailInvitationsSince, recentPendingInvitations } from "../../db/invitationLimits";
import { isSubscribed } from "../../db/subscriptions";
import { canSeeChannel } from "../channels/channels";
import { canAddSubscribers } from "../channels/subscriptionAccess";
import type { InviteOptions } from "./invitations";
import { isAdmin, isGuest } from "../users/users";

const insufficient = () => Errors.badRequest("Insufficient permission");

/** Comma/newline separated; `Name <addr>` is accepted; duplicates dropped (case-insensitively). */
export function parseInviteeEmails(raw: string): string[] {
  const seen = new Map<string, string>();
  for (let part of raw.split(/[,\n]/)) {
    part = part.trim();
    const angled = /<([^<>]*)>\s*$/.exec(part);
    if (angled) part = angled[1].trim();
    if (part !== "" && !seen.has(part.toLowerCase())) seen.set(part.toLowerCase(), part);
  }
  return [...seen.values()];
}

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;".]+$/.test(email);
}

/** Roles with equal or stricter restrictions than one's own only. */
export function checkInviteRole(user: UserRow, inviteAs: number): void {
  if (isGuest(user) || inviteAs < user.role) throw insufficient();
}

export async function checkTargets(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  options: InviteOptions,
): Promise<void> {
  const streams = [];
  for (const id of options.streamIds) {
    const stream = await findStreamById(q, realm.id, id);
    const subscribed = stream !== undefined && (await isSubscribed(q, user.id, stream.id));
    if (!stream || bool(stream.is_archived) || !canSeeChannel(user, stream, subscribed)) {
      throw Errors.badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
    streams.push({ stream, subscribed });
  }
  for (const { stream, subscribed } of streams) {
    // Default channels are always fine; others need the permission to subscribe other users.
    if (!bool(stream.is_default_stream) && !(await canAddSubscribers(q, realm, user, stream, subscribed, true))) {
      throw Errors.badRequest("You do not have permission to subscribe other users to channels.");
    }
  }
  for (const id of options.groupIds) {
    const group = await findGroup(q, realm.id, id);
    if (!group || group.name === null || bool(group.deactivated)) throw Errors.badRequest("Invalid user group");
    const mayManage =
      isAdmin(user) ||
      group.creator_id === user.id ||
      (await isUserInGroup(q, user.id, realm.can_manage_all_groups as number | null));
    if (bool(group.is_system_group) || !mayManage) throw insufficient();
  }
}

/** Bounds on email invitations: Config.invitations, from the INVITE_* settings. */
export interface InviteLimits {
  maxAddressesPerRequest: number;
  dailyMaxPerUser: number;
  dailyMaxPerRealm: number;
  resendIntervalSeconds: number;
}

/** The daily limits count the invitations of the last 24 hours, not of a calendar day. */
export const INVITE_LIMIT_WINDOW_SECONDS = 24 * 3600;

export function checkAddressCount(emails: string[], limits: InviteLimits): void {
  const max = limits.maxAddressesPerRequest;
  if (emails.length > max) {
    throw Errors.badRequest(
      `Too many addresses (${emails.length}): at most ${max} can be invited in one request (INVITE_MAX_ADDRESSES_PER_REQUEST). No invites were sent.`,
    );
  }
}

/** "1 hour", "90 minutes", "45 seconds": the resend interval as people read it. */
function duration(seconds: number): string {
  const [value, unit] =
    seconds % 3600 === 0
      ? [seconds / 3600, "hour"]
      : seconds % 60 === 0
        ? [seconds / 60, "minute"]
        : [seconds, "second"];
  return `${value} ${unit}${value === 1 ? "" : "s"}`;
}

/**
 * The `errors` entries for addresses that already have a pending invitation sent within the
 * resend interval: they are not invited (nor mailed) again.
 */
export async function recentlyInvited(
  q: Queryable,
  realmId: number,
  emails: string[],
  limits: InviteLimits,
  now: number,
): Promise<[string, string, boolean][]> {
  if (limits.resendIntervalSeconds === 0) return [];
  const lowered = emails.map((e) => e.toLowerCase());
  const recent = await recentPendingInvitations(q, realmId, lowered, now - limits.resendIntervalSeconds, now);
  const reason = `Already invited less than ${duration(limits.resendIntervalSeconds)} ago (INVITE_RESEND_INTERVAL_SECONDS).`;
  return emails.filter((e) => recent.has(e.toLowerCase())).map((e) => [e, reason, false]);
}

function dailyLimitReached(msg: string, errors: [string, string, boolean][]): ApiError {
  return new ApiError("INVITATION_FAILED", msg, {
    errors,
    sent_invitations: false,
    license_limit_reached: false,
    daily_limit_reached: true,
  });
}

/**
 * Refuses the whole request when inviting `count` more addresses would pass the user's or the
 * organization's limit for the last 24 hours. Revoked invitations count, so revoking one does not
 * give its place back.
 */
export async function checkDailyLimits(
  q: Queryable,
  realmId: number,
  userId: number,
  count: number,
  limits: InviteLimits,
  now: number,
  skipped: [string, string, boolean][],
): Promise<void> {
  const since = now - INVITE_LIMIT_WINDOW_SECONDS;
  const checks = [
    { max: limits.dailyMaxPerUser, who: "you", setting: "INVITE_DAILY_MAX_PER_USER", invitedBy: userId },
    {
      max: limits.dailyMaxPerRealm,
      who: "this organization",
      setting: "INVITE_DAILY_MAX_PER_REALM",
      invitedBy: undefined,
    },
  ];
  for (const { max, who, setting, invitedBy } of checks) {
    const left = Math.max(0, max - (await countEmailInvitationsSince(q, realmId, since, invitedBy)));
    if (count > left) {
      throw dailyLimitReached(
        `To protect users, ${who} can send at most ${max} invitations in 24 hours (${setting}); ` +
          `${left} left now, fewer than the ${count} asked for, so no invitations were sent.`,
        skipped,
      );
    }
  }
}
