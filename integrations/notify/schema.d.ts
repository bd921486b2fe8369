// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  title?: unknown;
  subject?: unknown;
  message?: unknown;
  text?: unknown;
  body?: unknown;
  content?: unknown;
  description?: unknown;
  url?: unknown;
  link?: unknown;
  priority?: unknown;
  severity?: unknown;
  status?: unknown;
  level?: unknown;
  topic?: unknown;
  [k: string]: unknown;
}
