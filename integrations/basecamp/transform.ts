// What the Basecamp templates cannot work out themselves. Basecamp names every event
// `<recording type>_<action>` (`todo_created`, `question_answer_created`,
// `kanban_card_moved`…), sends rich text as HTML and the people assigned as a list: this splits
// the kind, words it, converts the HTML and names the item a comment belongs to.
// Pure: no I/O, no clock.
import { limitMarkdown, nonEmptyText as text, type TransformContext } from "../../src/webhooks/plugin";
import { htmlToMarkdown } from "./html";

/** Longest text quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 1500;

/** Recording types, longest first so `question_answer` wins over `question`. */
const TYPES: [string, string][] = [
  ["question_answer", "check-in answer"],
  ["schedule_entry", "event"],
  ["kanban_card", "card"],
  ["kanban_step", "step"],
  ["kanban_column", "column"],
  ["cloud_file", "file"],
  ["client_approval", "client approval"],
  ["client_correspondence", "client message"],
  ["client_reply", "client reply"],
  ["inbox_forward", "forwarded email"],
  ["todolist", "to-do list"],
  ["todo", "to-do"],
  ["message", "message"],
  ["comment", "comment"],
  ["document", "document"],
  ["upload", "file"],
  ["vault", "folder"],
  ["question", "check-in question"],
];

/** Actions whose wording is not simply the action with underscores as spaces. */
const VERBS: Record<string, string> = {
  created: "created",
  completed: "completed",
  uncompleted: "reopened",
  archived: "archived",
  unarchived: "unarchived",
  trashed: "trashed",
  content_changed: "edited",
  title_changed: "renamed",
  description_changed: "updated the description of",
  assignment_changed: "changed who is assigned to",
  due_date_changed: "changed the due date of",
  starts_on_changed: "changed the start date of",
  copied: "copied",
  moved: "moved",
  publicized: "shared with clients",
};

/** Bookkeeping Basecamp reports as events of their own. */
const SKIPPED_ACTIONS = new Set(["subscribers_changed", "notify_changed"]);

interface Person {
  name?: string;
}

interface Recording {
  type?: string;
  title?: string;
  content?: string;
  description?: string;
  app_url?: string;
  due_on?: string | null;
  starts_at?: string;
  assignees?: Person[];
  parent?: { title?: string; type?: string; app_url?: string };
  bucket?: { name?: string };
}

interface Payload {
  kind?: string;
  creator?: Person;
  recording?: Recording;
}

export function splitKind(kind: string): { type: string; action: string } {
  const known = TYPES.find(([t]) => kind.startsWith(`${t}_`));
  if (known) return { type: known[0], action: kind.slice(known[0].length + 1) };
  const at = kind.indexOf("_");
  return at < 0 ? { type: kind, action: "" } : { type: kind.slice(0, at), action: kind.slice(at + 1) };
}

const typeWord = (type: string) => TYPES.find(([t]) => t === type)?.[1] ?? type.replace(/_/g, " ");
/** Basecamp's class names for the parent of a comment or answer. */
const PARENT_TYPES: Record<string, string> = {
  Todo: "to-do",
  Todolist: "to-do list",
  Message: "message",
  Document: "document",
  Upload: "file",
  Question: "check-in question",
  "Question::Answer": "check-in answer",
  "Schedule::Entry": "event",
  "Kanban::Card": "card",
  Vault: "folder",
};

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const { type, action } = splitKind(context.event);
  const recording = payload.recording ?? {};
  // A comment or an answer belongs to its parent: that is what it is about and where it is filed.
  const onParent = type === "comment" || type === "question_answer";
  const item = onParent
    ? {
        title: text(recording.parent?.title),
        url: text(recording.parent?.app_url),
        kind: PARENT_TYPES[recording.parent?.type ?? ""] ?? "",
      }
    : { title: text(recording.title), url: text(recording.app_url), kind: typeWord(type) };
  // To-dos and cards carry their title as `content`; their text is the `description`.
  const titled = type === "todo" || type === "todolist" || type === "kanban_card" || type === "schedule_entry";
  const shown = action === "created" || action === "content_changed" || action === "description_changed";
  const body = shown ? htmlToMarkdown(titled ? recording.description : recording.content) : "";
  const assignees = (recording.assignees ?? []).map((p) => text(p.name)).filter((n): n is string => !!n);
  return {
    actor: text(payload.creator?.name) ?? "Someone",
    type,
    action,
    typeWord: typeWord(type),
    verb: VERBS[action] ?? action.replace(/_/g, " "),
    subject: item,
    project: text(recording.bucket?.name),
    // Where a new to-do or card landed: its list or column.
    container:
      !onParent && text(recording.parent?.title)
        ? { title: text(recording.parent?.title), url: text(recording.parent?.app_url) }
        : undefined,
    body: body ? limitMarkdown(body, MAX_QUOTED, "[…]") : "",
    assignees,
    skip: SKIPPED_ACTIONS.has(action) ? `${action} is bookkeeping` : "",
  };
}
