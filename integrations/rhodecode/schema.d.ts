// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event: {
    name: string;
    actor?: {
      username?: string;
      [k: string]: unknown;
    };
    repo: {
      repo_name: string;
      url?: string;
      repo_type?: string;
      [k: string]: unknown;
    };
    push?: {
      branches?: {
        name?: string;
        url?: string;
        [k: string]: unknown;
      }[];
      tags?: {
        name?: string;
        url?: string;
        [k: string]: unknown;
      }[];
      commits?: {
        raw_id: string;
        message: string;
        url?: string;
        author?: string;
        branch?: string | null;
        [k: string]: unknown;
      }[];
      [k: string]: unknown;
    };
    pullrequest?: {
      pull_request_id: number;
      title: string;
      url?: string;
      status?: string;
      description?: string;
      commits?: unknown[];
      [k: string]: unknown;
    };
    comment?: {
      text?: string;
      url?: string;
      status?: string | null;
      [k: string]: unknown;
    };
    commit?: {
      raw_id?: string;
      url?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "push".
 */
export interface Push {
  event?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pullrequest".
 */
export interface Pullrequest {
  event?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
