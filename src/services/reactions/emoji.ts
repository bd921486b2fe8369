// Emoji names and codes for reactions: Unicode emoji from the one table the Markdown renderer uses
// (src/markdown/rules/emojiData.ts: the reference's names and aliases, its codes without variation
// selectors), the realm's custom emoji (realm_emoji rows, by id) and Zulip's extra emoji (`zulip`).
import type { Queryable } from "../../db/knex";
import { findActiveRealmEmojiByName, findRealmEmojiById } from "../../db/realmEmoji";
import { bool } from "../../db/rows";
import { Errors } from "../../errors";
import { unicodeEmojiByCode, unicodeEmojiByName } from "../../markdown/rules/emojiData";

const codeOfName = (name: string) => unicodeEmojiByName(name)?.code;

/** Is this a Unicode emoji's short name (custom emoji may not take one, except by admins)? */
export function isUnicodeEmojiName(name: string): boolean {
  return unicodeEmojiByName(name) !== undefined;
}

export const REACTION_TYPES = ["unicode_emoji", "realm_emoji", "zulip_extra_emoji"] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];
const EXTRA_EMOJI = new Set(["zulip"]);

export interface ResolvedEmoji {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
}

/** Name only: custom emoji first (as the reference does), then `zulip`, then Unicode. */
export async function emojiByName(q: Queryable, realmId: number, name: string): Promise<ResolvedEmoji> {
  const custom = await findActiveRealmEmojiByName(q, realmId, name);
  if (custom) return { emoji_name: name, emoji_code: String(custom.id), reaction_type: "realm_emoji" };
  if (EXTRA_EMOJI.has(name)) return { emoji_name: name, emoji_code: name, reaction_type: "zulip_extra_emoji" };
  const code = codeOfName(name);
  if (code) return { emoji_name: name, emoji_code: code, reaction_type: "unicode_emoji" };
  throw Errors.badRequest("Invalid emoji name");
}

/** Name and code in a given namespace, checked against each other (new reactions only). */
export async function checkEmoji(
  q: Queryable,
  realmId: number,
  name: string,
  code: string,
  type: ReactionType,
): Promise<ResolvedEmoji> {
  if (type === "realm_emoji") {
    const custom = /^\d+$/.test(code) ? await findRealmEmojiById(q, realmId, Number(code)) : undefined;
    if (!custom) throw Errors.badRequest("Invalid emoji code");
    if (custom.name !== name) throw Errors.badRequest("Invalid emoji name");
    if (bool(custom.deactivated)) throw Errors.badRequest("This custom emoji has been deactivated.");
    return { emoji_name: name, emoji_code: String(custom.id), reaction_type: type };
  }
  if (type === "zulip_extra_emoji") {
    if (!EXTRA_EMOJI.has(code)) throw Errors.badRequest("Invalid emoji code");
    if (name !== code) throw Errors.badRequest("Invalid emoji name");
    return { emoji_name: name, emoji_code: code, reaction_type: type };
  }
  const canonical = unicodeEmojiByCode(code)?.code;
  if (!canonical) throw Errors.badRequest("Invalid emoji code");
  if (codeOfName(name) !== canonical) throw Errors.badRequest("Invalid emoji name");
  return { emoji_name: name, emoji_code: canonical, reaction_type: type };
}

/** Is `code` an emoji of the `type` namespace? Deactivated custom emoji count: their reactions remain. */
export async function isKnownEmojiCode(
  q: Queryable,
  realmId: number,
  code: string,
  type: ReactionType,
): Promise<boolean> {
  if (type === "realm_emoji")
    return /^\d+$/.test(code) && (await findRealmEmojiById(q, realmId, Number(code))) !== undefined;
  if (type === "zulip_extra_emoji") return EXTRA_EMOJI.has(code);
  return unicodeEmojiByCode(code) !== undefined;
}

/**
 * A reaction's type when the client sent a name and a code but no `reaction_type`: inferred from
 * the name as the reference does (custom emoji first). A deactivated custom emoji's name, which
 * no longer resolves, still works together with its own ID as the code.
 */
export async function inferReactionType(
  q: Queryable,
  realmId: number,
  name: string,
  code: string,
): Promise<ReactionType> {
  try {
    return (await emojiByName(q, realmId, name)).reaction_type;
  } catch (err) {
    const custom = /^\d+$/.test(code) ? await findRealmEmojiById(q, realmId, Number(code)) : undefined;
    if (custom?.name === name) return "realm_emoji";
    throw err;
  }
}

/** A code as clients may send it for an existing reaction, in the form we store. */
export function normalizeCode(code: string, type: ReactionType): string {
  return type === "unicode_emoji" ? (unicodeEmojiByCode(code)?.code ?? code.toLowerCase()) : code;
}
