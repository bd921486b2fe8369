// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = {
  [k: string]: unknown;
} & {
  sid?: string | null;
  search_name?: string | null;
  app?: string | null;
  owner?: string | null;
  results_link?: string | null;
  result?: {
    host?: string | null;
    source?: string | null;
    sourcetype?: string | null;
    _time?: string | null;
    _raw?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
};
