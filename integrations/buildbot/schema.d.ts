// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event: string;
  buildid: number;
  buildername: string;
  url?: string | null;
  project?: string | null;
  timestamp?: number | null;
  results?: number | null;
  [k: string]: unknown;
}
