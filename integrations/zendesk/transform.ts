// Zendesk reaches us two ways: a trigger's webhook, whose JSON body the admin writes with
// placeholders (`{{ticket.id}}`…), and event-subscription webhooks (`zen:event-type:ticket.*`)
// with a fixed envelope. Both are read into one `ticket` view here, plus the comment to quote.
import { scalarText as str } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export interface Ticket {
  id?: string;
  /** "#7 Printer on fire", "#7" or the title alone: the link text. */
  label: string;
  title?: string;
  url?: string;
  status?: string;
  priority?: string;
  type?: string;
  requester?: string;
  assignee?: string;
  tags?: string;
  facts: { label: string; text: string }[];
}

export interface Comment {
  author?: string;
  body: string;
  internal: boolean;
}

/** Zendesk's event payloads shout ("OPEN", "ON_HOLD"): "Open", "On hold". */
const label = (v: unknown): string | undefined => {
  const s = str(v);
  return (
    s && s.replace(/_/g, " ").replace(/^(.)(.*)$/, (_m, a: string, b: string) => a.toUpperCase() + b.toLowerCase())
  );
};

/** Placeholders such as {{ticket.url}} give "acme.zendesk.com/agent/tickets/7", without a scheme. */
export function ticketUrl(value: unknown): string | undefined {
  const s = str(value);
  if (!s) return undefined;
  if (/^https?:\/\//i.test(s)) return s;
  return /^[\w.-]+\.[a-z]{2,}\//i.test(s) ? `https://${s}` : undefined;
}

/**
 * A comment as Zendesk's placeholders format it: a rule of dashes, "Author, Feb 3, 2025, 19:59",
 * then the text. Returns the author and the text without the decoration.
 */
export function parseComment(text: unknown): { author?: string; body: string } | undefined {
  const s = str(text);
  if (!s) return undefined;
  const lines = s.replace(/\r\n/g, "\n").split("\n");
  while (lines.length > 0 && /^\s*(-{3,}\s*)?$/.test(lines[0])) lines.shift();
  let author: string | undefined;
  const header = /^(.+?), (\w{3,9}\.? \d{1,2}, \d{4}(, \d{1,2}:\d{2}( ?[AP]M)?)?)\s*$/.exec(lines[0] ?? "");
  if (header) {
    author = header[1];
    lines.shift();
  }
  const body = lines.join("\n").trim();
  return body ? { author, body } : undefined;
}

type Fields = Omit<Ticket, "label" | "facts">;

function complete(fields: Fields): Ticket {
  const label = [fields.id && `#${fields.id}`, fields.title].filter(Boolean).join(" ") || "(untitled ticket)";
  const named: [string, string | undefined][] = [
    ["Status", fields.status],
    ["Priority", fields.priority],
    ["Type", fields.type],
    ["Requester", fields.requester],
    ["Assignee", fields.assignee],
    ["Tags", fields.tags],
  ];
  // "-" is what Zendesk's placeholders give for an empty field (no assignee yet).
  const facts = named.flatMap(([name, text]) => (text && text !== "-" ? [{ label: name, text }] : []));
  return { ...fields, label, facts };
}

function fromTrigger(payload: Obj): { ticket: Ticket; comment?: Comment } {
  const comment = parseComment(payload.latest_comment ?? payload.ticket_description);
  return {
    ticket: complete({
      id: str(payload.ticket_id),
      title: str(payload.ticket_title),
      url: ticketUrl(payload.link) ?? ticketUrl(payload.ticket_url),
      status: str(payload.ticket_status),
      priority: str(payload.ticket_priority),
      type: str(payload.ticket_type),
      requester: str(payload.requester_full_name),
      assignee: str(payload.assignee_full_name),
      tags: str(payload.tags)
        ?.split(/[\s,]+/)
        .join(", "),
    }),
    comment: comment && { ...comment, internal: false },
  };
}

function fromEvent(payload: Obj, subdomain: string | undefined): { ticket: Ticket; comment?: Comment } {
  const detail: Obj = payload.detail ?? {};
  const id = str(detail.id) ?? /^zen:ticket:(\d+)$/.exec(str(payload.subject) ?? "")?.[1];
  const raw: Obj | undefined = payload.event?.comment;
  // A new ticket's first comment is its description.
  const body = str(raw?.body) ?? (String(payload.type).endsWith(".created") ? str(detail.description) : undefined);
  return {
    ticket: complete({
      id,
      title: str(detail.subject),
      url: subdomain && id ? `https://${subdomain}.zendesk.com/agent/tickets/${id}` : undefined,
      status: label(detail.status),
      priority: label(detail.priority),
      type: label(detail.type),
      tags: Array.isArray(detail.tags) && detail.tags.length > 0 ? detail.tags.join(", ") : undefined,
    }),
    comment: body ? { author: str(raw?.author?.name), body, internal: raw?.is_public === false } : undefined,
  };
}

export default function transform(
  payload: Obj,
  context: TransformContext,
): { ticket: Ticket; comment?: Comment; change?: { field: string; from?: string; to?: string }; topicText: string } {
  const isEvent = typeof payload.type === "string" && payload.type.startsWith("zen:");
  const subdomain = context.options.subdomain?.replace(/\.zendesk\.com$/, "");
  const { ticket, comment } = isEvent ? fromEvent(payload, subdomain) : fromTrigger(payload);
  // ticket.status_changed → {field: "status", from: "Open", to: "Solved"}
  const changed = /^zen:event-type:ticket\.(\w+?)_changed$/.exec(String(payload.type));
  const change =
    changed && payload.event && typeof payload.event === "object"
      ? { field: changed[1].replace(/_/g, " "), from: label(payload.event.previous), to: label(payload.event.current) }
      : undefined;
  const topicText =
    str(payload.topic) ??
    (ticket.id ? `#${ticket.id}${ticket.title ? `: ${ticket.title}` : ""}` : (ticket.title ?? "Zendesk"));
  return { ticket, comment, change, topicText };
}
