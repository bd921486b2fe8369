// What the Jira templates cannot work out themselves: the issue's browser link (payloads only
// carry REST URLs), who acted, the changelog as a list a reader cares about (noise fields such as
// Rank or worklog bookkeeping dropped, label changes as added/removed), and comment and
// description text converted from Jira wiki markup. Pure: no I/O, no clock.
import { nonEmptyText as text } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";
import { jiraToMarkdown } from "./markup";

interface User {
  displayName?: string;
  name?: string;
}

interface ChangelogItem {
  field?: string;
  fieldId?: string;
  fromString?: string | null;
  toString?: string | null;
}

interface IssueFields {
  description?: string | null;
  priority?: { name?: string } | null;
  assignee?: User | null;
  labels?: string[];
  duedate?: string | null;
}

interface Payload {
  user?: User;
  issue?: { self?: string; key?: string; fields?: IssueFields };
  comment?: { id?: string; body?: string; author?: User; updateAuthor?: User };
  changelog?: { items?: ChangelogItem[] };
}

export interface Change {
  field: string;
  from?: string;
  to?: string;
  /** Long text fields (description…): the message says it changed, without listing both versions. */
  long?: boolean;
  /** The new text of a long field, as Markdown (quoted when it is the only change). */
  text?: string;
  added?: string[];
  removed?: string[];
  assignee?: boolean;
  status?: boolean;
}

/** Bookkeeping Jira records alongside real edits (board ordering, time tracking, worklogs). */
const NOISE = new Set([
  "rank",
  "worklogid",
  "timespent",
  "timeestimate",
  "aggregatetimespent",
  "aggregatetimeestimate",
]);
const LONG_TEXT = new Set(["description", "environment"]);
const FIELD_NAMES: Record<string, string> = {
  issuetype: "type",
  duedate: "due date",
  timeoriginalestimate: "original estimate",
  "fix version": "fix version",
  "epic link": "epic",
  "story points": "story points",
  attachment: "attachment",
  islocked: "locked",
};

const nameOf = (user: User | undefined): string | undefined => text(user?.displayName) ?? text(user?.name);

/** https://x.atlassian.net/rest/api/2/issue/10000 + ABC-1 → https://x.atlassian.net/browse/ABC-1 */
export function browseUrl(self: unknown, key: unknown): string | undefined {
  const api = text(self);
  const issueKey = text(key);
  if (!api || !issueKey) return undefined;
  const at = api.indexOf("/rest/api/");
  if (at < 0 || !/^https?:\/\//.test(api)) return undefined;
  return `${api.slice(0, at)}/browse/${encodeURIComponent(issueKey)}`;
}

const words = (s: string | undefined) => (s ?? "").split(/\s+/).filter((w) => w !== "");

export function describeChanges(items: ChangelogItem[] | undefined): Change[] {
  const changes: Change[] = [];
  for (const item of items ?? []) {
    const raw = text(item.field);
    if (!raw || NOISE.has(raw.toLowerCase())) continue;
    const field = FIELD_NAMES[raw.toLowerCase()] ?? raw;
    const from = text(item.fromString ?? undefined);
    const to = text(item.toString ?? undefined);
    if (from === to) continue;
    if (LONG_TEXT.has(raw.toLowerCase())) {
      changes.push({ field, long: true, text: jiraToMarkdown(item.toString) || undefined });
    } else if (raw.toLowerCase() === "labels") {
      const before = words(from);
      const after = words(to);
      changes.push({
        field: "labels",
        added: after.filter((l) => !before.includes(l)),
        removed: before.filter((l) => !after.includes(l)),
      });
    } else {
      changes.push({
        field,
        from,
        to,
        assignee: raw.toLowerCase() === "assignee" || undefined,
        status: raw.toLowerCase() === "status" || undefined,
      });
    }
  }
  return changes;
}

/** Priority, assignee, labels and due date of a new issue, for the "Priority: **High** · …" line. */
export function issueFacts(fields: IssueFields | undefined): { label: string; value: string }[] {
  const facts: { label: string; value: string }[] = [];
  const priority = text(fields?.priority?.name);
  if (priority) facts.push({ label: "Priority", value: priority });
  const assignee = nameOf(fields?.assignee ?? undefined);
  if (assignee) facts.push({ label: "Assignee", value: assignee });
  const labels = (fields?.labels ?? []).filter((l) => typeof l === "string" && l !== "");
  if (labels.length > 0) facts.push({ label: "Labels", value: labels.join(", ") });
  const due = text(fields?.duedate);
  if (due) facts.push({ label: "Due", value: due });
  return facts;
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  const issueUrl = browseUrl(payload.issue?.self, payload.issue?.key);
  const comment = payload.comment;
  const changes = describeChanges(payload.changelog?.items);
  const commentAuthor =
    context.event === "comment_updated" ? (comment?.updateAuthor ?? comment?.author) : comment?.author;
  const actor =
    (context.event.startsWith("comment_") ? nameOf(commentAuthor) : undefined) ??
    nameOf(payload.user) ??
    nameOf(commentAuthor) ??
    "Someone";
  const commentBody = jiraToMarkdown(comment?.body);
  return {
    actor,
    issueUrl,
    commentUrl:
      issueUrl && text(comment?.id) ? `${issueUrl}?focusedCommentId=${encodeURIComponent(comment!.id!)}` : issueUrl,
    commentBody,
    description: jiraToMarkdown(payload.issue?.fields?.description),
    facts: context.event === "jira:issue_created" ? issueFacts(payload.issue?.fields) : [],
    changes,
    singleChange: changes.length === 1 ? changes[0] : undefined,
    // An update with nothing a reader would notice (only Rank or worklog bookkeeping, no comment).
    skip: changes.length === 0 && !commentBody ? "nothing visible changed" : "",
  };
}
