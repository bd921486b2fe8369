// What the Wekan templates cannot work out themselves. Wekan posts one activity at a time: a
// few ids and names as fields, plus `text`, a ready-made English sentence followed by a link on
// its second line. List, swimlane and board names only appear inside that sentence, so they are
// read from it; activities without a sentence ("JohnFish act-removeList") get a wording of ours.
// Pure: no I/O, no clock.
import { limitMarkdown, nonEmptyText as text, type TransformContext } from "../../src/webhooks/plugin";

/** Longest comment quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 1500;

interface Payload {
  text?: string;
  user?: string;
  card?: string;
  comment?: string;
  listId?: string;
  oldListId?: string;
}

/** Past-tense wording for activities whose `text` is not translated into a sentence. */
const ACTIVITIES: Record<string, string> = {
  createBoard: "created the board",
  importBoard: "imported the board",
  createList: "added a list",
  removeList: "removed a list",
  archivedList: "archived a list",
  restoredList: "restored a list",
  createSwimlane: "added a swimlane",
  archivedSwimlane: "archived a swimlane",
  removeSwimlane: "removed a swimlane",
  createCard: "created a card",
  importCard: "imported a card",
  archivedCard: "archived a card",
  restoredCard: "restored a card",
  removeCard: "deleted a card",
  moveCard: "moved a card",
  moveCardToOtherBoard: "moved a card to another board",
  addComment: "commented on a card",
  editComment: "edited a comment",
  deleteComment: "deleted a comment",
  addAttachment: "added an attachment",
  deleteAttachment: "deleted an attachment",
  addChecklist: "added a checklist",
  removeChecklist: "removed a checklist",
  addChecklistItem: "added a checklist item",
  removedChecklistItem: "removed a checklist item",
  checkedItem: "checked a checklist item",
  uncheckedItem: "unchecked a checklist item",
  completeChecklist: "completed a checklist",
  uncompleteChecklist: "reopened a checklist",
  joinMember: "joined a card",
  unjoinMember: "left a card",
  addBoardMember: "added a member to the board",
  removeBoardMember: "removed a member from the board",
  addedLabel: "added a label",
  removedLabel: "removed a label",
  setCustomField: "changed a custom field",
  "a-dueAt": "changed a due date",
  "a-startAt": "changed a start date",
  "a-endAt": "changed an end date",
  "a-receivedAt": "changed a received date",
};

const quoted = (v: unknown) => (text(v) ? limitMarkdown(String(v).trim(), MAX_QUOTED, "[…]") : "");
const named = (sentence: string, pattern: RegExp) => pattern.exec(sentence)?.[1];

/** "moveCard" → "moved a card"; unknown ones become readable words ("setFooBar" → "set foo bar"). */
export function describeActivity(event: string): string {
  const type = event.replace(/^act-/, "");
  return ACTIVITIES[type] ?? type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const lines = (payload.text ?? "").split(/\r?\n/).map((l) => l.trim());
  const sentence = lines[0] ?? "";
  const url = lines.slice(1).find((l) => /^https?:\/\/\S+$/.test(l));
  const fromList = named(sentence, /\bfrom list "(.*?)"/);
  const toList = named(sentence, /\bto list "(.*?)"/);
  const fromSwimlane = named(sentence, /\bfrom list "[^"\n]*" at swimlane "(.*?)"/);
  const toSwimlane = named(sentence, /\bto list "[^"\n]*" at swimlane "(.*?)"/);
  // A sentence that still contains the raw activity code was never translated by Wekan.
  const translated = sentence !== "" && !/\bact-[A-Za-z-]+/.test(sentence);
  const sameSpot =
    context.event === "act-moveCard" &&
    ((payload.listId !== undefined && payload.listId === payload.oldListId && fromSwimlane === toSwimlane) ||
      (fromList !== undefined && fromList === toList && fromSwimlane === toSwimlane));
  return {
    actor: text(payload.user) ?? "Someone",
    url,
    board: named(sentence, /\bat board "(.*?)"/) ?? named(sentence, /\bto board "(.*?)"/),
    list: toList ?? named(sentence, /\bat list "(.*?)"/),
    fromList,
    toList,
    swimlaneChange: fromSwimlane !== toSwimlane ? toSwimlane : undefined,
    sentence: translated ? sentence : undefined,
    activity: describeActivity(context.event),
    body: quoted(payload.comment),
    skip: sameSpot ? "a card reordered within its list" : "",
  };
}
