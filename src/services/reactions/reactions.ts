// Emoji reactions: add (a second user's reaction with the same emoji is a vote for the
// existing one and keeps its name), remove, and the reactions shown on messages.
import type { Db, Queryable } from "../../db/knex";
import { isUniqueViolation } from "../../db/errors";
import { deleteReaction, findReaction, insertReaction, reactionsForMessages } from "../../db/reactions";
import type { RealmRow, UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { ApiError, Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { accessMessage, ensureHistoricalRow, messageAudience, type AccessibleMessage } from "../messages/access";
import {
  checkEmoji,
  emojiByName,
  inferReactionType,
  isKnownEmojiCode,
  normalizeCode,
  type ReactionType,
} from "./emoji";

export interface ReactionInput {
  emojiName?: string;
  emojiCode?: string;
  reactionType?: ReactionType;
}

const alreadyExists = () => new ApiError("REACTION_ALREADY_EXISTS", "Reaction already exists.");
const doesNotExist = () => new ApiError("REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");

async function reactionEvent(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  access: AccessibleMessage,
  op: "add" | "remove",
  emoji: { emoji_name: string; emoji_code: string; reaction_type: string },
): Promise<Notification> {
  const event = {
    type: "reaction",
    op,
    user_id: user.id,
    user: { user_id: user.id, email: user.email, full_name: user.full_name },
    message_id: Number(access.message.id),
    ...emoji,
  };
  return { realmId: realm.id, userIds: await messageAudience(q, access), event };
}

export async function addReaction(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  messageId: number,
  input: ReactionInput & { emojiName: string },
): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const access = await accessMessage(trx, realm, user, messageId);
    let code: string;
    let type: ReactionType;
    if (input.emojiCode === undefined || input.reactionType === undefined) {
      ({ emoji_code: code, reaction_type: type } = await emojiByName(trx, realm.id, input.emojiName));
    } else {
      type = input.reactionType;
      code = normalizeCode(input.emojiCode, type);
    }
    const key = { message_id: messageId, emoji_code: code, reaction_type: type };
    if (await findReaction(trx, { ...key, user_id: user.id })) throw alreadyExists();
    // Voting for an existing reaction reuses its name without re-validating it (it may be a
    // since-deactivated custom emoji); a new reaction must name a valid emoji.
    const existing = await findReaction(trx, key);
    const emoji = existing
      ? { emoji_name: existing.emoji_name, emoji_code: code, reaction_type: type }
      : await checkEmoji(trx, realm.id, input.emojiName, code, type);
    await ensureHistoricalRow(trx, access, user.id);
    try {
      await insertReaction(trx, { message_id: messageId, user_id: user.id, ...emoji });
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyExists();
      throw err;
    }
    return [await reactionEvent(trx, realm, user, access, "add", emoji)];
  });
}

export async function removeReaction(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  messageId: number,
  input: ReactionInput,
): Promise<Notification[]> {
  return withTransaction(db, async (trx) => {
    const access = await accessMessage(trx, realm, user, messageId);
    let code: string;
    let type: ReactionType;
    if (input.emojiCode === undefined) {
      if (input.emojiName === undefined) {
        throw Errors.badRequest("At least one of the following arguments must be present: emoji_name, emoji_code");
      }
      ({ emoji_code: code, reaction_type: type } = await emojiByName(trx, realm.id, input.emojiName));
    } else {
      type =
        input.reactionType ??
        (input.emojiName === undefined
          ? "unicode_emoji"
          : await inferReactionType(trx, realm.id, input.emojiName, input.emojiCode));
      code = normalizeCode(input.emojiCode, type);
    }
    const reaction = await findReaction(trx, {
      message_id: messageId,
      emoji_code: code,
      reaction_type: type,
      user_id: user.id,
    });
    if (!reaction) {
      // Checked only when nothing matched, so a reaction whose emoji has since vanished can go.
      if (!(await isKnownEmojiCode(trx, realm.id, code, type))) throw Errors.badRequest("Invalid emoji code");
      throw doesNotExist();
    }
    await deleteReaction(trx, reaction);
    const emoji = {
      emoji_name: reaction.emoji_name,
      emoji_code: reaction.emoji_code,
      reaction_type: reaction.reaction_type,
    };
    return [await reactionEvent(trx, realm, user, access, "remove", emoji)];
  });
}

/** Reactions per message id, in the shape message objects carry. */
export async function reactionsByMessage(q: Queryable, messageIds: number[]): Promise<Map<number, unknown[]>> {
  const out = new Map<number, unknown[]>();
  for (const r of await reactionsForMessages(q, messageIds)) {
    const id = Number(r.message_id);
    if (!out.has(id)) out.set(id, []);
    out
      .get(id)!
      .push({ emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, user_id: r.user_id });
  }
  return out;
}
