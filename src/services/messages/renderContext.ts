// What a message is rendered against, read from the database in one place (the renderer itself,
// markdown.ts, is pure): the realm's linkifiers, custom emoji, and the users and groups the content
// names in mentions. Lookups are skipped when the content cannot use them.
import type { Queryable } from "../../db/knex";
import { findMentionableGroupsByNames } from "../../db/groups";
import { listRealmEmoji } from "../../db/realmEmoji";
import { bool, type RealmRow } from "../../db/rows";
import { findStreamByName } from "../../db/streams";
import { findActiveUsersByFullNames, findUsersByIds } from "../../db/users";
import { activeLinkifiers } from "../linkifiers/active";
import type { CustomEmoji, MentionableUser, RenderContext } from "../../markdown/rules/context";

async function customEmoji(q: Queryable, realmId: number): Promise<Map<string, CustomEmoji>> {
  const byName = new Map<string, CustomEmoji>();
  for (const row of await listRealmEmoji(q, realmId)) {
    if (bool(row.deactivated)) continue;
    byName.set(row.name, { id: row.id, url: `/user_avatars/${realmId}/emoji/images/${row.file_name}` });
  }
  return byName;
}

// Candidate mention names, bounded in length so the scan stays linear.
const USER_MENTION = /@_?\*\*([^*\n]{1,100})\*\*/g;
const GROUP_MENTION = /@_?\*([^*\n]{1,100})\*/g;

async function mentionableUsers(q: Queryable, realmId: number, content: string): Promise<RenderContext["users"]> {
  const names: string[] = [];
  const ids: number[] = [];
  for (const [, text] of content.matchAll(USER_MENTION)) {
    const idPart = /\|(\d{1,10})$/.exec(text);
    if (idPart) ids.push(Number(idPart[1]));
    else names.push(text);
  }
  if (names.length === 0 && ids.length === 0) return undefined;
  const rows = [...(await findActiveUsersByFullNames(q, realmId, names)), ...(await findUsersByIds(q, realmId, ids))];
  const byName = new Map<string, MentionableUser[]>();
  const byId = new Map<number, MentionableUser>();
  for (const row of rows) {
    if (!bool(row.is_active) || byId.has(row.id)) continue;
    const user = { id: row.id, fullName: row.full_name };
    byId.set(row.id, user);
    const key = row.full_name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), user]);
  }
  return { byName, byId };
}

async function mentionableGroups(q: Queryable, realmId: number, content: string): Promise<RenderContext["groups"]> {
  const names = [...content.matchAll(GROUP_MENTION)].map((m) => m[1]);
  if (names.length === 0) return undefined;
  const groups = new Map<string, { id: number; name: string }>();
  for (const row of await findMentionableGroupsByNames(q, realmId, names)) {
    if (row.name) groups.set(row.name.toLowerCase(), { id: row.id, name: row.name });
  }
  return groups;
}

// `#**channel**` / `#**channel>topic**`: at most this many distinct channels are looked up.
const CHANNEL_LINK = /#\*\*([^*\n>]{1,100})(?:>[^*\n]{0,100})?\*\*/g;
const MAX_CHANNEL_LOOKUPS = 20;

/** Linkable channels: public ones (a private channel's name is not shown to everyone). */
async function linkableChannels(q: Queryable, realmId: number, content: string): Promise<RenderContext["channels"]> {
  const names = [...new Set([...content.matchAll(CHANNEL_LINK)].map((m) => m[1]))].slice(0, MAX_CHANNEL_LOOKUPS);
  if (names.length === 0) return undefined;
  const channels = new Map<string, { id: number; name: string }>();
  for (const name of names) {
    const row = await findStreamByName(q, realmId, name);
    if (row && !bool(row.is_archived) && !bool(row.invite_only)) {
      channels.set(row.name.toLowerCase(), { id: row.id, name: row.name });
    }
  }
  return channels;
}

export async function resolveRenderContext(q: Queryable, realm: RealmRow, content: string): Promise<RenderContext> {
  const mentions = content.includes("@");
  return {
    linkifiers: await activeLinkifiers(q, realm.id),
    customEmoji: content.includes(":") ? await customEmoji(q, realm.id) : undefined,
    users: mentions ? await mentionableUsers(q, realm.id, content) : undefined,
    groups: mentions ? await mentionableGroups(q, realm.id, content) : undefined,
    channels: content.includes("#**") ? await linkableChannels(q, realm.id, content) : undefined,
  };
}
