// POST /register's `realm_user` facts about the current user (who they are, what they may do) and
// `cross_realm_bots` (the system bots, which the reference keeps outside every organization), and
// `recent_private_conversations`.
import crypto from "node:crypto";
import type { Queryable } from "../../db/knex";
import { isUserInGroup } from "../../db/groups";
import { dmParticipantIds } from "../../db/messages";
import { recentDmConversations } from "../../db/recentConversations";
import { bool, ROLE, type RealmRow, type UserRow } from "../../db/rows";
import { listRealmUsers } from "../../db/users";
import { formatUser } from "../users/format";
import { userSettingsState } from "../people/userSettings";

/** DM rows looked at for recent conversations (the reference's 1000). */
export const RECENT_DM_ROWS = 1000;

/** The Gravatar URL the reference gives users without an uploaded avatar. */
function gravatarUrl(email: string, size?: number): string {
  const hash = crypto.createHash("md5").update(email.trim().toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1${size ? `&s=${size}` : ""}`;
}

export async function peopleState(q: Queryable, realm: RealmRow, user: UserRow, _externalUrl: string) {
  const may = (setting: string) => isUserInGroup(q, user.id, (realm[setting] as number | null) ?? null, user.role);
  const canPublic = await may("can_create_public_channel_group");
  const canPrivate = await may("can_create_private_channel_group");
  const systemBots = (await listRealmUsers(q, realm.id)).filter((u) => bool(u.is_system_bot));
  return {
    user_id: user.id,
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    avatar_source: "G",
    avatar_url: gravatarUrl(user.delivery_email),
    avatar_url_medium: gravatarUrl(user.delivery_email, 500),
    is_admin: user.role <= ROLE.administrator,
    is_owner: user.role === ROLE.owner,
    is_moderator: user.role === ROLE.moderator,
    is_guest: user.role === ROLE.guest,
    can_create_streams: canPublic || canPrivate,
    can_create_public_streams: canPublic,
    can_create_private_streams: canPrivate,
    can_create_web_public_streams: await may("can_create_web_public_channel_group"),
    can_subscribe_other_users: await may("can_add_subscribers_group"),
    can_invite_others_to_realm: await may("can_invite_users_group"),
    receives_typing_notifications: (await userSettingsState(q, user)).receives_typing_notifications,
    cross_realm_bots: systemBots.map((bot) => ({
      ...formatUser(bot),
      is_system_bot: true,
      avatar_url: gravatarUrl(bot.email),
    })),
  };
}

export async function recentPrivateConversations(q: Queryable, user: UserRow) {
  return (await recentDmConversations(q, user.id, RECENT_DM_ROWS)).map((c) => ({
    max_message_id: c.max_id,
    // The other participants (none for a conversation with oneself).
    user_ids: dmParticipantIds(c.dm_key).filter((id) => id !== user.id),
  }));
}
