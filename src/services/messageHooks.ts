// The points where other features take part in sending a message, kept in one place so
// messages.ts stays readable: topic policy, rendering (linkifiers), and links to uploads.
import type { Queryable } from "../db/knex";
import type { RealmRow, StreamRow, UserRow } from "../db/rows";
import { linkMessageAttachments } from "./attachments";
import { renderWithLinkifiers } from "./linkifierMarkdown";
import { usersWhoMuted } from "../db/mutedUsers";
import { checkTopicsPolicy } from "./topicsPolicy";

export const messageHooks = {
  /** Throws when the channel's topic policy refuses this topic. */
  async checkTopic(_q: Queryable, ctx: { realm: RealmRow; sender: UserRow; stream: StreamRow; topic: string }): Promise<void> {
    checkTopicsPolicy(ctx.stream, ctx.topic);
  },

  /** Markdown → HTML for this realm (linkifiers apply here). */
  async render(q: Queryable, realm: RealmRow, content: string): Promise<string> {
    return renderWithLinkifiers(q, realm.id, content);
  },

  /** Recipients whose copy starts out read (they muted the sender). */
  async autoReadUserIds(q: Queryable, ctx: { sender: UserRow; recipientIds: number[] }): Promise<number[]> {
    return usersWhoMuted(q, ctx.sender.id, ctx.recipientIds);
  },

  /** Runs in the send transaction after the rows are written (e.g. linking attachments). */
  async afterInsert(q: Queryable, ctx: { realm: RealmRow; sender: UserRow; messageId: number; content: string }): Promise<void> {
    await linkMessageAttachments(q, ctx);
  },
};
