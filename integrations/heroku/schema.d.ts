// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  app: string;
  app_uuid?: string;
  user?: string;
  url?: string;
  head?: string;
  head_long?: string;
  prev_head?: string;
  git_log?: string;
  release?: string;
  [k: string]: unknown;
}
