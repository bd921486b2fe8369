// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "text".
 */
export type Text = string;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "refs_changed".
 */
export type RefsChanged = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "commit_comment".
 */
export type CommitComment = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pr_comment".
 */
export type PrComment = PullRequest;

export interface Payload {
  eventKey?: string;
  actor?: User;
  repository?: Repository;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export interface User {
  name?: string;
  displayName?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repository".
 */
export interface Repository {
  name: Text;
  slug?: string;
  links?: Links;
  origin?: {
    name: string;
    links?: Links;
    [k: string]: unknown;
  };
  project?: {
    key?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "links".
 */
export interface Links {
  self?: {
    href?: string;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repoEvent".
 */
export interface RepoEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repo_modified".
 */
export interface RepoModified {
  old: Repository;
  new: Repository;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "ref".
 */
export interface Ref {
  displayId?: string;
  latestCommit?: string;
  repository?: Repository;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request".
 */
export interface PullRequest {
  pullRequest: {
    id: number;
    title: string;
    description?: string;
    fromRef: Ref;
    toRef: Ref;
    links?: Links;
    [k: string]: unknown;
  };
  previousTitle?: string;
  previousDescription?: string | null;
  previousTarget?: {
    displayId?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "ping".
 */
export interface Ping {
  test: true;
  [k: string]: unknown;
}
