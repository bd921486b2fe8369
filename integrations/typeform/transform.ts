// Typeform's answers name their question only by field id: the question's title is in
// definition.fields, so pairing each answer with its question is a join across two lists, and
// each answer type keeps its value under a different key (text, email, choice.label,
// choices.labels, payment…). Both are code; the message itself is the template. Pure.
import { defineTransform, nonEmptyText, scalarText } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

export interface Answer {
  question: string;
  text: string;
  /** Set for url and file_url answers: the template links the text to it. */
  url?: string;
}

type Raw = Record<string, unknown>;

const asRecord = (v: unknown): Raw => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Raw) : {});

function labels(choices: Raw): string | undefined {
  const list = Array.isArray(choices.labels) ? choices.labels.map(scalarText).filter((x) => x !== undefined) : [];
  const other = nonEmptyText(choices.other);
  if (other) list.push(other);
  return list.length > 0 ? list.join(", ") : undefined;
}

/** The answer's value as text, whatever its type; undefined when it carries none. */
export function answerText(answer: Raw): string | undefined {
  const type = String(answer.type);
  const value = answer[type];
  switch (type) {
    case "boolean":
      return typeof value === "boolean" ? (value ? "Yes" : "No") : undefined;
    case "choice": {
      const choice = asRecord(value);
      return firstOf(choice.label, choice.other);
    }
    case "choices":
      return labels(asRecord(value));
    case "payment": {
      const p = asRecord(value);
      const amount = firstOf(p.amount);
      if (!amount) return undefined;
      const card = nonEmptyText(p.last4) ? ` (card ending ${String(p.last4)})` : "";
      const by = nonEmptyText(p.name) ? ` by ${String(p.name)}` : "";
      const state = p.success === false ? "failed" : "paid";
      return `${amount} ${state}${by}${card}`;
    }
    default:
      return scalarText(value);
  }
}

function firstOf(...values: unknown[]): string | undefined {
  for (const v of values) {
    const text = scalarText(v);
    if (text !== undefined) return text;
  }
  return undefined;
}

export default defineTransform<Payload, { answers: Answer[]; hiddenFields: Answer[]; variableList: Answer[] }>(
  (payload) => {
    const response = payload.form_response;
    const titles = new Map<string, string>();
    for (const field of response.definition?.fields ?? []) {
      if (field.id && field.title) titles.set(field.id, field.title);
    }
    const answers: Answer[] = [];
    for (const answer of response.answers) {
      const text = answerText(answer as Raw);
      if (text === undefined) continue;
      const id = answer.field?.id ?? "";
      const question = titles.get(id) ?? nonEmptyText(answer.field?.ref) ?? (id || "Answer");
      const linked = answer.type === "url" || answer.type === "file_url";
      answers.push({ question, text, url: linked ? text : undefined });
    }
    const hiddenFields: Answer[] = Object.entries(asRecord(response.hidden))
      .map(([key, v]) => ({ question: key, text: scalarText(v) ?? "" }))
      .filter((h) => h.text !== "");
    const variableList: Answer[] = [];
    for (const v of Array.isArray(response.variables) ? response.variables : []) {
      const variable = asRecord(v);
      const text = scalarText(variable[String(variable.type)]);
      const key = nonEmptyText(variable.key);
      if (key && text !== undefined && key !== "score") variableList.push({ question: key, text });
    }
    return { answers, hiddenFields, variableList };
  },
);
