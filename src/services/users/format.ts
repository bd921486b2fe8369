// User rows → the API's user objects.
import { bool, ROLE, type UserRow } from "../../db/rows";

export function formatUser(user: UserRow, options: { viewerIsAdmin?: boolean } = {}): Record<string, unknown> {
  return {
    user_id: user.id,
    email: user.email,
    delivery_email: options.viewerIsAdmin ? user.delivery_email : null,
    full_name: user.full_name,
    date_joined: new Date(Number(user.date_joined) * 1000).toISOString(),
    is_active: bool(user.is_active),
    is_owner: user.role === ROLE.owner,
    is_admin: user.role <= ROLE.administrator,
    is_guest: user.role === ROLE.guest,
    is_billing_admin: false,
    is_bot: bool(user.is_bot),
    bot_type: user.bot_type,
    bot_owner_id: user.bot_owner_id,
    role: user.role,
    timezone: user.timezone,
    avatar_url: null,
    avatar_version: 1,
  };
}
