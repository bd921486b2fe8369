// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  hostname: string;
  trigger: string;
  status: string;
  severity?: string | null;
  item?: string | null;
  link?: string | null;
  duration?: string | null;
  user?: string | null;
  update_action?: string | null;
  update_message?: string | null;
  [k: string]: unknown;
}
