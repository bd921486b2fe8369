// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = {
  [k: string]: unknown;
} & {
  branch?: string;
  ref?: string;
  before?: string;
  after?: string;
  pusher_name?: string;
  push_is_too_large?: boolean;
  repository?: {
    name: string;
    url?: string;
    [k: string]: unknown;
  };
  commits?: {
    id: string;
    message?: string;
    url?: string;
    author?: {
      name?: string;
      email?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  }[];
  revision?: number | string;
  changeset_url?: string;
  message?: string;
  author?: string;
  author_full_name?: string;
  changed_files?: Changes;
  changed_dirs?: Changes;
  [k: string]: unknown;
};
/**
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "changes".
 */
export type Changes = string[][];
