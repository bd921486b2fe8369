// PagerDuty has sent three webhook formats: v3 (one `event` per delivery, the current one), and
// the retired v2 and v1 (a `messages` array, each message one incident event, with different
// field names). This reduces all three to one list of incident updates with the same fields, so
// one template renders every version; each update becomes its own message.
import { durationInWords, type TransformContext } from "../../src/webhooks/plugin";

type Ref = { summary?: string; name?: string; html_url?: string; email?: string } | null | undefined;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely shaped third-party payloads, read defensively
type Obj = Record<string, any>;

export interface Person {
  name: string;
  url?: string;
}

export interface IncidentUpdate {
  /** triggered, acknowledged, unacknowledged, resolved, reassigned, escalated, delegated, annotated,
   * reopened, priority_updated, responder_added, responder_replied, status_update, ping, or the raw type. */
  action: string;
  eventType: string;
  number?: number;
  title?: string;
  url?: string;
  service?: Person;
  agent?: Person;
  assignees: Person[];
  escalationPolicy?: string;
  urgency?: string;
  priority?: string;
  /** Note, status update, responder request or ping text. */
  text?: string;
  responder?: Person;
  /** How long the incident was open, on resolution. */
  lasted?: string;
  /** A responder request's answer: accepted or declined. */
  responderState?: string;
  /** The incident this one was merged into, when resolved by a merge. */
  mergedInto?: { number?: number; title?: string; url?: string };
  topic: string;
  /** Urgency, priority, assignees and escalation policy, for a "label value · label value" line. */
  facts: Fact[];
}

export interface Fact {
  label: string;
  value?: string;
  people?: Person[];
}

/** The facts line: only what the update carries. */
export function factsOf(update: Omit<IncidentUpdate, "facts">): Fact[] {
  const facts: Fact[] = [];
  if (update.urgency) facts.push({ label: "urgency", value: update.urgency });
  if (update.priority) facts.push({ label: "priority", value: update.priority });
  const assignmentInHeadline = update.action === "reassigned" || update.action === "escalated";
  if (update.assignees.length > 0 && !assignmentInHeadline)
    facts.push({ label: "assigned to", people: update.assignees });
  if (update.escalationPolicy) facts.push({ label: "escalation policy", value: update.escalationPolicy });
  return facts;
}

const LEGACY_ACTIONS: Record<string, string> = {
  trigger: "triggered",
  acknowledge: "acknowledged",
  unacknowledge: "unacknowledged",
  resolve: "resolved",
  assign: "reassigned",
  escalate: "escalated",
  delegate: "delegated",
  annotate: "annotated",
};

const V3_ACTIONS: Record<string, string> = {
  "incident.responder.added": "responder_added",
  "incident.responder.replied": "responder_replied",
  "incident.status_update_published": "status_update",
  "pagey.ping": "ping",
};

/** "6 minutes", "2 hours 5 minutes", "3 days 4 hours": how long an incident was open. */
export function duration(from: unknown, to: unknown): string | undefined {
  const ms = Date.parse(String(to)) - Date.parse(String(from));
  return durationInWords(ms);
}

const httpUrl = (url: unknown) => (typeof url === "string" && /^https?:\/\//.test(url) ? url : undefined);

export function person(ref: Ref): Person | undefined {
  const name = ref?.summary || ref?.name || ref?.email;
  return name ? { name, url: httpUrl(ref?.html_url) } : undefined;
}

/** "[#1234] The server is on fire." (a v3 incident reference's summary) → number and title. */
export function parseReference(summary: string | undefined): { number?: number; title?: string } {
  const m = /^\[#(\d+)\]/.exec(summary ?? "");
  const title = m ? summary!.slice(m[0].length).trimStart() : "";
  // The title is the rest of a one-line summary; a multi-line one is kept whole, unparsed.
  if (!m || /[\n\r\u2028\u2029]/.test(title)) return { title: summary || undefined };
  return { number: Number(m[1]), title: title || undefined };
}

function topicFor(number: number | undefined, title: string | undefined): string {
  if (number !== undefined) return title ? `Incident #${number}: ${title}` : `Incident #${number}`;
  return title || "PagerDuty";
}

/** v3 `resolve_reason` is null, or a merge into another incident (`merge_resolve_reason`). */
export function mergedInto(reason: unknown): { number?: number; title?: string; url?: string } | undefined {
  const r = reason as Obj | null | undefined;
  if (r?.type !== "merge_resolve_reason" || !r.incident) return undefined;
  return { ...parseReference(r.incident.summary), url: httpUrl(r.incident.html_url) };
}

function fromV3(event: Obj): Omit<IncidentUpdate, "facts"> {
  const eventType: string = event.event_type ?? "";
  const data: Obj = event.data ?? {};
  const isIncident = data.type === "incident";
  const ref = isIncident ? {} : parseReference(data.incident?.summary);
  const number: number | undefined = isIncident ? data.number : ref.number;
  const title: string | undefined = isIncident ? data.title : ref.title;
  const action =
    V3_ACTIONS[eventType] ?? (eventType.startsWith("incident.") ? eventType.slice("incident.".length) : eventType);
  const text =
    action === "annotated"
      ? data.content
      : action === "responder_added" || action === "responder_replied" || action === "status_update"
        ? data.message
        : action === "ping"
          ? data.message
          : undefined;
  return {
    action,
    eventType,
    number,
    title,
    url: httpUrl(isIncident ? data.html_url : data.incident?.html_url),
    service: isIncident ? person(data.service) : undefined,
    agent: event.agent?.type === "user_reference" ? person(event.agent) : undefined,
    assignees: ((data.assignees as Ref[] | undefined) ?? []).map(person).filter((p): p is Person => !!p),
    escalationPolicy: data.escalation_policy?.summary,
    urgency: data.urgency,
    priority: data.priority?.summary,
    text,
    responder: person(data.user),
    responderState: data.state,
    lasted: action === "resolved" ? duration(data.created_at, event.occurred_at) : undefined,
    mergedInto: mergedInto(data.resolve_reason),
    topic: action === "ping" ? "PagerDuty" : topicFor(number, title || data.summary || data.name),
  };
}

function fromLegacy(message: Obj): Omit<IncidentUpdate, "facts"> {
  const eventType: string = message.event ?? message.type ?? "";
  const action = LEGACY_ACTIONS[eventType.replace(/^incident\./, "")] ?? eventType.replace(/^incident\./, "");
  // v2 puts the incident at message.incident, v1 at message.data.incident.
  const incident: Obj = message.incident ?? message.data?.incident ?? {};
  const summary: Obj = incident.trigger_summary_data ?? {};
  const title: string | undefined = incident.title || summary.subject || summary.description || incident.description;
  const logAgent = (message.log_entries as Obj[] | undefined)?.[0]?.agent;
  const agentRef: Ref =
    (logAgent?.type === "user_reference" ? logAgent : undefined) ??
    (action === "resolved" ? incident.resolved_by_user : undefined) ??
    incident.last_status_change_by ??
    undefined;
  const assignees: Ref[] = incident.assignments
    ? (incident.assignments as Obj[]).map((a) => a.assignee)
    : incident.assigned_to
      ? (incident.assigned_to as Obj[]).map((a) => a.object)
      : incident.assigned_to_user
        ? [incident.assigned_to_user]
        : [];
  const note = (message.log_entries as Obj[] | undefined)?.find((e) => e.type === "annotate_log_entry");
  return {
    action,
    eventType,
    number: incident.incident_number,
    title,
    url: httpUrl(incident.html_url),
    service: person(incident.service),
    agent: person(agentRef),
    assignees: assignees.map(person).filter((p): p is Person => !!p),
    escalationPolicy: incident.escalation_policy?.summary ?? incident.escalation_policy?.name,
    urgency: incident.urgency,
    priority: incident.priority?.summary ?? incident.priority?.name,
    text: action === "annotated" ? (note?.channel?.summary ?? note?.summary) : undefined,
    lasted:
      action === "resolved" ? duration(incident.created_on ?? incident.created_at, message.created_on) : undefined,
    topic: topicFor(incident.incident_number, title),
  };
}

export default function transform(payload: Obj, _context: TransformContext): { updates: IncidentUpdate[] } {
  const updates =
    payload.event && typeof payload.event === "object"
      ? [fromV3(payload.event)]
      : (Array.isArray(payload.messages) ? payload.messages : [])
          .filter((m: unknown) => m && typeof m === "object")
          .map(fromLegacy);
  return { updates: updates.map((u: Omit<IncidentUpdate, "facts">) => ({ ...u, facts: factsOf(u) })) };
}
