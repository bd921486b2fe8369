// Accepting an invitation (/join/<key>/): the link is checked (its organization is the host's, and it
// is neither expired, revoked nor used), then one transaction creates the account with the
// invitation's role, password, channels and user groups, marks an email invitation used, and, when
// asked, has the Notification Bot tell the referrer. Nothing is written when any check fails.
import type { Db, Queryable } from "../../db/knex";
import { addGroupMembers, findGroup } from "../../db/groups";
import { findInvitationByKey, markInvitationsUsed, type InvitationRow } from "../../db/invitations";
import { findRealmById } from "../../db/realms";
import { bool, nowSeconds, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { findStreamById, listRealmStreams } from "../../db/streams";
import { upsertSubscriptions } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import { findUserByEmail, findUserById } from "../../db/users";
import { ApiError, Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { MAX_FULL_NAME_LENGTH } from "../../limits";
import { normalizeName } from "../../names";
import { subscriptionAddEvents } from "../channels/subscriptionEvents";
import { sendMessageInTransaction } from "../messages/send";
import { assertStrongPassword, storePassword } from "../users/credentials";
import { realmUserAddEvents } from "../users/joinEvents";
import { hashPasswordWithKey, sealApiKey } from "../users/passwords";
import { createUserInTransaction } from "../users/users";
import { isValidEmail } from "./checks";

/** Why a link cannot be used: shown as a page with this status, never a 500. */
export class InvitationUnusable extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface UsableInvitation {
  invitation: InvitationRow;
  realm: RealmRow;
  inviter: UserRow | undefined;
}

const LINK_KEY = /^[a-z0-9]{1,64}$/;

/** The invitation behind `key` if it can be accepted on this organization's host. */
export async function usableInvitation(q: Queryable, key: string, hostSubdomain: string): Promise<UsableInvitation> {
  const invitation = LINK_KEY.test(key) ? await findInvitationByKey(q, key) : undefined;
  if (!invitation)
    throw new InvitationUnusable(404, "This invitation link is not valid. Check that you copied all of it.");
  const realm = await findRealmById(q, invitation.realm_id);
  // A deactivated organization is not cached (findRealmById finds none); both read as unusable.
  if (!realm || bool(realm.deactivated)) throw new InvitationUnusable(410, "This organization has been deactivated.");
  if (realm.string_id !== hostSubdomain)
    throw new InvitationUnusable(
      404,
      "This invitation link belongs to another organization: open it exactly as you received it.",
    );
  if (bool(invitation.revoked))
    throw new InvitationUnusable(410, "This invitation has been revoked. Ask for a new one.");
  if (invitation.expiry_date !== null && Number(invitation.expiry_date) <= nowSeconds())
    throw new InvitationUnusable(410, "This invitation has expired. Ask for a new one.");
  if (invitation.used_at !== null && invitation.used_at !== undefined)
    throw new InvitationUnusable(410, "This invitation has already been used. Sign in instead.");
  if (!bool(invitation.is_multiuse)) {
    const existing = await findUserByEmail(q, realm.id, invitation.email!);
    if (existing)
      throw new InvitationUnusable(410, "There is already an account with this email address. Sign in instead.");
  }
  const inviter = await findUserById(q, realm.id, invitation.invited_by_user_id);
  return { invitation, realm, inviter };
}

export interface JoinInput {
  key: string;
  hostSubdomain: string;
  fullName: string;
  password: string;
  /** Only for a reusable link; an email invitation's address is its own. */
  email?: string;
}

export interface Joined {
  user: UserRow;
  realm: RealmRow;
  notifications: Notification[];
}

/** Errors about the form itself (shown on the form, status 400); link problems are InvitationUnusable. */
export async function acceptInvitation(db: Db, input: JoinInput): Promise<Joined> {
  const first = await usableInvitation(db, input.key, input.hostSubdomain);
  const multiuse = bool(first.invitation.is_multiuse);
  const email = multiuse ? (input.email ?? "").trim() : first.invitation.email!;
  if (multiuse && !isValidEmail(email)) throw Errors.invalidParam("email", "Enter a valid email address.");
  const fullName = normalizeName(input.fullName).trim();
  if (fullName.length === 0) throw Errors.invalidParam("full_name", "Enter your name.");
  if ([...fullName].length > MAX_FULL_NAME_LENGTH)
    throw Errors.invalidParam("full_name", `Your name is too long: the limit is ${MAX_FULL_NAME_LENGTH} characters.`);
  assertStrongPassword(input.password, { delivery_email: email, full_name: fullName });
  // Hashed before the transaction: scrypt takes a while, and no lock should wait for it.
  const { hash, sealingKey } = await hashPasswordWithKey(input.password);
  return withTransaction(db, async (trx) => {
    // Again inside the transaction: a concurrent join may have used the invitation meanwhile.
    const { invitation, realm, inviter } = await usableInvitation(trx, input.key, input.hostSubdomain);
    if (await findUserByEmail(trx, realm.id, email))
      throw Errors.invalidParam("email", "There is already an account with this email address. Sign in instead.");
    let created: { user: UserRow; apiKey: string };
    try {
      created = await createUserInTransaction(trx, realm.id, { email, fullName, role: invitation.invited_as });
    } catch (err) {
      if (err instanceof ApiError) throw Errors.invalidParam("email", err.message);
      throw err;
    }
    const user = created.user;
    await storePassword(trx, {
      user_id: user.id,
      password_hash: hash,
      api_key_sealed: sealApiKey(sealingKey, created.apiKey),
      changed_at: nowSeconds(),
    });
    await markInvitationsUsed(trx, realm.id, email, user.id, nowSeconds());

    const streams = await invitedChannels(trx, realm, invitation);
    if (streams.length > 0)
      await upsertSubscriptions(
        trx,
        streams.map((s) => ({ user_id: user.id, stream_id: s.id })),
      );
    for (const groupId of JSON.parse(invitation.group_ids) as number[]) {
      const group = await findGroup(trx, realm.id, groupId);
      // A group deactivated since the invitation was made is skipped, as a deleted channel is.
      if (group && !bool(group.deactivated) && group.name !== null) await addGroupMembers(trx, group.id, [user.id]);
    }

    const { events: notifications, admins } = await realmUserAddEvents(trx, realm, user);
    if (streams.length > 0)
      notifications.push(...(await subscriptionAddEvents(trx, realm, new Map([[user.id, streams]]))));
    // Only administrators and the inviter list invitations: theirs changed.
    notifications.push({
      realmId: realm.id,
      userIds: [...new Set([...admins, invitation.invited_by_user_id])],
      event: { type: "invites_changed" },
    });
    if (bool(invitation.notify_referrer_on_join) && inviter && bool(inviter.is_active))
      notifications.push(...(await tellReferrer(trx, realm, inviter, user)));
    return { user, realm, notifications };
  });
}

/** The invitation's channels that still exist (and, when asked, the realm's default channels). */
async function invitedChannels(q: Queryable, realm: RealmRow, invitation: InvitationRow): Promise<StreamRow[]> {
  const out = new Map<number, StreamRow>();
  for (const id of JSON.parse(invitation.stream_ids) as number[]) {
    const stream = await findStreamById(q, realm.id, id);
    if (stream && !bool(stream.is_archived)) out.set(stream.id, stream);
  }
  if (bool(invitation.include_realm_default_subscriptions)) {
    for (const stream of await listRealmStreams(q, realm.id))
      if (bool(stream.is_default_stream) && !bool(stream.is_archived)) out.set(stream.id, stream);
  }
  return [...out.values()];
}

/** The reference's notice: a direct message from the Notification Bot to whoever invited the new user. */
async function tellReferrer(
  q: Queryable,
  realm: RealmRow,
  referrer: UserRow,
  joined: UserRow,
): Promise<Notification[]> {
  const bot = realm.notification_bot_id ? await findUserById(q, realm.id, realm.notification_bot_id) : undefined;
  if (!bot) return [];
  const sent = await sendMessageInTransaction(q, {
    realm,
    sender: bot,
    destination: { type: "private", to: [referrer.id] },
    content: `@_**${joined.full_name}|${joined.id}** accepted your invitation to join Zulip!`,
    client: "Internal",
  });
  return sent.notifications;
}
