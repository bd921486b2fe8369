// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event?: string;
  version?: string;
  organization?: {
    name?: string;
    [k: string]: unknown;
  } | null;
  project?: {
    name?: string;
    [k: string]: unknown;
  };
  repository?: {
    url?: string | null;
    [k: string]: unknown;
  } | null;
  workflow?: {
    id?: string;
    [k: string]: unknown;
  } | null;
  revision?: {
    tag?:
      | string
      | {
          name?: string;
          [k: string]: unknown;
        }
      | null;
    commit_sha?: string | null;
    commit_message?: string | null;
    sender?: {
      login?: string | null;
      [k: string]: unknown;
    } | null;
    branch?: {
      name?: string;
      [k: string]: unknown;
    } | null;
    pull_request?: {
      number?: string | number;
      name?: string | null;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  } | null;
  pipeline?: {
    name?: string | null;
    id?: string;
    result?: string;
    result_reason?: string | null;
    running_at?: string | null;
    created_at?: unknown;
    done_at?: string | null;
    [k: string]: unknown;
  };
  blocks?: unknown[] | null;
  project_name?: string;
  result?: string;
  branch_name?: string | null;
  build_url?: string | null;
  build_number?: number | null;
  build_html_url?: string | null;
  html_url?: string | null;
  number?: number | null;
  server_name?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
  commit?: {
    id?: string;
    url?: string | null;
    message?: string | null;
    author_name?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pipeline".
 */
export interface Pipeline {
  project: {
    [k: string]: unknown;
  };
  pipeline: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "classic".
 */
export interface Classic {
  [k: string]: unknown;
}
