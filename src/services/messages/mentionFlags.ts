// The flags a message's mentions give its recipients, as the reference sets them:
//   `mentioned` — users mentioned by name, and members of mentioned groups;
//   `wildcard_mentioned` + `stream_wildcard_mentioned` — everyone, for @**all**/@**everyone**/@**channel**;
//   `wildcard_mentioned` + `topic_wildcard_mentioned` — the topic's participants, for @**topic**.
// Only recipients get flags. Channel-wide wildcards in a channel with more than 15 subscribers are
// for administrators (the reference's default policy for large channels).
import type { Queryable } from "../../db/knex";
import { memberIdsOfGroups } from "../../db/groups";
import { FLAG_BITS, topicSenderIds } from "../../db/messages";
import { ROLE, type StreamRow, type UserRow } from "../../db/rows";
import { Errors } from "../../errors";
import type { MentionsFound } from "../../markdown/markdown";

export const WILDCARD_MENTION_THRESHOLD = 15;

export async function mentionFlagsByUser(
  q: Queryable,
  ctx: { sender: UserRow; stream?: StreamRow; topic: string; recipientIds: number[]; mentions: MentionsFound },
): Promise<Map<number, number>> {
  const { mentions, recipientIds, stream } = ctx;
  const flags = new Map<number, number>();
  const mentionsAnyone =
    mentions.streamWildcard || mentions.topicWildcard || mentions.userIds.size > 0 || mentions.groupIds.size > 0;
  if (!mentionsAnyone) return flags;
  const add = (userId: number, bits: number) => flags.set(userId, (flags.get(userId) ?? 0) | bits);
  const recipients = new Set(recipientIds);

  if (mentions.streamWildcard) {
    const large = stream !== undefined && recipientIds.length > WILDCARD_MENTION_THRESHOLD;
    if (large && ctx.sender.role > ROLE.administrator) {
      throw Errors.badRequest("You do not have permission to use channel wildcard mentions in this channel.");
    }
    for (const id of recipients) add(id, FLAG_BITS.wildcard_mentioned | FLAG_BITS.stream_wildcard_mentioned);
  }
  if (mentions.topicWildcard) {
    const participants = stream ? await topicSenderIds(q, stream.id, ctx.topic) : recipientIds;
    for (const id of [...participants, ctx.sender.id]) {
      if (recipients.has(id)) add(id, FLAG_BITS.wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned);
    }
  }
  const named = new Set([...mentions.userIds, ...(await memberIdsOfGroups(q, [...mentions.groupIds]))]);
  for (const id of named) if (recipients.has(id)) add(id, FLAG_BITS.mentioned);
  return flags;
}
