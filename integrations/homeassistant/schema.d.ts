// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  message: string;
  topic?: string;
  title?: string;
  target?: string | unknown[];
  [k: string]: unknown;
}
