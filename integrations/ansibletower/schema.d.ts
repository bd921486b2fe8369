// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: number | string;
  name: string;
  status: string;
  friendly_name?: string | null;
  url?: string | null;
  created_by?: string | null;
  started?: string | null;
  finished?: string | null;
  traceback?: string | null;
  playbook?: string | null;
  project?: string | null;
  inventory?: string | null;
  limit?: string | null;
  credential?: string | null;
  extra_vars?: string | null;
  hosts?: {
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
