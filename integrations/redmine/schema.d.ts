// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export type User = {
  firstname?: string;
  lastname?: string;
  login?: string;
  [k: string]: unknown;
} & User1;
export type User1 = {
  firstname?: string;
  lastname?: string;
  login?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "named".
 */
export type Named = {
  name?: string;
  [k: string]: unknown;
} & Named1;
export type Named1 = {
  name?: string;
  [k: string]: unknown;
} | null;

export interface Payload {
  payload: {
    action?: string;
    url?: string | null;
    issue?: {
      id?: number;
      subject?: string;
      description?: string | null;
      author?: User;
      assignee?: User;
      tracker?: Named;
      status?: Named;
      priority?: Named;
      project?: Named;
      start_date?: string | null;
      due_date?: string | null;
      done_ratio?: number | null;
      estimated_hours?: number | null;
      is_private?: boolean;
      parent_id?: number | null;
      [k: string]: unknown;
    };
    journal?: {
      notes?: string | null;
      private_notes?: boolean;
      author?: User;
      details?: {
        property?: string;
        prop_key?: string;
        value?: string | null;
        old_value?: string | null;
        [k: string]: unknown;
      }[];
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issueEvent".
 */
export interface IssueEvent {
  payload?: {
    issue: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "updated".
 */
export interface Updated {
  payload?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
