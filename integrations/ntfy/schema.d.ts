// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  topic?: string;
  message: string;
  title?: string | null;
  priority?: number | string | null;
  tags?: string[] | string | null;
  click?: string | null;
  attach?: string | null;
  filename?: string | null;
  icon?: string | null;
  markdown?: boolean | string | null;
  actions?:
    | {
        action?: string;
        label?: string;
        url?: string;
        [k: string]: unknown;
      }[]
    | string
    | null;
  [k: string]: unknown;
}
