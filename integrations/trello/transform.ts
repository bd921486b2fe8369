// What the Trello templates cannot work out themselves: links (payloads carry short links, not
// URLs), who acted, and which single thing an `updateCard` / `updateList` / `updateBoard` changed
// (Trello says it through the keys of `data.old`). Position-only moves, cover and background
// changes are reported as `skip`. Pure: no I/O, no clock.
import { limitMarkdown, nonEmptyText as text, type TransformContext } from "../../src/webhooks/plugin";

/** Longest comment or description quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 1500;

interface Named {
  id?: string;
  name?: string;
  shortLink?: string;
  idShort?: number;
  desc?: string;
  due?: string | null;
  start?: string | null;
  closed?: boolean;
  dueComplete?: boolean;
}

interface Data {
  card?: Named;
  board?: Named;
  list?: Named;
  listBefore?: Named;
  listAfter?: Named;
  old?: Record<string, unknown>;
  text?: string;
  action?: { id?: string; text?: string };
  idMember?: string;
}

interface Payload {
  model?: { url?: string; name?: string };
  action?: {
    id?: string;
    type?: string;
    idMemberCreator?: string;
    data?: Data;
    memberCreator?: { fullName?: string; username?: string };
    member?: { fullName?: string; username?: string };
  };
}

/** What an update changed, in the order a reader cares about when Trello sends several keys. */
export type UpdateKind =
  | "moved"
  | "renamed"
  | "archived"
  | "unarchived"
  | "due_set"
  | "due_changed"
  | "due_removed"
  | "due_complete"
  | "due_incomplete"
  | "start_set"
  | "start_removed"
  | "description"
  | "";

const has = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const quoted = (v: unknown) => (text(v) ? limitMarkdown(String(v).trim(), MAX_QUOTED, "[…]") : "");

export function updateKind(data: Data): UpdateKind {
  const old = data.old ?? {};
  const now = data.card ?? data.list ?? data.board ?? {};
  if (has(old, "idList") || (data.listBefore && data.listAfter)) return "moved";
  if (has(old, "closed")) return now.closed === false ? "unarchived" : "archived";
  if (has(old, "name")) return "renamed";
  if (has(old, "due")) return !text(now.due) ? "due_removed" : old.due ? "due_changed" : "due_set";
  if (has(old, "dueComplete")) return now.dueComplete ? "due_complete" : "due_incomplete";
  if (has(old, "start")) return text(now.start) ? "start_set" : "start_removed";
  if (has(old, "desc")) return "description";
  return "";
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const action = payload.action ?? {};
  const data = action.data ?? {};
  const card = data.card ?? {};
  const cardUrl = card.shortLink ? `https://trello.com/c/${encodeURIComponent(card.shortLink)}` : undefined;
  const boardUrl = data.board?.shortLink
    ? `https://trello.com/b/${encodeURIComponent(data.board.shortLink)}`
    : text(payload.model?.url);
  const kind = context.event.startsWith("update") ? updateKind(data) : "";
  const member = text(action.member?.fullName) ?? text(action.member?.username);
  return {
    actor: text(action.memberCreator?.fullName) ?? text(action.memberCreator?.username) ?? "Someone",
    cardUrl,
    boardUrl,
    commentUrl:
      cardUrl && action.id ? `${cardUrl}#comment-${encodeURIComponent(data.action?.id ?? action.id)}` : cardUrl,
    listName: text(data.list?.name) ?? text(data.listAfter?.name),
    member,
    self: data.idMember !== undefined && data.idMember === action.idMemberCreator,
    kind,
    body: quoted(
      context.event === "updateCard" ? card.desc : context.event === "updateComment" ? data.action?.text : data.text,
    ),
    skip:
      ["updateCard", "updateList", "updateBoard"].includes(context.event) && kind === ""
        ? "a position, cover or background change"
        : "",
  };
}
