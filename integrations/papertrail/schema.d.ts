// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  saved_search: {
    id?: number | string;
    name: string;
    query?: string | null;
    html_search_url?: string;
    html_edit_url?: string;
    [k: string]: unknown;
  };
  events?: {
    [k: string]: unknown;
  }[];
  counts?: {
    [k: string]: unknown;
  }[];
  min_id?: number | string;
  max_id?: number | string;
  [k: string]: unknown;
}
