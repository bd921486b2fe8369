// What the Linear templates cannot work out themselves: the issue identifier (`WEB-44`, not
// always in the payload), who acted (the newer `actor`, or a comment's author), the facts line of
// a new issue or project, and an update's `updatedFrom` turned into the changes a reader cares
// about (ordering and timestamp bookkeeping dropped). Pure: no I/O, no clock.
import { limitMarkdown, scalarText as text, type TransformContext } from "../../src/webhooks/plugin";

/** Longest description or comment quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 1500;

const PRIORITIES = ["No priority", "Urgent", "High", "Medium", "Low"];
const HEALTH: Record<string, string> = { onTrack: "On track", atRisk: "At risk", offTrack: "Off track" };

interface Named {
  id?: string;
  name?: string;
}

interface Data {
  identifier?: string;
  number?: number;
  title?: string;
  name?: string;
  body?: string | null;
  description?: string | null;
  health?: string;
  priority?: number;
  priorityLabel?: string;
  dueDate?: string | null;
  estimate?: number | null;
  startDate?: string | null;
  targetDate?: string | null;
  url?: string;
  team?: { key?: string };
  state?: Named | null;
  status?: Named | null;
  assignee?: Named | null;
  lead?: Named | null;
  project?: Named | null;
  cycle?: (Named & { number?: number }) | null;
  user?: Named | null;
  labels?: Named[];
  labelIds?: string[];
  issue?: { id?: string; identifier?: string; title?: string; url?: string } | null;
}

interface Payload {
  type?: string;
  action?: string;
  url?: string;
  actor?: Named | null;
  data?: Data;
  updatedFrom?: Record<string, unknown> | null;
}

export interface Change {
  field: string;
  from?: string;
  to?: string;
  /** The old value is not in the payload (Linear sends only the old id): "changed … to B". */
  toOnly?: boolean;
  /** Status, project or cycle: the item moved somewhere ("moved X to status **Done**"). */
  move?: boolean;
  long?: boolean;
  added?: string[];
  removedCount?: number;
  assignee?: boolean;
}

export interface Fact {
  label: string;
  value: string;
}

const has = (o: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const priorityName = (p: unknown) => (typeof p === "number" ? PRIORITIES[p] : undefined);

/** WEB-44 from the payload, the team key and number, or the issue URL. */
export function issueIdentifier(data: Data | undefined, url: string | undefined): string | undefined {
  const own = text(data?.identifier) ?? text(data?.issue?.identifier);
  if (own) return own;
  if (data?.team?.key && typeof data.number === "number") return `${data.team.key}-${data.number}`;
  return /\/issue\/([A-Za-z0-9]+-\d+)/.exec(url ?? "")?.[1];
}

function issueChanges(data: Data, old: Record<string, unknown>): Change[] {
  const changes: Change[] = [];
  if (has(old, "title") && text(old.title) !== text(data.title))
    changes.push({ field: "title", from: text(old.title), to: text(data.title) });
  if (has(old, "stateId")) changes.push({ field: "status", to: text(data.state?.name), toOnly: true, move: true });
  if (has(old, "assigneeId")) changes.push({ field: "assignee", to: text(data.assignee?.name), assignee: true });
  if (has(old, "priority"))
    changes.push({ field: "priority", from: priorityName(old.priority), to: priorityName(data.priority) });
  if (has(old, "labelIds") && Array.isArray(old.labelIds)) {
    const before = old.labelIds as unknown[];
    const current = data.labelIds ?? (data.labels ?? []).map((l) => l.id);
    const added = (data.labels ?? []).filter((l) => !before.includes(l.id)).map((l) => text(l.name) ?? "?");
    const removedCount = before.filter((id) => !current.includes(id as string)).length;
    if (added.length > 0 || removedCount > 0) changes.push({ field: "labels", added, removedCount });
  }
  if (has(old, "dueDate")) changes.push({ field: "due date", from: text(old.dueDate), to: text(data.dueDate) });
  if (has(old, "estimate")) changes.push({ field: "estimate", from: text(old.estimate), to: text(data.estimate) });
  if (has(old, "projectId")) changes.push({ field: "project", to: text(data.project?.name), toOnly: true, move: true });
  if (has(old, "cycleId"))
    changes.push({ field: "cycle", to: text(data.cycle?.name) ?? text(data.cycle?.number), toOnly: true, move: true });
  if (has(old, "description")) changes.push({ field: "description", long: true });
  return changes.filter((c) => c.long || c.toOnly || c.added || c.from !== c.to || c.assignee);
}

function projectChanges(data: Data, old: Record<string, unknown>): Change[] {
  const changes: Change[] = [];
  if (has(old, "name") && text(old.name) !== text(data.name))
    changes.push({ field: "name", from: text(old.name), to: text(data.name) });
  if (has(old, "statusId")) changes.push({ field: "status", to: text(data.status?.name), toOnly: true, move: true });
  if (has(old, "leadId")) changes.push({ field: "lead", to: text(data.lead?.name), toOnly: true });
  if (has(old, "priority"))
    changes.push({ field: "priority", from: priorityName(old.priority), to: priorityName(data.priority) });
  if (has(old, "startDate")) changes.push({ field: "start date", from: text(old.startDate), to: text(data.startDate) });
  if (has(old, "targetDate"))
    changes.push({ field: "target date", from: text(old.targetDate), to: text(data.targetDate) });
  if (has(old, "description")) changes.push({ field: "summary", long: true });
  return changes.filter((c) => c.long || c.toOnly || c.from !== c.to);
}

function facts(type: string | undefined, data: Data): Fact[] {
  const list: Fact[] = [];
  const add = (label: string, value: string | undefined) => value && list.push({ label, value });
  add("Status", text(data.state?.name) ?? text(data.status?.name));
  if (data.priority) add("Priority", text(data.priorityLabel) ?? priorityName(data.priority));
  add(type === "Project" ? "Lead" : "Assignee", text(data.assignee?.name) ?? text(data.lead?.name));
  const labels = (data.labels ?? []).map((l) => text(l.name)).filter((n): n is string => !!n);
  if (labels.length > 0) add("Labels", labels.join(", "));
  add("Project", type === "Issue" ? text(data.project?.name) : undefined);
  add("Estimate", text(data.estimate));
  add("Due", text(data.dueDate));
  add("Start", text(data.startDate));
  add("Target", text(data.targetDate));
  return list;
}

const quoted = (v: unknown) => (text(v) ? limitMarkdown(String(v).trim(), MAX_QUOTED, "[…]") : "");

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const data = payload.data ?? {};
  const old = payload.updatedFrom ?? {};
  const type = payload.type;
  const changes =
    context.action !== "update"
      ? []
      : type === "Issue"
        ? issueChanges(data, old)
        : type === "Project"
          ? projectChanges(data, old)
          : [];
  const itemUrl =
    text(data.issue?.url) ?? (type === "Comment" ? text(payload.url)?.split("#", 1)[0] : text(payload.url));
  return {
    actor: text(payload.actor?.name) ?? text(data.user?.name),
    identifier: issueIdentifier(data, payload.url),
    itemTitle: text(data.title) ?? text(data.issue?.title) ?? text(data.name),
    itemUrl,
    body: quoted(type === "Issue" || type === "Project" ? data.description : data.body),
    health: HEALTH[data.health ?? ""] ?? text(data.health),
    facts: context.action === "create" ? facts(type, data) : [],
    changes,
    singleChange: changes.length === 1 ? changes[0] : undefined,
    // An update with nothing a reader would notice (ordering, timestamps, Linear's own
    // follow-up update right after a project is created).
    skip: context.action === "update" && changes.length === 0 && type !== "Comment" ? "nothing visible changed" : "",
  };
}
