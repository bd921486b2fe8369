// New Relic has two webhook families. Workflows (the current alerting) post a JSON template the
// user can edit; the default one and the common variants carry `state` (ACTIVATED, …, in any
// case), `title`, `priority`, `issueUrl`, `createdAt`/`updatedAt` in milliseconds. Classic alert
// channels post `current_state` (open, acknowledged, closed) with policy, condition, severity and
// targets. This gives both the same few names: state, title, the list lines and the duration.
import { durationInWords, type TransformContext } from "../../src/webhooks/plugin";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely shaped third-party payloads, read defensively
type Obj = Record<string, any>;

export const LIST_LIMIT = 5;

const millis = (value: unknown) => (typeof value === "number" && value > 1e11 ? value : undefined);
const names = (value: unknown): string[] =>
  (Array.isArray(value) ? value : typeof value === "string" && value ? [value] : []).filter(
    (v): v is string => typeof v === "string" && v !== "",
  );

/** "a, b, c, d, e and 3 more". */
export function shortList(items: string[]): string | undefined {
  if (items.length === 0) return undefined;
  const shown = items.slice(0, LIST_LIMIT).join(", ");
  return items.length > LIST_LIMIT ? `${shown} and ${items.length - LIST_LIMIT} more` : shown;
}

export interface Fact {
  label: string;
  value?: string;
  url?: string;
  links?: { name: string; url?: string }[];
  more?: number;
}

export default function transform(payload: Obj, context: TransformContext) {
  const classic = context.event === "classic";
  const state = String((classic ? payload.current_state : payload.state) ?? "").toLowerCase();
  const conditions = names(payload.alertConditionNames ?? payload.condition_name);
  const policies = names(payload.alertPolicyNames ?? payload.policy_name);
  const title: string =
    payload.title || conditions[0] || (classic ? payload.details : undefined) || `Issue ${payload.id ?? ""}`.trim();
  const created = millis(payload.createdAt ?? payload.timestamp);
  const updated = millis(payload.updatedAt);
  const targets = (Array.isArray(payload.targets) ? payload.targets : []).filter((t: Obj) => t && t.name);
  const facts: Fact[] = [];
  const add = (label: string, value: string | undefined, url?: string) => value && facts.push({ label, value, url });
  if (classic) {
    add("policy", policies[0], payload.policy_url);
    if (targets.length > 0)
      facts.push({
        label: targets.length === 1 ? "target" : "targets",
        links: targets.slice(0, LIST_LIMIT).map((t: Obj) => ({ name: String(t.name), url: t.link })),
        more: Math.max(0, targets.length - LIST_LIMIT),
      });
  } else {
    add("priority", payload.priority);
    add(conditions.length > 1 ? "conditions" : "condition", shortList(conditions.filter((c) => c !== title)));
    add(policies.length > 1 ? "policies" : "policy", shortList(policies));
    add("entities", shortList(names(payload.impactedEntities)));
    if (payload.totalIncidents > 1) add("incidents", String(payload.totalIncidents));
  }
  return {
    stateName: state,
    subject: title,
    facts,
    createdMs: created,
    openFor:
      state === "closed" && created && updated && updated >= created ? durationInWords(updated - created) : undefined,
  };
}
