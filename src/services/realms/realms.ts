// Creating organizations: the realm row, its system groups, its owner and its Notification Bot.
import type { Db, Queryable } from "../../db/knex";
import { addSubgroups, insertGroup } from "../../db/groups";
import { findRealmById, findRealmBySubdomain, insertRealm, updateRealm } from "../../db/realms";
import { bool, BOT_TYPE, ROLE, type RealmRow, type UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { ApiError } from "../../errors";
import { createUserInTransaction } from "../users/users";

/** System groups, narrowest first; each one contains the previous one as a subgroup. */
export const SYSTEM_GROUP_CHAIN = [
  "role:owners",
  "role:administrators",
  "role:moderators",
  "role:fullmembers",
  "role:members",
  "role:everyone",
  "role:internet",
] as const;

/** Realm-level permission settings; each is a column of `realms` holding a user group id. */
export const REALM_GROUP_SETTINGS = [
  "can_create_public_channel_group",
  "can_create_private_channel_group",
  "can_create_web_public_channel_group",
  "can_add_subscribers_group",
  "can_invite_users_group",
  "can_create_groups",
  "can_manage_all_groups",
  "create_multiuse_invite_group",
  "can_add_custom_emoji_group",
  "can_create_bots_group",
  "can_create_write_only_bots_group",
  "can_move_messages_between_channels_group",
  "can_move_messages_between_topics_group",
  "can_resolve_topics_group",
  "can_delete_any_message_group",
  "can_delete_own_message_group",
] as const;

/** Default realm permission settings (system group names). */
const REALM_SETTING_DEFAULTS: Record<(typeof REALM_GROUP_SETTINGS)[number], string> = {
  can_create_public_channel_group: "role:members",
  can_create_private_channel_group: "role:members",
  can_create_web_public_channel_group: "role:owners",
  can_add_subscribers_group: "role:members",
  can_invite_users_group: "role:members",
  can_create_groups: "role:members",
  can_manage_all_groups: "role:owners",
  create_multiuse_invite_group: "role:administrators",
  can_add_custom_emoji_group: "role:members",
  can_create_bots_group: "role:members",
  can_create_write_only_bots_group: "role:members",
  can_move_messages_between_channels_group: "role:members",
  can_move_messages_between_topics_group: "role:everyone",
  can_resolve_topics_group: "role:everyone",
  can_delete_any_message_group: "role:administrators",
  can_delete_own_message_group: "role:everyone",
};

async function createSystemGroups(q: Queryable, realmId: number): Promise<Record<string, number>> {
  const nobody = await insertGroup(q, {
    realm_id: realmId,
    name: "role:nobody",
    description: "Nobody",
    is_system_group: true,
  });
  const ids: Record<string, number> = { "role:nobody": nobody };
  let previous: number | undefined;
  for (const name of SYSTEM_GROUP_CHAIN) {
    const id = await insertGroup(q, {
      realm_id: realmId,
      name,
      description: `System group ${name}`,
      is_system_group: true,
    });
    if (previous !== undefined) await addSubgroups(q, id, [previous]);
    ids[name] = id;
    previous = id;
  }
  return ids;
}

export interface NewRealm {
  subdomain: string;
  name: string;
  owner: { email: string; fullName: string };
}

export interface CreatedRealm {
  realm: RealmRow;
  owner: UserRow;
  ownerApiKey: string;
}

export async function createRealm(db: Db, input: NewRealm): Promise<CreatedRealm> {
  if (!/^[a-z0-9-]{0,40}$/.test(input.subdomain)) {
    throw new ApiError("BAD_REQUEST", "Subdomain may contain only lowercase letters, digits and dashes (at most 40)");
  }
  return withTransaction(db, async (trx) => {
    if (await findRealmBySubdomain(trx, input.subdomain)) {
      throw new ApiError("BAD_REQUEST", `An organization with subdomain '${input.subdomain}' already exists`);
    }
    const realmId = await insertRealm(trx, { string_id: input.subdomain, name: input.name });
    const groups = await createSystemGroups(trx, realmId);
    const settings = Object.fromEntries(Object.entries(REALM_SETTING_DEFAULTS).map(([k, group]) => [k, groups[group]]));
    await updateRealm(trx, realmId, settings);
    const owner = await createUserInTransaction(trx, realmId, {
      email: input.owner.email,
      fullName: input.owner.fullName,
      role: ROLE.owner,
    });
    const botDomain = input.owner.email.split("@")[1] ?? "localhost";
    const notificationBot = await createUserInTransaction(trx, realmId, {
      email: `notification-bot@${botDomain}`,
      fullName: "Notification Bot",
      role: ROLE.member,
      botType: BOT_TYPE.embedded,
      isSystemBot: true,
    });
    await updateRealm(trx, realmId, { notification_bot_id: notificationBot.user.id });
    const realm = (await findRealmById(trx, realmId))!;
    return { realm, owner: owner.user, ownerApiKey: owner.apiKey };
  });
}

/** The organization on this subdomain ('' = the root domain), or undefined. */
export async function findRealm(q: Queryable, subdomain: string): Promise<RealmRow | undefined> {
  return findRealmBySubdomain(q, subdomain);
}

/** The organization's URL: its subdomain of the server's external URL (the root domain's is the URL). */
export function realmUrl(realm: Pick<RealmRow, "string_id">, externalUrl: string): string {
  return realm.string_id ? externalUrl.replace("://", `://${realm.string_id}.`) : externalUrl;
}

/** Where this server serves the default organization icon (src/api/realmIcon.ts). */
export const DEFAULT_REALM_ICON_PATH = "/static/images/realm-icon.png";

/** The organization's icon URL (the default one: icons cannot be uploaded yet). */
export const realmIconUrl = (url: string) => `${url}${DEFAULT_REALM_ICON_PATH}?version=1`;

/** What GET /server_settings tells anyone about the organization on a subdomain ({} when none). */
export async function publicRealmInfo(
  q: Queryable,
  subdomain: string,
  externalUrl: string,
): Promise<Record<string, unknown>> {
  const realm = await findRealmBySubdomain(q, subdomain);
  if (!realm) return {};
  const url = realmUrl(realm, externalUrl);
  return {
    realm_url: url,
    realm_uri: url,
    realm_name: realm.name,
    realm_icon: realmIconUrl(url),
    realm_description: realm.description,
    realm_web_public_access_enabled: bool(realm.enable_spectator_access),
  };
}

export async function setRealmDeactivated(db: Db, subdomain: string, deactivated: boolean): Promise<RealmRow> {
  const realm = await findRealmBySubdomain(db, subdomain);
  if (!realm) throw new ApiError("BAD_REQUEST", `No organization with subdomain '${subdomain}'`);
  await updateRealm(db, realm.id, { deactivated });
  return { ...realm, deactivated };
}
