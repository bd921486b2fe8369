// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event: string;
  timestamp?: string;
  object?: {
    id?: string;
    type?: string;
    title?: string;
    status?: string;
    priority?: string;
    url?: string;
    [k: string]: unknown;
  };
  space?: {
    id?: string;
    name?: string;
    [k: string]: unknown;
  };
  user?: {
    id?: string;
    name?: string;
    email?: string;
    [k: string]: unknown;
  };
  changes?: {
    fields_updated?: string[];
    summary?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
