// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  page?: {
    status_description?: string;
    status_indicator?: string;
    [k: string]: unknown;
  };
  incident?: {
    name?: string;
    status?: string;
    impact?: string | null;
    shortlink?: string | null;
    scheduled_for?: string | null;
    scheduled_until?: string | null;
    postmortem_body?: string | null;
    incident_updates?: unknown[];
    [k: string]: unknown;
  };
  component?: {
    name?: string;
    description?: string | null;
    status?: unknown;
    [k: string]: unknown;
  };
  component_update?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "incidentEvent".
 */
export interface IncidentEvent {
  incident: {
    name: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "componentEvent".
 */
export interface ComponentEvent {
  component: {
    name: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
