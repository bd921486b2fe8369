// The points where other features take part in sending a message, kept in one place so
// send.ts stays readable: topic policy, rendering (linkifiers), and links to uploads.
import type { Queryable } from "../../db/knex";
import type { RealmRow, StreamRow, UserRow } from "../../db/rows";
import { linkableAttachmentIds, linkMessageAttachments } from "../uploads/attachments";
import { usersWhoMuted } from "../../db/mutedUsers";
import { renderMessage, type MentionsFound } from "../../markdown/markdown";
import { alertWordFlagsByUser } from "./alertWordFlags";
import { mentionFlagsByUser } from "./mentionFlags";
import { resolveRenderContext } from "./renderContext";
import { checkCanCreateTopic, checkTopicsPolicy } from "./topicsPolicy";

export const messageHooks = {
  /** Throws when the channel's topic policy refuses this topic, or the sender may not start it. */
  async checkTopic(
    q: Queryable,
    ctx: { realm: RealmRow; sender: UserRow; stream: StreamRow; topic: string },
  ): Promise<void> {
    checkTopicsPolicy(ctx.stream, ctx.topic);
    await checkCanCreateTopic(q, ctx.sender, ctx.stream, ctx.topic);
  },

  /** Markdown → HTML for this realm (linkifiers, custom emoji, mentions… resolved in renderContext.ts). */
  async render(q: Queryable, realm: RealmRow, content: string): Promise<string> {
    return (await messageHooks.renderWithMentions(q, realm, content)).html;
  },

  /** The HTML and what it mentions (users, groups, wildcards), for the recipients' flags. */
  async renderWithMentions(
    q: Queryable,
    realm: RealmRow,
    content: string,
  ): Promise<{ html: string; mentions: MentionsFound }> {
    return renderMessage(content, await resolveRenderContext(q, realm, content));
  },

  /**
   * Extra flag bits per recipient from the message's mentions and their alert words (the sender's
   * own words count too); throws when a wildcard is not allowed.
   */
  async mentionFlags(
    q: Queryable,
    ctx: {
      sender: UserRow;
      stream?: StreamRow;
      topic: string;
      recipientIds: number[];
      mentions: MentionsFound;
      content: string;
    },
  ): Promise<Map<number, number>> {
    const flags = await mentionFlagsByUser(q, ctx);
    const alerted = new Set([...ctx.recipientIds, ctx.sender.id]);
    for (const [userId, bit] of await alertWordFlagsByUser(q, [...alerted], ctx.content))
      flags.set(userId, (flags.get(userId) ?? 0) | bit);
    return flags;
  },

  /** Recipients whose copy starts out read (they muted the sender). */
  async autoReadUserIds(q: Queryable, ctx: { sender: UserRow; recipientIds: number[] }): Promise<number[]> {
    return usersWhoMuted(q, ctx.sender.id, ctx.recipientIds);
  },

  /** Uploads the content links to that the sender may see; read before the write, outside its transaction. */
  async attachmentIds(q: Queryable, ctx: { realm: RealmRow; sender: UserRow; content: string }): Promise<number[]> {
    return linkableAttachmentIds(q, ctx);
  },

  /** Runs in the send transaction after the rows are written (links the message to those uploads). */
  async afterInsert(q: Queryable, ctx: { messageId: number; attachmentIds: number[] }): Promise<void> {
    await linkMessageAttachments(q, ctx.messageId, ctx.attachmentIds);
  },
};
