// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workflow".
 */
export type Workflow = unknown;

export interface Payload {
  id?: string | number | null;
  state?: string | null;
  title?: string | null;
  issueUrl?: string | null;
  priority?: string | null;
  details?: string | null;
  owner?: string | null;
  totalIncidents?: number | string | null;
  impactedEntities?: unknown[] | null;
  alertPolicyNames?: unknown[] | string | null;
  alertConditionNames?: unknown[] | string | null;
  condition_name?: string | null;
  createdAt?: number | string | null;
  updatedAt?: number | string | null;
  incident_acknowledge_url?: string | null;
  current_state?: string | null;
  severity?: string | null;
  incident_id?: number | string | null;
  incident_url?: string | null;
  policy_name?: string | null;
  policy_url?: string | null;
  runbook_url?: string | null;
  violation_chart_url?: string | null;
  timestamp?: number | null;
  targets?: unknown[] | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "classic".
 */
export interface Classic {
  [k: string]: unknown;
}
