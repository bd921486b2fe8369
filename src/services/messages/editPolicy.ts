// Who may edit, move and delete which messages: the organization's settings (realms columns) and
// the channel's permission groups, as the reference decides. Errors carry the reference's texts.
import type { Queryable } from "../../db/knex";
import { isUserInGroup } from "../../db/groups";
import { bool, nowSeconds, ROLE, type MessageRow, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { Errors } from "../../errors";

/** The reference allows an edit a little past the limit: its client offers editing until the last moment. */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** The realm's edit-related settings, as `POST /register` shows them (`realm` event type). */
export function editPolicyState(realm: RealmRow): Record<string, unknown> {
  const policy = String(realm.message_edit_history_visibility_policy ?? "all");
  return {
    realm_allow_message_editing: bool(realm.allow_message_editing),
    realm_message_content_edit_limit_seconds: nullableInt(realm.message_content_edit_limit_seconds),
    realm_move_messages_within_stream_limit_seconds: nullableInt(realm.move_messages_within_stream_limit_seconds),
    realm_move_messages_between_streams_limit_seconds: nullableInt(realm.move_messages_between_streams_limit_seconds),
    realm_message_content_delete_limit_seconds: nullableInt(realm.message_content_delete_limit_seconds),
    realm_message_edit_history_visibility_policy: policy,
    realm_allow_edit_history: policy !== "none",
    realm_can_move_messages_between_channels_group: realm.can_move_messages_between_channels_group,
    realm_can_move_messages_between_topics_group: realm.can_move_messages_between_topics_group,
    realm_can_resolve_topics_group: realm.can_resolve_topics_group,
    realm_can_delete_any_message_group: realm.can_delete_any_message_group,
    realm_can_delete_own_message_group: realm.can_delete_own_message_group,
  };
}

function nullableInt(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

const inGroup = (q: Queryable, user: UserRow, groupId: unknown) =>
  isUserInGroup(q, user.id, (groupId as number | null) ?? null, user.role);

/** Moderators and administrators are not bound by the move time limits. */
export function isModeratorOrAbove(user: Pick<UserRow, "role">): boolean {
  return user.role <= ROLE.moderator;
}

/** The content of one's own message, within the organization's limit. */
export function checkCanEditContent(realm: RealmRow, user: UserRow, message: MessageRow): void {
  if (!bool(realm.allow_message_editing)) throw Errors.badRequest("Your organization has turned off message editing");
  if (message.sender_id !== user.id) throw Errors.badRequest("You don't have permission to edit this message");
  const limit = nullableInt(realm.message_content_edit_limit_seconds);
  if (limit !== null && nowSeconds() - Number(message.date_sent) > limit + EDIT_LIMIT_BUFFER_SECONDS)
    throw Errors.badRequest("The time limit for editing this message has past");
}

const RESOLVED_PREFIX = "✔ ";

export function isResolvedTopic(topic: string): boolean {
  return topic.startsWith(RESOLVED_PREFIX);
}

export function unresolvedName(topic: string): string {
  let name = topic;
  while (name.startsWith(RESOLVED_PREFIX)) name = name.slice(RESOLVED_PREFIX.length);
  return name;
}

/** A topic change that only adds or removes the resolved mark. */
export function isResolveOnly(oldTopic: string, newTopic: string): boolean {
  return (
    isResolvedTopic(oldTopic) !== isResolvedTopic(newTopic) && unresolvedName(oldTopic) === unresolvedName(newTopic)
  );
}

/** Renaming a message's topic (or resolving it) within its channel. */
export async function checkCanMoveWithinChannel(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  stream: StreamRow,
  resolveOnly: boolean,
): Promise<void> {
  const allowed = resolveOnly
    ? (await inGroup(q, user, realm.can_resolve_topics_group)) ||
      (await inGroup(q, user, stream.can_resolve_topics_group))
    : (await inGroup(q, user, realm.can_move_messages_between_topics_group)) ||
      (await inGroup(q, user, stream.can_move_messages_within_channel_group));
  if (!allowed) throw Errors.badRequest("You don't have permission to edit this message");
}

/** Moving a message out of its channel. */
export async function checkCanMoveOutOfChannel(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  stream: StreamRow,
): Promise<void> {
  const allowed =
    (await inGroup(q, user, realm.can_move_messages_between_channels_group)) ||
    (await inGroup(q, user, stream.can_move_messages_out_of_channel_group));
  if (!allowed) throw Errors.badRequest("You don't have permission to move this message");
}

/** The time limit a move is bound by (seconds, or null for none): the stricter of the two that apply. */
export function moveTimeLimit(realm: RealmRow, user: UserRow, changesTopic: boolean, changesChannel: boolean) {
  if (isModeratorOrAbove(user)) return null;
  const limits: number[] = [];
  const within = nullableInt(realm.move_messages_within_stream_limit_seconds);
  const between = nullableInt(realm.move_messages_between_streams_limit_seconds);
  if (changesTopic && within !== null) limits.push(within);
  if (changesChannel && between !== null) limits.push(between);
  return limits.length === 0 ? null : Math.min(...limits);
}

/** The reference's rule for deleting a message (its content must be accessible; checked by the caller). */
export async function checkCanDelete(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  message: MessageRow,
  stream: StreamRow | undefined,
  sender: UserRow | undefined,
): Promise<void> {
  if (await inGroup(q, user, realm.can_delete_any_message_group)) return;
  if (stream && (await inGroup(q, user, stream.can_delete_any_message_group))) return;
  const own = message.sender_id === user.id || (sender !== undefined && sender.bot_owner_id === user.id);
  const mayDeleteOwn =
    own &&
    ((await inGroup(q, user, realm.can_delete_own_message_group)) ||
      (stream !== undefined && (await inGroup(q, user, stream.can_delete_own_message_group))));
  if (!mayDeleteOwn) throw Errors.badRequest("You don't have permission to delete this message");
  const limit = nullableInt(realm.message_content_delete_limit_seconds);
  if (limit !== null && nowSeconds() - Number(message.date_sent) > limit)
    throw Errors.badRequest("The time limit for deleting this message has passed");
}
