// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  hook?: string;
  topic?: string;
  stream?: string;
  post_title?: string;
  post_url?: string;
  post_type?: string;
  display_name?: string;
  user_login?: string;
  user_email?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export interface User {
  [k: string]: unknown;
}
