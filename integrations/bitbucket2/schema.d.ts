// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export type User = {
  display_name?: string;
  nickname?: string;
  username?: string;
  [k: string]: unknown;
} & User1;
export type User1 = {
  display_name?: string;
  nickname?: string;
  username?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "push".
 */
export type Push = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "fork".
 */
export type Fork = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "commit_status".
 */
export type CommitStatus1 = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "commit_comment".
 */
export type CommitComment = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pullrequest".
 */
export type Pullrequest = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pr_comment".
 */
export type PrComment = Pullrequest;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue".
 */
export type Issue = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue_comment".
 */
export type IssueComment = Issue;

export interface Payload {
  actor?: User;
  repository?: Repository;
  changes?: {
    name?: {
      old?: string;
      new?: string;
      [k: string]: unknown;
    };
    status?: {
      old?: string;
      new?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  comment?: {
    content?: Content;
    links?: Links;
    inline?: {
      path?: string;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  pullrequest?: PullRequest;
  issue?: IssueObject;
  commit_status?: CommitStatus;
  fork?: Repository;
  commit?: {
    hash?: string;
    links?: Links;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repository".
 */
export interface Repository {
  name: string;
  full_name?: string;
  links?: Links;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "links".
 */
export interface Links {
  html?: {
    href?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "content".
 */
export interface Content {
  raw?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pullRequest".
 */
export interface PullRequest {
  id: number;
  title: string;
  description?: string | null;
  draft?: boolean;
  reason?: string | null;
  links?: Links;
  source?: Endpoint;
  destination?: Endpoint;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "endpoint".
 */
export interface Endpoint {
  branch?: {
    name?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issueObject".
 */
export interface IssueObject {
  id: number;
  title: string;
  kind?: string;
  priority?: string;
  content?: Content;
  links?: Links;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "commitStatus".
 */
export interface CommitStatus {
  name: string;
  state: string;
  url?: string;
  description?: string | null;
  refname?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repoEvent".
 */
export interface RepoEvent {
  [k: string]: unknown;
}
