// Reading messages: narrows, anchors and the access rules for what a user may see.
import type { Queryable } from "../../db/knex";
import {
  FLAG_BITS,
  MENTION_BITS,
  fetchMessageWindow,
  findMessage,
  findUserMessageFlags,
  firstUnreadId,
  type MessageFilter,
} from "../../db/messages";
import { bool, type RealmRow, type UserRow } from "../../db/rows";
import { findUserByEmail, findUserById } from "../../db/users";
import { Errors } from "../../errors";
import { canAccessChannel, getChannelByNameOrId } from "../channels/channels";
import { formatMessages } from "./format";
import { JsonTooDeepError, parseJson } from "../../json";
import { MAX_SEARCH_TERMS } from "../../limits";
import { highlightHtml, highlightTopic, parseSearchTerms } from "./search";

export type Anchor = number | "newest" | "oldest" | "first_unread";

/** The anchor "newest" resolves to (the reference server uses the same sentinel). */
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated?: boolean;
}

function parseNarrow(text: string): NarrowTerm[] {
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw err;
    throw Errors.invalidJsonParam("narrow");
  }
  if (!Array.isArray(parsed)) throw Errors.invalidParam("narrow", "narrow is not a list");
  return parsed.map((term) => {
    if (Array.isArray(term) && term.length === 2) return { operator: String(term[0]), operand: term[1] };
    if (term && typeof term === "object" && "operator" in term && "operand" in term) return term as NarrowTerm;
    throw Errors.invalidParam("narrow", "Invalid narrow operator: each term needs an operator and an operand");
  });
}

async function userFromOperand(q: Queryable, realm: RealmRow, operand: unknown): Promise<UserRow> {
  const user =
    typeof operand === "number"
      ? await findUserById(q, realm.id, operand)
      : await findUserByEmail(q, realm.id, String(operand));
  if (!user) throw Errors.badRequest(`Invalid narrow operator: unknown user '${String(operand)}'`);
  return user;
}

/** Narrow → filter; a channel with public history is read in full (historical messages). */
async function narrowToFilter(
  q: Queryable,
  realm: RealmRow,
  viewer: UserRow,
  terms: NarrowTerm[],
): Promise<MessageFilter> {
  const filter: MessageFilter = {};
  for (const term of terms) {
    if (term.negated) throw Errors.badRequest(`Invalid narrow operator: negated '${term.operator}' is not supported`);
    switch (term.operator) {
      case "stream":
      case "channel": {
        const ref = typeof term.operand === "number" ? term.operand : String(term.operand);
        const stream = await getChannelByNameOrId(q, realm.id, ref);
        if (!(await canAccessChannel(q, viewer, stream)))
          throw Errors.badRequest("Invalid narrow operator: unknown channel");
        filter.streamId = stream.id;
        filter.historical = bool(stream.history_public_to_subscribers) && !bool(stream.invite_only);
        break;
      }
      case "topic":
      case "subject":
        filter.topic = String(term.operand) === "(no topic)" ? "" : String(term.operand);
        break;
      case "sender":
        filter.senderId = (await userFromOperand(q, realm, term.operand)).id;
        break;
      case "dm":
      case "pm-with": {
        const operands = Array.isArray(term.operand)
          ? term.operand
          : String(term.operand)
              .split(",")
              .map((s) => s.trim());
        const ids = new Set<number>([viewer.id]);
        for (const operand of operands) ids.add((await userFromOperand(q, realm, operand)).id);
        filter.dmKey = [...ids].sort((a, b) => a - b).join(",");
        break;
      }
      case "id":
        filter.messageId = Number(term.operand);
        break;
      case "search":
        filter.search = [...(filter.search ?? []), ...parseSearchTerms(term.operand)];
        if (filter.search.length > MAX_SEARCH_TERMS)
          throw Errors.badRequest(`Search has too many words: at most ${MAX_SEARCH_TERMS} (MAX_SEARCH_TERMS)`);
        break;
      case "is":
        if (term.operand === "dm" || term.operand === "private") filter.onlyDms = true;
        else if (term.operand === "starred") filter.requireFlag = FLAG_BITS.starred;
        // Mentioned by name or by a wildcard (@**all**, @**topic**), as the reference counts them.
        else if (term.operand === "mentioned") filter.requireFlag = MENTION_BITS;
        else if (term.operand === "alerted") filter.requireFlag = FLAG_BITS.has_alert_word;
        else if (term.operand === "unread") filter.unread = true;
        else throw Errors.badRequest(`Invalid narrow operator: unknown 'is' operand '${String(term.operand)}'`);
        break;
      default:
        throw Errors.badRequest(`Invalid narrow operator: unknown operator '${term.operator}'`);
    }
  }
  // Unread is a flag of the member's own row: a channel's history they never received is not unread.
  if (filter.unread) filter.historical = false;
  return filter;
}

export interface GetMessagesInput {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: string;
  applyMarkdown: boolean;
}

type WindowInput = Pick<GetMessagesInput, "anchor" | "numBefore" | "numAfter" | "includeAnchor">;

/** The rows of a narrow around an anchor (oldest first), as GET /messages and the flags-by-narrow
 * route both read them, with the anchor resolved and whether either end was reached. */
async function readAroundAnchor(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  filter: Awaited<ReturnType<typeof narrowToFilter>>,
  input: WindowInput,
) {
  let anchor: number;
  // "newest" reads backwards from past any possible id: no need to look up the latest id first.
  if (input.anchor === "newest") anchor = LARGER_THAN_MAX_MESSAGE_ID;
  else if (input.anchor === "oldest") anchor = 0;
  // No unread message: the reference answers as for "newest", with its sentinel as the anchor
  // (zulip-terminal compares the answer's anchor with it).
  else if (input.anchor === "first_unread")
    anchor = (await firstUnreadId(q, realm.id, user.id, filter)) ?? LARGER_THAN_MAX_MESSAGE_ID;
  else anchor = input.anchor;
  const newest = anchor === LARGER_THAN_MAX_MESSAGE_ID;
  const window = await fetchMessageWindow(
    q,
    realm.id,
    user.id,
    filter,
    newest ? Infinity : anchor,
    input.numBefore,
    newest ? 0 : input.numAfter,
    newest ? false : input.includeAnchor,
  );
  const foundAnchor = input.includeAnchor && window.after.length > 0 && Number(window.after[0].id) === anchor;
  const newerWanted = input.numAfter + (foundAnchor ? 1 : 0);
  // The newer side was read with room for the anchor; when the anchor is no message of the narrow,
  // that extra row is one more than num_after asked for.
  const after = window.after.length > newerWanted ? window.after.slice(0, newerWanted) : window.after;
  return {
    anchor,
    rows: [...window.before, ...after],
    foundAnchor,
    foundOldest: window.before.length < input.numBefore || anchor === 0,
    foundNewest: after.length < newerWanted || newest,
  };
}

export async function getMessages(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  input: GetMessagesInput,
): Promise<Record<string, unknown>> {
  const filter = await narrowToFilter(q, realm, user, parseNarrow(input.narrow));
  const { anchor, rows, foundAnchor, foundOldest, foundNewest } = await readAroundAnchor(q, realm, user, filter, input);
  const messages = await formatMessages(q, realm, rows, { applyMarkdown: input.applyMarkdown });
  if (filter.search) {
    rows.forEach((row, i) => {
      messages[i].match_content = highlightHtml(row.rendered_content, filter.search!);
      messages[i].match_subject = highlightTopic(row.topic, filter.search!);
    });
  }
  return {
    anchor: typeof input.anchor === "number" ? input.anchor : anchor,
    found_anchor: foundAnchor,
    found_oldest: foundOldest,
    found_newest: foundNewest,
    history_limited: false,
    messages,
  };
}

/**
 * The ids of the user's own messages (rows, not shared history) in a range of a narrow, oldest
 * first, and whether the range reached either end: what POST /messages/flags/narrow updates.
 */
export async function ownMessageIdsInRange(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  input: Omit<GetMessagesInput, "applyMarkdown">,
): Promise<{ ids: number[]; foundOldest: boolean; foundNewest: boolean }> {
  const filter = { ...(await narrowToFilter(q, realm, user, parseNarrow(input.narrow))), historical: false };
  const { rows, foundOldest, foundNewest } = await readAroundAnchor(q, realm, user, filter, input);
  return { ids: rows.map((row) => Number(row.id)), foundOldest, foundNewest };
}

export async function getSingleMessage(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  messageId: number,
  applyMarkdown: boolean,
): Promise<{ message: Record<string, unknown>; rawContent: string }> {
  const row = await findMessage(q, realm.id, messageId);
  if (!row) throw Errors.invalidMessage();
  let flags = await findUserMessageFlags(q, user.id, messageId);
  if (flags === undefined) {
    // No row of one's own: readable only in a channel whose history is public to the viewer.
    if (row.type !== "stream") throw Errors.invalidMessage();
    const stream = await getChannelByNameOrId(q, realm.id, row.stream_id!);
    if (
      bool(stream.invite_only) ||
      !bool(stream.history_public_to_subscribers) ||
      !(await canAccessChannel(q, user, stream))
    ) {
      throw Errors.invalidMessage();
    }
    flags = 128 | 1; // historical, read
  }
  const [message] = await formatMessages(q, realm, [{ ...row, flags }], { applyMarkdown });
  return { message, rawContent: row.content };
}
