// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "named".
 */
export type Named = {
  name?: string | null;
  [k: string]: unknown;
} & Named1;
export type Named1 = {
  name?: string | null;
  [k: string]: unknown;
} | null;

export interface Payload {
  type: string;
  action: string;
  url?: string;
  actor?: Named;
  updatedFrom?: {
    [k: string]: unknown;
  } | null;
  data: {
    title?: string;
    name?: string;
    body?: string | null;
    description?: string | null;
    url?: string;
    user?: Named;
    issue?: {
      title?: string;
      [k: string]: unknown;
    } | null;
    project?: Named;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issueEvent".
 */
export interface IssueEvent {
  data?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "commentEvent".
 */
export interface CommentEvent {
  data?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "projectEvent".
 */
export interface ProjectEvent {
  data?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "projectUpdateEvent".
 */
export interface ProjectUpdateEvent {
  data?: {
    project: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
