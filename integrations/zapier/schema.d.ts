// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  type?: string;
  content?: string;
  topic?: unknown;
  subject?: unknown;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "message".
 */
export interface Message {
  [k: string]: unknown;
}
