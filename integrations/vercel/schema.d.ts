// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string;
  type: string;
  createdAt?: number;
  region?: string | null;
  payload: {
    team?: {
      id?: string | null;
      [k: string]: unknown;
    } | null;
    user?: {
      id?: string | null;
      [k: string]: unknown;
    } | null;
    project?: {
      id?: string | null;
      name?: string | null;
      [k: string]: unknown;
    } | null;
    target?: string | null;
    plan?: string | null;
    regions?: string[] | null;
    deployment?: {
      id?: string;
      name?: string;
      url?: string | null;
      inspectorUrl?: string | null;
      meta?: {
        githubCommitRef?: string;
        githubCommitSha?: string;
        githubCommitMessage?: string;
        githubCommitAuthorName?: string;
        githubCommitAuthorLogin?: string;
        githubCommitOrg?: string;
        githubCommitRepo?: string;
        gitlabCommitRef?: string;
        gitlabCommitSha?: string;
        gitlabCommitMessage?: string;
        gitlabCommitAuthorName?: string;
        gitlabCommitAuthorLogin?: string;
        bitbucketCommitRef?: string;
        bitbucketCommitSha?: string;
        bitbucketCommitMessage?: string;
        bitbucketCommitAuthorName?: string;
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    };
    links?: {
      deployment?: string;
      project?: string;
      [k: string]: unknown;
    } | null;
    domain?: {
      name?: string;
      delegated?: boolean;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "deployment".
 */
export interface Deployment {
  payload?: {
    deployment: {
      name: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "project".
 */
export interface Project {
  payload?: {
    project: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "domain".
 */
export interface Domain {
  payload?: {
    domain: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
