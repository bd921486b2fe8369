// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  check_id?: number | null;
  check_name: string;
  check_type?: string | null;
  check_params?: {
    hostname?: string | null;
    full_url?: string | null;
    port?: number | null;
    [k: string]: unknown;
  } | null;
  tags?: string[] | null;
  previous_state?: string | null;
  current_state: string;
  importance_level?: string | null;
  state_changed_timestamp?: number | null;
  description?: string | null;
  long_description?: string | null;
  custom_message?: string | null;
  first_probe?: {
    location?: string | null;
    [k: string]: unknown;
  } | null;
  second_probe?: {
    location?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
