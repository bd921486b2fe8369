// What the Taiga templates cannot work out themselves: the item's label (`#49 Login fails`)
// and kind in words, the facts line of a new item, and `change.diff` turned into the changes a
// reader cares about (side effects such as finish dates, closed flags and ordering dropped;
// Taiga writes missing values as "None"). Pure: no I/O, no clock.
import { limitMarkdown, type TransformContext } from "../../src/webhooks/plugin";

/** Longest description or comment quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 1500;

const KINDS: Record<string, string> = {
  userstory: "user story",
  task: "task",
  issue: "issue",
  epic: "epic",
  milestone: "sprint",
  wikipage: "wiki page",
};
const TOPIC_PREFIX: Record<string, string> = { userstory: "US", task: "Task", issue: "Issue", epic: "Epic" };

/** Fields that change as a side effect of another change, or that say nothing to a reader. */
const NOISE = new Set([
  "is_closed",
  "finish_date",
  "finished_date",
  "modified_date",
  "us_order",
  "taskboard_order",
  "kanban_order",
  "backlog_order",
  "sprint_order",
  "epics_order",
  "is_iocaine",
  "custom_attributes",
  "points",
  "watchers",
  "blocked_note",
  "description_html",
  "content_html",
]);
const FIELD_NAMES: Record<string, string> = {
  subject: "subject",
  due_date: "due date",
  milestone: "sprint",
  estimated_start: "start date",
  estimated_finish: "end date",
  type: "type",
  client_requirement: "client requirement",
  team_requirement: "team requirement",
  user_story: "user story",
};

interface Diff {
  from?: unknown;
  to?: unknown;
  new?: { attached_file?: string; filename?: string; name?: string }[];
  deleted?: { attached_file?: string; filename?: string; name?: string }[];
}

interface Named {
  name?: string;
  full_name?: string;
  username?: string;
}

interface Data {
  ref?: number;
  subject?: string;
  name?: string;
  slug?: string;
  description?: string;
  permalink?: string;
  project?: Named & { permalink?: string };
  status?: Named | null;
  type?: Named | null;
  priority?: Named | null;
  severity?: Named | null;
  assigned_to?: Named | null;
  assigned_users?: unknown[];
  milestone?: Named | null;
  tags?: unknown[];
  due_date?: string | null;
  estimated_start?: string;
  estimated_finish?: string;
  is_blocked?: boolean;
  blocked_note?: string;
}

interface Payload {
  action?: string;
  type?: string;
  by?: Named;
  data?: Data;
  change?: {
    comment?: string;
    diff?: Record<string, Diff>;
    edit_comment_date?: string | null;
    delete_comment_date?: string | null;
  } | null;
}

export interface Change {
  field: string;
  from?: string;
  to?: string;
  long?: boolean;
  added?: string[];
  removed?: string[];
  assignee?: boolean;
  flag?: string;
}

const text = (v: unknown): string | undefined => {
  if (typeof v === "number") return String(v);
  if (typeof v !== "string") return undefined;
  const s = v.trim();
  return s === "" || s === "None" || s === "null" ? undefined : s;
};
const quoted = (v: unknown) => (text(v) ? limitMarkdown(String(v).trim(), MAX_QUOTED, "[…]") : "");
const tagName = (t: unknown) => (Array.isArray(t) ? text(t[0]) : text(t));
const fileName = (f: { attached_file?: string; filename?: string; name?: string }) =>
  text(f.filename) ?? text(f.name) ?? text(f.attached_file?.split("/").pop());

export function describeDiff(diff: Record<string, Diff> | undefined, data: Data): Change[] {
  const changes: Change[] = [];
  for (const [key, d] of Object.entries(diff ?? {})) {
    if (NOISE.has(key) || d === null || d === undefined) continue;
    if (key === "description" || key === "description_diff" || key === "content" || key === "content_diff") {
      if (!changes.some((c) => c.long))
        changes.push({ field: key.startsWith("content") ? "content" : "description", long: true });
    } else if (typeof d !== "object") {
      continue;
    } else if (key === "tags") {
      const before = (Array.isArray(d.from) ? d.from : []).map(tagName).filter((t): t is string => !!t);
      const after = (Array.isArray(d.to) ? d.to : []).map(tagName).filter((t): t is string => !!t);
      const added = after.filter((t) => !before.includes(t));
      const removed = before.filter((t) => !after.includes(t));
      if (added.length + removed.length > 0) changes.push({ field: "tags", added, removed });
    } else if (key === "attachments") {
      const added = (d.new ?? []).map(fileName).filter((n): n is string => !!n);
      const removed = (d.deleted ?? []).map(fileName).filter((n): n is string => !!n);
      if (added.length + removed.length > 0) changes.push({ field: "attachments", added, removed });
    } else if (key === "is_blocked") {
      changes.push({ field: "blocked", flag: d.to === true ? "blocked" : "unblocked", to: text(data.blocked_note) });
    } else if (key === "assigned_to" || key === "assigned_users") {
      const list = (v: unknown) => (Array.isArray(v) ? v.map(text).filter(Boolean).join(", ") : text(v));
      const from = list(d.from) || undefined;
      const to = list(d.to) || undefined;
      if (from !== to) changes.push({ field: "assignee", from, to, assignee: true });
    } else if (typeof d.from === "boolean" || typeof d.to === "boolean") {
      const yes = (v: unknown) => (v === true ? "yes" : "no");
      changes.push({ field: FIELD_NAMES[key] ?? key.replace(/_/g, " "), from: yes(d.from), to: yes(d.to) });
    } else {
      const from = text(d.from);
      const to = text(d.to);
      if (from !== to) changes.push({ field: FIELD_NAMES[key] ?? key.replace(/_/g, " "), from, to });
    }
  }
  return changes;
}

function facts(type: string | undefined, data: Data): { label: string; value: string }[] {
  const list: { label: string; value: string }[] = [];
  const add = (label: string, value: string | undefined) => value && list.push({ label, value });
  if (type === "issue") add("Type", text(data.type?.name));
  add("Status", text(data.status?.name));
  if (type === "issue") {
    add("Priority", text(data.priority?.name));
    add("Severity", text(data.severity?.name));
  }
  add("Assignee", text(data.assigned_to?.full_name) ?? text(data.assigned_to?.username));
  add("Sprint", text(data.milestone?.name));
  const tags = (Array.isArray(data.tags) ? data.tags : []).map(tagName).filter((t): t is string => !!t);
  if (tags.length > 0) add("Tags", tags.join(", "));
  add("Due", text(data.due_date));
  add("Starts", text(data.estimated_start));
  add("Ends", text(data.estimated_finish));
  return list;
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const data = payload.data ?? {};
  const type = context.event;
  const change = payload.change ?? {};
  const changes = context.action === "change" ? describeDiff(change.diff, data) : [];
  const comment = quoted(change.comment);
  const commentState = change.delete_comment_date
    ? "deleted"
    : change.edit_comment_date
      ? "edited"
      : comment
        ? "added"
        : "";
  const title = text(data.subject) ?? text(data.name) ?? text(data.slug);
  const label = typeof data.ref === "number" ? `#${data.ref}${title ? ` ${title}` : ""}` : (title ?? "(untitled)");
  const project = text(payload.data?.project?.name);
  const prefix = TOPIC_PREFIX[type];
  // Sprints are usually named "Sprint 4" already; wiki pages go by their slug.
  const itemTopic = prefix ? `${prefix} ${label}` : type === "wikipage" ? `Wiki ${label}` : label;
  return {
    actor: text(payload.by?.full_name) ?? text(payload.by?.username) ?? "Someone",
    kind: KINDS[type] ?? type,
    label,
    itemTopic: project ? `${project} / ${itemTopic}` : itemTopic,
    body: type === "wikipage" || type === "milestone" ? "" : quoted(data.description),
    facts: context.action === "create" ? facts(type, data) : [],
    changes,
    singleChange: changes.length === 1 ? changes[0] : undefined,
    comment,
    commentState,
    skip: context.action === "change" && changes.length === 0 && commentState === "" ? "nothing visible changed" : "",
  };
}
