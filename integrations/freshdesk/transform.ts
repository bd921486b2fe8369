// Freshdesk's automation webhooks carry the change in one placeholder, {{triggered_event}}:
// "{ticket_action:created}", "{status:{from:4,to:6}}", "{note_type:private}"… This parses it
// into `change` (numbers mapped to Freshdesk's names) and turns the HTML description into Markdown.
import { htmlToMarkdown, scalarText as str, type TransformContext } from "../../src/webhooks/plugin";

const STATUSES: Record<string, string> = {
  "2": "Open",
  "3": "Pending",
  "4": "Resolved",
  "5": "Closed",
  "6": "Waiting on Customer",
  "7": "Waiting on Third Party",
};
const PRIORITIES: Record<string, string> = { "1": "Low", "2": "Medium", "3": "High", "4": "Urgent" };

export interface Change {
  kind: "created" | "status" | "priority" | "note" | "unknown";
  from?: string;
  to?: string;
  private?: boolean;
}

export function parseTriggeredEvent(text: string): Change {
  const compact = text.replace(/\s+/g, "");
  if (/^\{ticket_action:created\}$/i.test(compact)) return { kind: "created" };
  const note = /^\{note_type:(private|public)\}$/i.exec(compact);
  if (note) return { kind: "note", private: note[1].toLowerCase() === "private" };
  const changed = /^\{(status|priority):\{from:([^,}]*),to:([^,}]*)\}\}$/i.exec(compact);
  if (changed) {
    const kind = changed[1].toLowerCase() as "status" | "priority";
    const names = kind === "status" ? STATUSES : PRIORITIES;
    return { kind, from: names[changed[2]] ?? changed[2], to: names[changed[3]] ?? changed[3] };
  }
  return { kind: "unknown" };
}

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export default function transform(
  payload: { freshdesk_webhook: Obj },
  _context: TransformContext,
): {
  change: Change;
  description?: string;
  note?: string;
  ticketLabel: string;
  facts: { label: string; text: string }[];
} {
  const hook = payload.freshdesk_webhook;
  const change = parseTriggeredEvent(String(hook.triggered_event));
  const html = (v: unknown) => {
    const s = str(v);
    return s ? htmlToMarkdown(s) || undefined : undefined;
  };
  const note =
    change.kind === "note"
      ? change.private
        ? hook.ticket_latest_private_comment
        : hook.ticket_latest_public_comment
      : undefined;
  return {
    change,
    description: change.kind === "created" ? html(hook.ticket_description) : undefined,
    note: html(note),
    facts: (
      [
        ["Status", hook.ticket_status],
        ["Priority", hook.ticket_priority],
        ["Type", hook.ticket_type],
        ["Group", hook.ticket_group],
        ["Agent", hook.ticket_agent_name],
      ] as [string, unknown][]
    ).flatMap(([label, value]) => (str(value) ? [{ label, text: str(value)! }] : [])),
    ticketLabel: [`#${hook.ticket_id}`, str(hook.ticket_subject)].filter(Boolean).join(" "),
  };
}
