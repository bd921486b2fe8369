// The checks behind creating invitations: the invitee list, the role one may invite as, and
// the channels and groups an invitation may bring the new user into.
import type { Queryable } from "../../db/knex";
import { findGroup, isUserInGroup } from "../../db/groups";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { findStreamById } from "../../db/streams";
import { Errors } from "../../errors";
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
