// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "text".
 */
export type Text = string;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "optionalText".
 */
export type OptionalText = string | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "optionalUser".
 */
export type OptionalUser = {
  login?: string;
  [k: string]: unknown;
} & OptionalUser1;
export type OptionalUser1 = {
  login?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "users".
 */
export type Users = User[] | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "labels".
 */
export type Labels =
  | {
      name: string;
      [k: string]: unknown;
    }[]
  | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "milestone".
 */
export type Milestone = {
  title?: string;
  [k: string]: unknown;
} & Milestone1;
export type Milestone1 = {
  title?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "changes".
 */
export type Changes = {
  title?: {
    from?: string;
    [k: string]: unknown;
  };
  body?: {
    from?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
} & Changes1;
export type Changes1 = {
  title?: {
    from?: string;
    [k: string]: unknown;
  };
  body?: {
    from?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "push".
 */
export type Push = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "ref".
 */
export type Ref = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issues".
 */
export type Issues = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue_comment".
 */
export type IssueComment = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request".
 */
export type PullRequest = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "release".
 */
export type Release = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "fork".
 */
export type Fork = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "wiki".
 */
export type Wiki = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "status".
 */
export type Status = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workflow_run".
 */
export type WorkflowRun = RepoEvent;

export interface Payload {
  action?: string;
  sender?: User;
  repository?: {
    name?: string;
    full_name?: string;
    html_url?: string;
    [k: string]: unknown;
  } | null;
  prior_status?: string;
  run?: Run;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export interface User {
  login: Text;
  username?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "run".
 */
export interface Run {
  id?: number;
  title?: string;
  status: Text;
  html_url?: string;
  index_in_repo?: number;
  prettyref?: string;
  commit_sha?: string;
  trigger_event?: string;
  event?: string;
  duration?: number | null;
  trigger_user?: {
    login?: string;
    html_url?: string;
    [k: string]: unknown;
  } | null;
  repository?: {
    name?: string;
    full_name?: string;
    html_url?: string;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repository".
 */
export interface Repository {
  name: Text;
  full_name: Text;
  html_url: Text;
  fork?: boolean;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repoEvent".
 */
export interface RepoEvent {
  repository: Repository;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue".
 */
export interface Issue {
  number: number;
  title: string;
  html_url?: string;
  body?: OptionalText;
  assignee?: OptionalUser;
  assignees?: Users;
  labels?: Labels;
  milestone?: Milestone;
  pull_request?: {
    html_url?: string;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "package".
 */
export interface Package {
  package: {
    name: Text;
    type: string;
    version?: string;
    html_url?: string;
    owner?: OptionalUser;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "action_run".
 */
export interface ActionRun {
  [k: string]: unknown;
}
