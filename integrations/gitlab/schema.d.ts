// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export type User = {
  name?: string;
  username?: string;
  [k: string]: unknown;
} & User1;
export type User1 = {
  name?: string;
  username?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "text".
 */
export type Text = string;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "users".
 */
export type Users =
  | {
      name?: string;
      [k: string]: unknown;
    }[]
  | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "optionalText".
 */
export type OptionalText = string | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "push".
 */
export type Push = ProjectEvent & {
  ref: Text;
  before: string;
  after: string;
  message?: OptionalText;
  user_name?: string;
  user_email?: string | null;
  total_commits_count?: number;
  commits?: {
    id: Text;
    message: string;
    url?: string;
    author?: {
      name?: string;
      email?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
};
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue".
 */
export type Issue = ProjectEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "merge_request".
 */
export type MergeRequest = ProjectEvent & {
  object_attributes: {
    iid: number;
    title: string;
    url?: string;
    description?: OptionalText;
    action?: string;
    source_branch?: string;
    target_branch?: string;
    oldrev?: string;
    draft?: boolean;
    work_in_progress?: boolean;
    last_commit?: {
      id?: string;
      url?: string;
      title?: string;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
};
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "note".
 */
export type Note = ProjectEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "wiki".
 */
export type Wiki = ProjectEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pipeline".
 */
export type Pipeline = ProjectEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "job".
 */
export type Job = {
  [k: string]: unknown;
};
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "deployment".
 */
export type Deployment = ProjectEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "release".
 */
export type Release = ProjectEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "feature_flag".
 */
export type FeatureFlag = ProjectEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "system".
 */
export type System = {
  [k: string]: unknown;
};

export interface Payload {
  object_kind?: string;
  user?: User;
  project?: Project;
  assignees?: Users;
  reviewers?: Users;
  changes?: {
    description?: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  } | null;
  commit?: {
    id?: string | number;
    url?: string;
    message?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "project".
 */
export interface Project {
  name: Text;
  web_url: Text;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "projectEvent".
 */
export interface ProjectEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "noteable".
 */
export interface Noteable {
  iid?: number;
  id?: number;
  title?: string;
  url?: string;
  [k: string]: unknown;
}
