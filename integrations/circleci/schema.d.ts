// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  type: string;
  id?: string;
  happened_at?: string;
  webhook?: {
    name?: string | null;
    [k: string]: unknown;
  };
  project?: {
    name: string;
    slug?: string;
    [k: string]: unknown;
  };
  organization?: {
    name?: string;
    [k: string]: unknown;
  };
  pipeline?: {
    number?: number | null;
    trigger?: {
      [k: string]: unknown;
    } | null;
    vcs?: {
      [k: string]: unknown;
    } | null;
    trigger_parameters?: {
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  workflow?: {
    name?: string;
    url?: string | null;
    status?: string | null;
    created_at?: string | null;
    stopped_at?: string | null;
    [k: string]: unknown;
  };
  job?: {
    name?: string;
    number?: number | null;
    status?: string | null;
    started_at?: string | null;
    stopped_at?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workflowCompleted".
 */
export interface WorkflowCompleted {
  workflow: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "jobCompleted".
 */
export interface JobCompleted {
  job: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
