// `narrow` on POST /register: a queue registered with a narrow gets only the message events that
// match it (other event types are not filtered), as the reference's event queues do. Terms are
// checked once at /register (parseEventNarrow) and matched against each message event's message.
import { Errors } from "../errors";
import { nameKey } from "../names";

export interface EventNarrowTerm {
  operator: string;
  operand: string | number | (string | number)[];
  negated?: boolean;
}

const IS_OPERANDS = new Set(["dm", "private", "starred", "mentioned", "alerted"]);
const OPERATORS = new Set(["channel", "stream", "topic", "subject", "sender", "dm", "pm-with", "is", "search"]);

const invalid = (detail: string) => Errors.badRequest(`Invalid narrow operator: ${detail}`);

/** The narrow as sent (legacy `[operator, operand]` pairs or `{operator, operand, negated}` objects). */
export function parseEventNarrow(raw: unknown[]): EventNarrowTerm[] {
  return raw.map((term): EventNarrowTerm => {
    let out: EventNarrowTerm;
    if (Array.isArray(term) && term.length === 2) out = { operator: String(term[0]), operand: term[1] };
    else if (term && typeof term === "object" && "operator" in term && "operand" in term) {
      const t = term as Record<string, unknown>;
      out = {
        operator: String(t.operator),
        operand: t.operand as EventNarrowTerm["operand"],
        negated: t.negated === true,
      };
    } else throw invalid("each term needs an operator and an operand");
    if (!OPERATORS.has(out.operator)) throw invalid(`unknown operator '${out.operator}'`);
    const operand = out.operand;
    const scalar = typeof operand === "string" || typeof operand === "number";
    const list = Array.isArray(operand) && operand.every((o) => typeof o === "string" || typeof o === "number");
    if (!scalar && !(list && (out.operator === "dm" || out.operator === "pm-with"))) throw invalid("bad operand");
    if (out.operator === "is" && !IS_OPERANDS.has(String(operand)))
      throw invalid(`unknown 'is' operand '${String(operand)}'`);
    return out;
  });
}

interface EventMessage {
  type?: string;
  stream_id?: number;
  display_recipient?: string | { id: number; email: string }[];
  subject?: string;
  sender_id?: number;
  sender_email?: string;
  /** The Markdown source (message events carry both renderings until each queue gets its own). */
  raw_content?: string;
  content?: string;
}

/** Does the message event (its message and this recipient's flags) match every term? */
export function eventMatchesNarrow(terms: EventNarrowTerm[], message: EventMessage, flags: string[], userId: number) {
  return terms.every((term) => termMatches(term, message, flags, userId) !== Boolean(term.negated));
}

function sameUser(operand: string | number, id: number | undefined, email: string | undefined): boolean {
  return typeof operand === "number" ? operand === id : nameKey(operand) === nameKey(email ?? "");
}

function termMatches(term: EventNarrowTerm, m: EventMessage, flags: string[], userId: number): boolean {
  const operand = term.operand;
  switch (term.operator) {
    case "channel":
    case "stream":
      if (m.type !== "stream") return false;
      return typeof operand === "number"
        ? operand === m.stream_id
        : nameKey(String(operand)) === nameKey(String(m.display_recipient ?? ""));
    case "topic":
    case "subject":
      return m.type === "stream" && nameKey(String(operand)) === nameKey(m.subject ?? "");
    case "sender":
      return sameUser(operand as string | number, m.sender_id, m.sender_email);
    case "dm":
    case "pm-with": {
      if (m.type !== "private" || !Array.isArray(m.display_recipient)) return false;
      const wanted = Array.isArray(operand)
        ? operand
        : String(operand)
            .split(",")
            .map((s) => s.trim());
      // The conversation's other participants (oneself only in a DM with oneself).
      const others = m.display_recipient.filter((r) => r.id !== userId);
      const people = others.length > 0 ? others : m.display_recipient;
      const unmatched = wanted.filter((w) => !people.some((p) => sameUser(w, p.id, p.email)));
      return unmatched.length === 0 && wanted.length === people.length;
    }
    case "search": {
      // Every word in the topic or the content, case-insensitively (no full-text index for one message).
      const text = `${m.subject ?? ""}\n${m.raw_content ?? m.content ?? ""}`.toLowerCase();
      return String(operand)
        .toLowerCase()
        .split(/\s+/)
        .filter(Boolean)
        .every((word) => text.includes(word));
    }
    case "is":
      switch (operand) {
        case "dm":
        case "private":
          return m.type === "private";
        case "starred":
          return flags.includes("starred");
        case "mentioned":
          return flags.some((f) => f === "mentioned" || f.endsWith("wildcard_mentioned"));
        case "alerted":
          return flags.includes("has_alert_word");
      }
      return false;
  }
  return false;
}
