// What the Clubhouse (Shortcut) templates cannot work out themselves. A delivery is a list of
// actions plus `references` (names of the workflow states, projects, epics and labels the actions
// point to by id). The first action is the primary one (it names the event); this finds the story
// or epic it belongs to and turns `changes` into readable lines with the referenced names.
// Pure: no I/O, no clock.
import { limitMarkdown, scalarText as text, type TransformContext } from "../../src/webhooks/plugin";

/** Longest description or comment quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 1500;

type Id = number | string;

interface Ref {
  id?: Id;
  entity_type?: string;
  name?: string;
  app_url?: string;
  story_type?: string;
}

interface Diff {
  old?: unknown;
  new?: unknown;
  adds?: Id[];
  removes?: Id[];
}

interface Action extends Ref {
  action?: string;
  description?: string;
  text?: string;
  story_id?: Id;
  epic_id?: Id;
  project_id?: Id;
  workflow_state_id?: Id;
  estimate?: number;
  complete?: boolean;
  changes?: Record<string, Diff>;
}

interface Payload {
  primary_id?: Id;
  actions?: Action[];
  references?: Ref[];
}

export interface Change {
  field: string;
  from?: string;
  to?: string;
  /** Workflow or epic state: "moved X from **A** to **B**". */
  state?: boolean;
  long?: boolean;
  added?: string[];
  removed?: string[];
  /** Owners and followers are members: only their ids are sent, so only counts are shown. */
  addedCount?: number;
  removedCount?: number;
  flag?: string;
}

const quoted = (v: unknown) => (text(v) ? limitMarkdown(String(v).trim(), MAX_QUOTED, "[…]") : "");

/** Fields that change as a side effect of something else, or that say nothing to a reader. */
const NOISE = new Set([
  "position",
  "started",
  "started_at",
  "completed",
  "completed_at",
  "moved_at",
  "updated_at",
  "comment_ids",
  "task_ids",
  "file_ids",
  "follower_ids",
  "branch_ids",
  "commit_ids",
  "pull_request_ids",
  "linked_file_ids",
  "external_links",
]);

function lookup(refs: Ref[], id: unknown, type?: string): Ref | undefined {
  return refs.find((r) => r.id === id && (type === undefined || r.entity_type === type));
}

const refName = (refs: Ref[], id: unknown, type: string) => text(lookup(refs, id, type)?.name) ?? text(id);

/** Field → [label, referenced entity type] for changes that carry ids of other entities. */
const REFERENCED: Record<string, [string, string]> = {
  workflow_state_id: ["state", "workflow-state"],
  epic_id: ["epic", "epic"],
  project_id: ["project", "project"],
  iteration_id: ["iteration", "iteration"],
  group_id: ["team", "group"],
  milestone_id: ["milestone", "milestone"],
};

export function describeChanges(changes: Record<string, Diff> | undefined, refs: Ref[]): Change[] {
  const list: Change[] = [];
  for (const [key, diff] of Object.entries(changes ?? {})) {
    if (NOISE.has(key) || !diff || typeof diff !== "object") continue;
    if (key === "label_ids") {
      const added = (diff.adds ?? []).map((id) => refName(refs, id, "label") ?? "?");
      const removed = (diff.removes ?? []).map((id) => refName(refs, id, "label") ?? "?");
      if (added.length + removed.length > 0) list.push({ field: "labels", added, removed });
    } else if (key === "owner_ids") {
      const addedCount = diff.adds?.length ?? 0;
      const removedCount = diff.removes?.length ?? 0;
      if (addedCount + removedCount > 0) list.push({ field: "owners", addedCount, removedCount });
    } else if (key === "archived" || key === "blocked" || key === "blocker") {
      const on = diff.new === true;
      const flag = key === "archived" ? (on ? "archived" : "unarchived") : on ? "blocked" : "unblocked";
      list.push({ field: key, flag });
    } else if (key === "description") {
      list.push({ field: "description", long: true });
    } else if (REFERENCED[key]) {
      const [field, type] = REFERENCED[key];
      const from = diff.old == null ? undefined : refName(refs, diff.old, type);
      const to = diff.new == null ? undefined : refName(refs, diff.new, type);
      if (from !== to) list.push({ field, from, to, state: field === "state" || undefined });
    } else if ("old" in diff || "new" in diff) {
      const from = text(diff.old);
      const to = text(diff.new);
      const field = key === "name" ? "title" : key.replace(/_/g, " ");
      if (from !== to) list.push({ field, from, to, state: key === "state" || undefined });
    }
  }
  return list;
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const actions = Array.isArray(payload.actions) ? payload.actions : [];
  const refs = Array.isArray(payload.references) ? payload.references : [];
  const primary = actions[0] ?? {};
  const kind = context.event.startsWith("epic") ? "epic" : "story";
  // The story or epic this delivery is about: the primary action itself, another action of the
  // delivery (a comment arrives with an update of its story), or a reference.
  const parentId = kind === "epic" ? primary.epic_id : primary.story_id;
  const parent =
    primary.entity_type === kind
      ? primary
      : (actions.find((a) => a.entity_type === kind && (parentId === undefined || a.id === parentId)) ??
        lookup(refs, parentId, kind) ??
        refs.find((r) => r.entity_type === kind));
  const changes = context.action === "update" ? describeChanges(primary.changes, refs) : [];
  const taskDone = primary.changes?.complete;
  const facts: { label: string; value: string }[] = [];
  if (context.event === "story" && context.action === "create") {
    const add = (label: string, value: string | undefined) => value && facts.push({ label, value });
    add("Project", refName(refs, primary.project_id, "project"));
    add("State", refName(refs, primary.workflow_state_id, "workflow-state"));
    add("Epic", refName(refs, primary.epic_id, "epic"));
    add("Estimate", text(primary.estimate));
  }
  return {
    target: {
      kind,
      id: text(parent?.id),
      name: text(parent?.name),
      url: text(parent?.app_url),
      type: text(parent?.story_type),
    },
    body: quoted(primary.text ?? primary.description),
    facts,
    changes,
    singleChange: changes.length === 1 ? changes[0] : undefined,
    taskCompleted: taskDone ? taskDone.new === true : undefined,
    skip:
      context.action !== "update"
        ? ""
        : context.event === "story-task"
          ? taskDone
            ? ""
            : "a task edit other than completing it"
          : context.event.endsWith("comment") || changes.length > 0
            ? ""
            : "nothing visible changed",
  };
}
