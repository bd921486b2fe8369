// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  canon_url?: string;
  user?: string;
  truncated?: boolean;
  repository: {
    name: string;
    absolute_url: string;
    owner?: string;
    [k: string]: unknown;
  };
  commits?: {
    raw_node: string;
    message?: string;
    branch?: string | null;
    author?: string;
    raw_author?: string;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
