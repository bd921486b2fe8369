// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export type User = {
  displayName?: string;
  name?: string;
  [k: string]: unknown;
} & User1;
export type User1 = {
  displayName?: string;
  name?: string;
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
  webhookEvent?: string;
  issue_event_type_name?: string;
  timestamp?: number;
  user?: User;
  issue?: Issue;
  comment?: Comment;
  changelog?: {
    items?: {
      field?: string;
      fromString?: string | null;
      toString?: string | null;
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  } | null;
  sprint?: {
    name?: string;
    state?: string;
    goal?: string | null;
    startDate?: string | null;
    endDate?: string | null;
    completeDate?: string | null;
    [k: string]: unknown;
  };
  version?: {
    name?: string;
    description?: string | null;
    releaseDate?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue".
 */
export interface Issue {
  key: string;
  self?: string;
  fields?: {
    summary?: string | null;
    description?: string | null;
    issuetype?: Named;
    priority?: Named;
    status?: Named;
    assignee?: User;
    labels?: string[];
    duedate?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "comment".
 */
export interface Comment {
  id?: string;
  body?: string | null;
  author?: User;
  updateAuthor?: User;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issueEvent".
 */
export interface IssueEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "commentEvent".
 */
export interface CommentEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "sprintEvent".
 */
export interface SprintEvent {
  sprint: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "versionEvent".
 */
export interface VersionEvent {
  version: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
