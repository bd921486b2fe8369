// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  topic?: unknown;
  subject?: unknown;
  title?: unknown;
  item?: unknown;
  [k: string]: unknown;
}
